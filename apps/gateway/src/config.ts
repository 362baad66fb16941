import { z } from 'zod';
import { loadConfig } from '@credit/config/load-config';
import { blankIsUnset, databaseEnv, healthEnv, httpEnv, logEnv, natsEnv, positiveInt, redisEnv } from '@credit/config/fragments';
import { x402Env, x402Settings } from '@credit/x402/x402-settings';
import { trustProxyEnv } from './http/trust-proxy';

export const GatewayEnv = z.object({
  ...httpEnv,
  ...natsEnv,
  ...databaseEnv,
  ...redisEnv,
  ...logEnv,
  /** The probe port (`/health`, `/ready`, `/metrics`), apart from the public `PORT`; 0: none. */
  ...healthEnv,
  /** How long a verified key stays in the in-process cache; revocations also arrive over NATS. */
  KEY_CACHE_TTL_MS: positiveInt(60_000),
  /** How long an unknown key hash is remembered as unknown (keys are random: it cannot appear later). */
  KEY_NEGATIVE_TTL_MS: positiveInt(300_000),
  KEY_CACHE_MAX: positiveInt(100_000),
  /** Unknown key hashes remembered (apart from the keys found, so a flood cannot evict those). */
  KEY_NEGATIVE_CACHE_MAX: positiveInt(100_000),
  /**
   * Requests of one account (an x402 caller: its client address) this replica forwards at once;
   * its others wait their turn, so one caller's burst cannot crowd out the rest (issue 35).
   */
  ACCOUNT_MAX_INFLIGHT: positiveInt(64),
  /** Requests of one account waiting their turn at most; beyond, 503 with Retry-After. */
  ACCOUNT_MAX_QUEUED: positiveInt(10_000),
  /** Key lookups waiting on Postgres at once; beyond, an uncached key gets 503 at once. */
  KEY_LOOKUP_MAX_INFLIGHT: positiveInt(64),
  /** How often `last used` times are written to Postgres, in one statement. */
  LAST_USED_FLUSH_MS: positiveInt(5_000),
  /** Caps every subject's own reply timeout (contracts `timeoutMs`); unset keeps them as they are. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** Largest JSON body accepted (413 beyond). */
  BODY_LIMIT_BYTES: positiveInt(64 * 1024),
  /**
   * How long a client may take to send a whole request, headers and body (408 beyond): a client
   * that stalls cannot hold a connection open. Not the time to answer (the NATS hop has its own).
   */
  REQUEST_TIMEOUT_MS: positiveInt(30_000),
  /** Postgres (key lookups): most time to open a connection or wait for a free one in the pool. */
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(2_000),
  /** Postgres (key lookups): most time a statement may take. */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(5_000),
  /**
   * Requests a minute per account, per plan (token buckets: a burst of this many, refilled
   * continuously). Sandbox and /users/me count; /users/me/usage has its own limit.
   */
  RATE_LIMIT_FREE_PER_MIN: positiveInt(10),
  RATE_LIMIT_PRO_PER_MIN: positiveInt(100),
  RATE_LIMIT_ENTERPRISE_PER_MIN: positiveInt(1_000),
  /**
   * Paid requests a minute per x402 payer (a payer has no account and no plan): counted after the
   * payment is verified, on the signer it proves, so nobody can spend someone else's limit.
   */
  RATE_LIMIT_X402_PER_MIN: positiveInt(100),
  /**
   * Requests carrying an x402 payment header a minute per client address (`request.ip`, see
   * TRUST_PROXY), counted before any verification work: forged or garbage payments cost one Redis call.
   */
  RATE_LIMIT_X402_UNVERIFIED_PER_MIN: positiveInt(600),
  /** x402 (docs/API.md §5): where payments go, and the networks offered. Unset X402_PAY_TO: no x402, 401 without a key. */
  ...x402Env,
  /** The 402's `signup_url` (where an account and a key are made); default: the dashboard on this host. */
  SIGNUP_URL: z.preprocess(blankIsUnset, z.string().url().optional()),
  /** `GET /users/me/usage` a minute per account, apart from the API's limit. */
  USAGE_RATE_LIMIT_PER_MIN: positiveInt(120),
  /** The metering's Redis: most time a command may take before the request fails closed (503). */
  METERING_REDIS_TIMEOUT_MS: positiveInt(1_000),
  /**
   * How often the ledger outbox is moved into the ledger queue: each move costs a queue job's fixed
   * work on every replica, so a second's worth at a time (docs/benchmarks/2026-11-24.md); the ledger follows
   * the counter within it.
   */
  LEDGER_FLUSH_MS: positiveInt(1_000),
  /** How often the requests each key made, by status class, are added to the dashboard's counts. */
  USAGE_STATUS_FLUSH_MS: positiveInt(2_000),
  /** Outbox messages per queue job (one COPY into the ledger). */
  LEDGER_BATCH_MAX: positiveInt(500),
  /** Outbox entries a dead replica had read are taken over after this long. */
  LEDGER_CLAIM_IDLE_MS: positiveInt(10_000),
  /** A ledger job whose gateway died is taken over after this long. */
  LEDGER_JOB_LOCK_MS: positiveInt(30_000),
  /**
   * The gateway's public base URL (`https://api.example.com`): the dashboard's email links point
   * there. Unset: the address the gateway listens on (never the request's Host header, which a
   * caller chooses).
   */
  PUBLIC_URL: z.preprocess(blankIsUnset, z.string().url().optional()),
  /** Where the dashboard's verification emails go out (`smtp://user:pass@host:587`, `smtps://…`); unset: to the log. */
  SMTP_URL: z.preprocess(blankIsUnset, z.string().url().optional()),
  /** The verification emails' sender. */
  MAIL_FROM: z.string().trim().default('Credit dashboard <no-reply@localhost>'),
  /** How long a dashboard session lasts after sign-in. */
  DASHBOARD_SESSION_TTL_HOURS: positiveInt(24 * 7),
  /** How long a sign-up's email link can be followed. */
  EMAIL_VERIFICATION_TTL_HOURS: positiveInt(24),
  /** How long a password reset's email link can be followed. */
  PASSWORD_RESET_TTL_MINUTES: positiveInt(60),
  /**
   * `1` writes every dashboard mail's text, its live sign-up and reset links included, to the log
   * (a development stack without a mail server; `pnpm start` on the devnet sets it). Off by default:
   * a link in a log is a password reset for whoever reads the log.
   */
  MAIL_LOG_LINKS: z.preprocess(blankIsUnset, z.enum(['0', '1']).default('0')),
  /**
   * Uses of an email link (sign-up or password reset, with the new password) per client address
   * and per link in the window, counted before the link is looked up or any password hashed.
   */
  EMAIL_LINK_MAX_ATTEMPTS_PER_IP: positiveInt(20),
  EMAIL_LINK_MAX_ATTEMPTS_PER_TOKEN: positiveInt(5),
  EMAIL_LINK_WINDOW_SECONDS: positiveInt(15 * 60),
  /**
   * At most one account mail of a kind (sign-up, forgot password) per email in this many seconds,
   * however many requests ask: nobody floods an inbox through the dashboard. 0: no such limit.
   */
  ACCOUNT_MAIL_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Failed sign-ins per email in the window before further attempts get 429. */
  SIGNIN_MAX_FAILURES: positiveInt(5),
  /** Sign-in and sign-up attempts per client address in the window. */
  SIGNIN_MAX_ATTEMPTS_PER_IP: positiveInt(30),
  SIGNIN_WINDOW_SECONDS: positiveInt(15 * 60),
  /**
   * `Secure` on the dashboard's cookies: `auto` sets it unless the dashboard runs on plain http on
   * localhost (PUBLIC_URL's, or without it the request's, host is localhost, 127.0.0.1 or ::1);
   * `on` and `off` force it.
   */
  DASHBOARD_SECURE_COOKIES: z.enum(['auto', 'on', 'off']).default('auto'),
  /**
   * The proxies in front of the gateway (Fastify's `trustProxy`), which make `request.ip` the
   * client's address for the per-client limits: a hop count (1 behind one Ingress) or their
   * IPs / CIDR blocks. Unset: none, `X-Forwarded-For` is ignored.
   */
  TRUST_PROXY: trustProxyEnv,
  /**
   * `off` serves production routes without charging or rate limiting. For benchmarks that measure
   * what metering costs, never for a deployment: the gateway warns at boot.
   */
  METERING: z.enum(['on', 'off']).default('on'),
  /**
   * `1`: a webhook's URL may be http and point at private, loopback or link-local addresses (the
   * devnet's receivers; `pnpm start` sets it). Never in a deployment (docs/OPERATIONS.md, "Webhooks").
   */
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(blankIsUnset, z.enum(['0', '1']).default('0')).transform((v) => v === '1'),
});
export type GatewayConfig = z.output<typeof GatewayEnv>;

export function gatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = loadConfig('gateway', GatewayEnv, env);
  // The x402 settings' own checks (the networks file) fail the boot too, not the first request.
  x402Settings(config);
  return config;
}
