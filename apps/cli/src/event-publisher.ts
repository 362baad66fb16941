import { EVENTS, type EventName, type EventPayload } from '@credit/contracts/events';
import { natsConnectionOptions, type NatsAuth } from '@credit/rpc/nats-connection';
import { prefixed } from '@credit/rpc/subject-prefix';
import { connect } from 'nats';

export interface PublishEventOptions {
  /** Comma-separated NATS server URLs. */
  natsUrl: string;
  /** The CLI's NATS user, password and CA, when the server requires them. */
  natsAuth?: NatsAuth;
  subjectPrefix: string;
  /** Longest wait to connect, and then for the server to confirm the publish. */
  timeoutMs?: number;
}

/** The subject the gateways listen on for an event, with the deployment's prefix. */
export function eventSubject(name: EventName, subjectPrefix: string): string {
  return prefixed(subjectPrefix, EVENTS[name].subject);
}

/**
 * Broadcasts an event to every gateway replica (a key revoked, an account disabled). Resolves
 * with the subject once the server has the message (flush); rejects when NATS cannot be reached
 * or does not answer in time.
 */
export async function publishEvent<E extends EventName>(name: E, event: EventPayload<E>, options: PublishEventOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const payload: unknown = EVENTS[name].payload.parse(event);
  const subject = eventSubject(name, options.subjectPrefix);
  const connection = await connect({
    ...natsConnectionOptions({ url: options.natsUrl, name: 'credit-cli', ...options.natsAuth }),
    timeout: timeoutMs,
    reconnect: false,
  });
  try {
    connection.publish(subject, JSON.stringify(payload));
    await withTimeout(connection.flush(), timeoutMs, `NATS did not confirm the publish within ${timeoutMs} ms`);
    return subject;
  } finally {
    await connection.close().catch(() => undefined);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
