import { connect, type ConnectionOptions, type NatsConnection } from 'nats';

/** How an app proves itself to NATS and checks the server (all optional: a local NATS needs none). */
export interface NatsAuth {
  user?: string | undefined;
  password?: string | undefined;
  /** PEM file of the CA that signed the servers' certificates; TLS is then required. */
  tlsCaFile?: string | undefined;
}

export interface NatsConnectionOptions extends NatsAuth {
  /** Comma-separated server URLs. */
  url: string;
  /** Shown in the server's connection list (`gateway`, `sandbox`, ...). */
  name: string;
}

/** The NATS part of an app's config (the `natsEnv` fragment) as connection credentials. */
export function natsAuthOf(config: {
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
}): NatsAuth {
  return { user: config.NATS_USER, password: config.NATS_PASSWORD, tlsCaFile: config.NATS_TLS_CA_FILE };
}

/**
 * The one set of connection options of every NATS client of the platform (the gateway, the
 * services' transport, the CLI): it reconnects forever, so a NATS restart heals by itself.
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
    // the gateway's CPU per request (docs/BENCHMARKS.md).
    noAsyncTraces: true,
    ...(options.user !== undefined ? { user: options.user, pass: options.password ?? '' } : {}),
    ...(options.tlsCaFile !== undefined
      ? { tls: { caFile: options.tlsCaFile } }
      : servers.some((s) => s.startsWith('tls://'))
        ? { tls: {} }
        : {}),
  };
}

/** One connection per process. */
export function connectNats(options: NatsConnectionOptions): Promise<NatsConnection> {
  return connect(natsConnectionOptions(options));
}
