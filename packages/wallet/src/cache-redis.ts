import { Redis, type RedisOptions } from 'ioredis';

const REDIS_READY_WAIT_MS = 2_000;

export interface CacheRedisLogger {
  warn(message: string): void;
}

/**
 * A Redis connection for a cache: a command waits at most 2 s and fails at once while Redis is
 * not connected (a miss, never a hang). Waits up to 2 s for Redis at boot, so the first requests
 * find the cache; a Redis that is down does not stop the service (it works without the cache until
 * Redis is back). Says so when the Redis never evicts.
 */
export async function openCacheRedis(url: string, service: string, logger: CacheRedisLogger): Promise<Redis> {
  const redis = new Redis(url, {
    ...cacheRedisOptions(`credit-${service}`),
    // the commands one tick issues (the cache reads of many requests that arrived together) leave
    // in one write, not one write each
    enableAutoPipelining: true,
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // reconnects repeat the same error; say it once per change
    if (error.message !== lastError) logger.warn(`redis: ${error.message}`);
    lastError = error.message;
  });
  redis.on('ready', () => (lastError = ''));
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) logger.warn(`redis not ready after ${REDIS_READY_WAIT_MS} ms: working without the cache until it is`);
  else await warnWhenCacheCannotEvict(redis, logger);
  return redis;
}

/** A cache connection's limits: a command waits at most 2 s and fails at once while Redis is not connected. */
export function cacheRedisOptions(connectionName: string): RedisOptions {
  return { commandTimeout: 2_000, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName };
}

export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => undefined);
  else redis.disconnect();
}

/**
 * Says so at boot when the cache's Redis never evicts: once full, it refuses writes, and if it
 * also holds job queues, those fail. A managed Redis may refuse CONFIG: then nothing is said.
 */
async function warnWhenCacheCannotEvict(redis: Redis, logger: CacheRedisLogger): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy').catch(() => [])) as string[];
  const policy = reply[1];
  if (policy !== undefined && !policy.startsWith('allkeys-')) {
    logger.warn(
      `the cache's Redis has maxmemory-policy ${policy}: set CACHE_REDIS_URL to a Redis with allkeys-lru (infra/redis/cache.conf)`,
    );
  }
}
