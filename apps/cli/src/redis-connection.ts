import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { Redis } from 'ioredis';
import { RedisUnavailableError } from './cli-errors';

const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 5_000;

/**
 * The CLI's Redis connection, opened on first use only (most commands never need Redis): one
 * attempt to connect, bounded by a timeout and never retried, and each command bounded too, so a
 * Redis that is away fails the command at once with RedisUnavailableError instead of hanging.
 */
export class LazyRedis {
  private client: Redis | undefined;
  private connecting: Promise<Redis> | undefined;

  constructor(private readonly redisUrl: () => string) {}

  /** The connected client; rejects with RedisUnavailableError when Redis cannot be reached. */
  get(): Promise<Redis> {
    return (this.connecting ??= this.open());
  }

  /** Closes the connection, if one was opened. Never rejects. */
  async close(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  }

  private async open(): Promise<Redis> {
    const client = new Redis({
      ...redisOptionsFromUrl(this.redisUrl()),
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
      connectionName: 'credit-cli',
    });
    this.client = client;
    // connect() rejects with "Connection is closed."; the cause comes as an error event
    let cause: Error | undefined;
    client.on('error', (error: Error) => {
      cause ??= error;
    });
    try {
      await client.connect();
    } catch (error) {
      throw new RedisUnavailableError((cause ?? (error as Error)).message);
    }
    return client;
  }
}
