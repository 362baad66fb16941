import type { EventName, EventPayload } from '@credit/contracts/events';
import { publishEvent as publishOn } from '@credit/rpc/event-publisher';
import { connectNats, type NatsAuth } from '@credit/rpc/nats-connection';

export interface PublishEventOptions {
  /** Comma-separated NATS server URLs. */
  natsUrl: string;
  /** The CLI's NATS user, password and CA, when the server requires them. */
  natsAuth?: NatsAuth;
  subjectPrefix: string;
  /** Longest wait to connect, and then for the server to confirm the publish. */
  timeoutMs?: number;
}

/**
 * Broadcasts an event to every gateway replica from the CLI, on a connection of its own. Resolves
 * with the subject once the server has taken the message; rejects when NATS cannot be reached,
 * does not answer in time, or refuses the publish (the CLI's NATS user may not publish there).
 */
export async function publishEvent<E extends EventName>(name: E, event: EventPayload<E>, options: PublishEventOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const connection = await connectNats(
    { url: options.natsUrl, name: 'credit-cli', ...options.natsAuth },
    { timeout: timeoutMs, reconnect: false },
  );
  try {
    return await publishOn(connection, name, event, { subjectPrefix: options.subjectPrefix, timeoutMs });
  } finally {
    await connection.close().catch(() => undefined);
  }
}
