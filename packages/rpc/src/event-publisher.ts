import { EVENTS, type EventName, type EventPayload } from '@credit/contracts/events';
import type { NatsConnection } from 'nats';
import { prefixed } from './subject-prefix';

/** The subject the gateways listen on for an event, with the deployment's prefix. */
export function eventSubject(name: EventName, subjectPrefix: string): string {
  return prefixed(subjectPrefix, EVENTS[name].subject);
}

/**
 * Broadcasts an event to every gateway replica (a key revoked, an account disabled) on an open
 * connection. Resolves with the subject once the server has the message (flush); rejects when it
 * does not confirm within `timeoutMs`.
 */
export async function publishEvent<E extends EventName>(
  connection: NatsConnection,
  name: E,
  event: EventPayload<E>,
  options: { subjectPrefix: string; timeoutMs: number },
): Promise<string> {
  const payload: unknown = EVENTS[name].payload.parse(event);
  const subject = eventSubject(name, options.subjectPrefix);
  connection.publish(subject, JSON.stringify(payload));
  await withTimeout(connection.flush(), options.timeoutMs, `NATS did not confirm the publish within ${options.timeoutMs} ms`);
  return subject;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
