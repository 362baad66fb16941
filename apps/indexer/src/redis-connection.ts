import type { ConnectionOptions } from 'bullmq';
import { redisOptionsFromUrl } from '@credit/config/redis-options';

/**
 * BullMQ connection *options* from a redis:// or rediss:// URL (given options, BullMQ owns its
 * connections and closes them on `close()`; a shared ioredis instance would keep the process alive).
 */
export function redisConnection(redisUrl: string): ConnectionOptions {
  // workers block on Redis; BullMQ requires maxRetriesPerRequest: null for them
  return { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null };
}
