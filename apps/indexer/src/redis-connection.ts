import type { ConnectionOptions } from 'bullmq';

/**
 * BullMQ connection *options* from a redis:// or rediss:// URL (given options, BullMQ owns its
 * connections and closes them on `close()`; a shared ioredis instance would keep the process alive).
 */
export function redisConnection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  const db = url.pathname.replace(/^\//, '');
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    // workers block on Redis; BullMQ requires this for them
    maxRetriesPerRequest: null,
  };
}
