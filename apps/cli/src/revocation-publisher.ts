import { EVENTS, type ApiKeyRevokedEvent } from '@credit/contracts/events';
import { prefixed } from '@credit/rpc/subject-prefix';
import { connect } from 'nats';

export interface PublishRevocationOptions {
  /** Comma-separated NATS server URLs. */
  natsUrl: string;
  subjectPrefix: string;
  /** Longest wait to connect, and then for the server to confirm the publish. */
  timeoutMs?: number;
}

/** The subject the gateways listen on for revocations, with the deployment's prefix. */
export function revocationSubject(subjectPrefix: string): string {
  return prefixed(subjectPrefix, EVENTS.apiKeyRevoked.subject);
}

/**
 * Broadcasts that a key was revoked, so that every gateway replica drops it from its key cache
 * at once. Resolves once the server has the message (flush); rejects when NATS cannot be
 * reached or does not answer in time.
 */
export async function publishKeyRevoked(event: ApiKeyRevokedEvent, options: PublishRevocationOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const payload = EVENTS.apiKeyRevoked.payload.parse(event);
  const subject = revocationSubject(options.subjectPrefix);
  const connection = await connect({
    servers: options.natsUrl.split(',').map((server) => server.trim()),
    name: 'credit-cli',
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
