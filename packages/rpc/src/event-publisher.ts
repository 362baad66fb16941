import { EVENTS, type EventName, type EventPayload } from '@credit/contracts/events';
import type { NatsConnection } from 'nats';
import { publishRefused } from '@credit/observability/publish-metrics';
import { PermissionWatch } from './nats-permissions';
import { prefixed } from './subject-prefix';

/** The subject the gateways listen on for an event, with the deployment's prefix. */
export function eventSubject(name: EventName, subjectPrefix: string): string {
  return prefixed(subjectPrefix, EVENTS[name].subject);
}

/**
 * Broadcasts an event to every gateway replica (a key revoked, an account disabled) on an open
 * connection. Resolves with the subject once the server has taken the message; rejects with
 * `PublishRefusedError` when the server refused it (the connection's user may not publish there),
 * or when the server does not confirm within `timeoutMs`.
 */
export async function publishEvent<E extends EventName>(
  connection: NatsConnection,
  name: E,
  event: EventPayload<E>,
  options: { subjectPrefix: string; timeoutMs: number },
): Promise<string> {
  const payload: unknown = EVENTS[name].payload.parse(event);
  const subject = eventSubject(name, options.subjectPrefix);
  try {
    await PermissionWatch.of(connection).publishConfirmed(
      subject,
      () => connection.publish(subject, JSON.stringify(payload)),
      options.timeoutMs,
    );
  } catch (error) {
    publishRefused.inc();
    throw error;
  }
  return subject;
}
