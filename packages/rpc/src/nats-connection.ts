import { connect, type ConnectionOptions, type NatsConnection } from 'nats';
import { PermissionWatch } from './nats-permissions';

/** How an app proves itself to NATS and checks the server (all optional: a local NATS needs none). */
export interface NatsAuth {
  user?: string | undefined;
  password?: string | undefined;
  /** PEM file of the CA that signed the servers' certificates; TLS is then required. */
  tlsCaFile?: string | undefined;
  /** Where replies to this app's requests arrive; unset: `defaultInboxPrefix(user)`. */
  inboxPrefix?: string | undefined;
}

export interface NatsConnectionOptions extends NatsAuth {
  /** Comma-separated server URLs. */
  url: string;
  /** Shown in the server's connection list (`gateway`, `sandbox`, ...). */
  name: string;
}

/**
 * The reply inboxes of a NATS user: `_INBOX_<user>`, which infra/nats/auth.conf lets only that
 * user subscribe to, so no other app can read its replies. Without a user (a NATS without
 * authorization: tests, a laptop) nats.js' own `_INBOX`.
 */
export function defaultInboxPrefix(user: string | undefined): string {
  return user === undefined ? '_INBOX' : `_INBOX_${user}`;
}

/** The NATS part of an app's config (the `natsEnv` fragment) as connection credentials. */
export function natsAuthOf(config: {
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_INBOX_PREFIX?: string | undefined;
}): NatsAuth {
  return {
    user: config.NATS_USER,
    password: config.NATS_PASSWORD,
    tlsCaFile: config.NATS_TLS_CA_FILE,
    inboxPrefix: config.NATS_INBOX_PREFIX,
  };
}

/**
 * The one set of connection options of every NATS client of the platform (the gateway, the
 * services' transport, the CLI): it reconnects forever, so a NATS restart heals by itself; its
 * reply inboxes are the user's own (`defaultInboxPrefix`).
 */
export function natsConnectionOptions(options: NatsConnectionOptions): ConnectionOptions {
  const servers = options.url.split(',').map((s) => s.trim());
  return {
    servers,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    pingInterval: 10_000,
    // nats.js captures a stack trace per request for its error messages otherwise: a tenth of
    // the gateway's CPU per request (docs/benchmarks/2026-11-22.md).
    noAsyncTraces: true,
    inboxPrefix: options.inboxPrefix ?? defaultInboxPrefix(options.user),
    ...(options.user !== undefined ? { user: options.user, pass: options.password ?? '' } : {}),
    ...(options.tlsCaFile !== undefined
      ? { tls: { caFile: options.tlsCaFile } }
      : servers.some((s) => s.startsWith('tls://'))
        ? { tls: {} }
        : {}),
  };
}

/** The inbox prefix a connection was opened with (`natsConnectionOptions`), for callers that make their own inboxes. */
export function inboxPrefixOf(nc: NatsConnection): string | undefined {
  return (nc as { options?: ConnectionOptions }).options?.inboxPrefix;
}

/**
 * One connection per process; every permission violation the server reports on it is logged
 * (`PermissionWatch`). `overrides` change single options (the CLI: no reconnect, a short timeout).
 */
export async function connectNats(options: NatsConnectionOptions, overrides: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
  const nc = await connect({ ...natsConnectionOptions(options), ...overrides });
  PermissionWatch.of(nc, options.name);
  return nc;
}
