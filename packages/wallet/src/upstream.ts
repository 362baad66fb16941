import { DomainError } from '@credit/contracts/errors';

export interface UpstreamLogger {
  warn(message: string): void;
}

/**
 * Runs a read of a dependency outside the service (a chain's JSON-RPC node, the indexer's
 * database). Its failure is not a bug of ours and not the caller's fault: it answers 503
 * `service_unavailable` naming what did not answer, so a client knows to retry, and the cause is
 * logged. A DomainError passes through unchanged. Nothing is made up in place of the data.
 */
export async function upstream<T>(what: string, logger: UpstreamLogger, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    logger.warn(`${what} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    throw new DomainError('service_unavailable', `Temporarily unable to read ${what}; please retry shortly`);
  }
}
