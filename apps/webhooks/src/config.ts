import { z } from 'zod';
import { loadConfig } from '@credit/config/load-config';
import { blankIsUnset, databaseEnv, healthEnv, logEnv, natsEnv, positiveInt, redisEnv } from '@credit/config/fragments';

export const WebhooksEnv = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...healthEnv,
  ...logEnv,
  /**
   * NATS (the detector asks the scoring service, `credit.score.watch.v1`). The prefix is the
   * stack's, as the gateway's: it also keys the delivery queue (`<prefix>:webhooks`) and the
   * metering's counters the events are charged to.
   */
  ...natsEnv,
  /** The indexer's BullMQ prefix (its QUEUE_PREFIX): the detection queue lives under it. */
  INDEXER_QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
    .default('credit'),
  /** Detection jobs (committed ranges) processed at once in this process. */
  DETECT_CONCURRENCY: positiveInt(2),
  /** `off`: score changes are queued without charge (as the gateway's METERING=off serves requests). */
  METERING: z.enum(['on', 'off']).default('on'),
  /**
   * `1`: targets may be http and private, loopback or link-local addresses (the devnet, where the
   * receiver runs on the same machine). Never in a deployment: it opens the internal network to
   * anyone who registers a webhook.
   */
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(blankIsUnset, z.enum(['0', '1']).default('0')).transform((v) => v === '1'),
  /** How long an attempt may take, connection to the end of the answer; beyond, it failed. */
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  /** Deliveries in flight at once in this process. */
  CONCURRENCY: positiveInt(16),
  /** A job whose worker stops renewing its lock this long goes to another worker (a crashed one's). */
  JOB_LOCK_MS: positiveInt(30_000),
  /**
   * The retry schedule's base: attempt n + 1 starts `WEBHOOK_RETRY_BASE_MS · 2^(n-1)` after attempt
   * n fails. Unset (the default): each job's own backoff, the queue contract's 10.5 s
   * (`RETRY_BASE_MS`, 24 hours over 14 attempts). Set only to compress the schedule in a test or on
   * a devnet; it applies to every job this worker retries, whoever queued it.
   */
  WEBHOOK_RETRY_BASE_MS: z.preprocess(blankIsUnset, z.coerce.number().int().min(1).max(3_600_000).optional()),
});

export type WebhooksConfig = z.output<typeof WebhooksEnv>;

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function webhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return loadConfig('webhooks', WebhooksEnv, env);
}
