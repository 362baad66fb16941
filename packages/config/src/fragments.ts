import { z } from 'zod';

/**
 * Environment fragments shared by the apps. Each app composes the ones it uses into its own
 * schema, so a service that never touches Postgres does not ask for DATABASE_URL.
 */

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL (${protocols.join(' or ')})`,
    );

/** An unset or blank variable takes the default: `PORT=` must not become port 0. */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const port = (fallback: number) => z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(65535).default(fallback));
const positiveInt = (fallback: number) => z.preprocess(blankIsUnset, z.coerce.number().int().positive().default(fallback));

export const natsEnv = {
  NATS_URL: z
    .string()
    .trim()
    .default('nats://127.0.0.1:4222')
    .refine((v) => v.split(',').every((s) => /^(nats|tls|ws|wss):\/\/[^\s]+$/.test(s.trim())), 'must be nats:// URL(s), comma-separated'),
  /**
   * Prepended to every subject (`<prefix>.credit.score.address.v1`). Empty in production; tests
   * and side-by-side stacks set it so that they never answer each other's requests.
   */
  NATS_SUBJECT_PREFIX: z
    .string()
    .trim()
    .regex(/^([A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)?$/, 'must be dotted tokens without wildcards')
    .default(''),
  /**
   * This app's NATS user and password, when the server requires them (infra/nats/auth.conf gives
   * each app a user of its own that may use only its own subjects).
   */
  NATS_USER: z.preprocess(
    blankIsUnset,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or - (it names the reply inboxes, _INBOX_<user>)')
      .optional(),
  ),
  NATS_PASSWORD: z.preprocess(blankIsUnset, z.string().optional()),
  /** A CA certificate (PEM file) to verify the NATS servers' TLS certificates with; TLS is then required. */
  NATS_TLS_CA_FILE: z.preprocess(blankIsUnset, z.string().trim().optional()),
  /**
   * Where replies to this app's requests arrive. Unset: `_INBOX_<NATS_USER>` (nats.js' `_INBOX`
   * without a user), the inboxes infra/nats/auth.conf lets only that user read.
   */
  NATS_INBOX_PREFIX: z.preprocess(
    blankIsUnset,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be dotted tokens without wildcards')
      .optional(),
  ),
};

export const databaseEnv = {
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgresql://postgres@127.0.0.1:5432/credit'),
};

export const redisEnv = {
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
};

export const httpEnv = {
  HOST: z.string().trim().default('0.0.0.0'),
  PORT: port(8080),
};

/** What an app logs, traces and counts (docs/OPERATIONS.md, "Logs", "Traces" and "Metrics"). */
export const logEnv = {
  /** `silent`: no line at all, and (tracing off) no request context kept for log lines. */
  LOG_LEVEL: z.enum(['silent', 'fatal', 'error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /** `on`: one `info` line per request handled (the gateway's HTTP requests, a service's NATS requests). */
  ACCESS_LOG: z.preprocess(blankIsUnset, z.enum(['on', 'off']).default('off')),
  /** An OTLP/HTTP collector's base URL (spans go to `<url>/v1/traces`); unset: no span is made or sent. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(blankIsUnset, url(['http:', 'https:']).optional()),
  /** Which requests' spans are recorded and sent (read by the OpenTelemetry SDK; default: every one). */
  OTEL_TRACES_SAMPLER: z.preprocess(
    blankIsUnset,
    z
      .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
      .optional(),
  ),
  /** The share of traces recorded by the `*traceidratio` samplers, 0 to 1. */
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(blankIsUnset, z.coerce.number().min(0).max(1).optional()),
  /** `off`: nothing counted on any request path and no `/metrics` (benchmarks measure the cost with it). */
  METRICS: z.preprocess(blankIsUnset, z.enum(['on', 'off']).default('on')),
};

/** A port for the liveness / readiness probe of a NATS-only service (0 turns it off). */
export const healthEnv = {
  HEALTH_PORT: port(0),
};

/** A NATS service's load limit (one replica). */
export const serviceLoadEnv = {
  /**
   * Requests one replica works on at once; the others wait their turn (in order of arrival), each
   * at most half its subject's attempt timeout, and only one that could not start by then is
   * answered 503 with Retry-After: a burst of quick requests is queued, not shed (issue 35).
   */
  MAX_INFLIGHT_REQUESTS: positiveInt(128),
  /** Requests one replica keeps waiting their turn at most; beyond, 503 at once (bounds memory). */
  MAX_QUEUED_REQUESTS: positiveInt(10_000),
};

/** An optional URL setting (blank is unset). */
const optionalUrl = z.preprocess(blankIsUnset, z.string().url().optional());

/**
 * The Redis of a service's result cache, when it is not `REDIS_URL`. A cache must be allowed to
 * evict (`maxmemory-policy allkeys-lru`): random addresses fill it, and on the `noeviction` Redis of
 * the job queues a full cache would make jobs fail. `infra/redis/cache.conf` is such a Redis.
 */
export const cacheRedisEnv = {
  CACHE_REDIS_URL: optionalUrl,
};

export { blankIsUnset, optionalUrl, positiveInt };
