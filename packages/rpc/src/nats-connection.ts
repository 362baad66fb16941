import { connect, type NatsConnection } from 'nats';

export interface NatsConnectionOptions {
  /** Comma-separated server URLs. */
  url: string;
  /** Shown in the server's connection list (`gateway`, `sandbox`, ...). */
  name: string;
}

/** One connection per process; it reconnects forever, so a NATS restart heals by itself. */
export function connectNats(options: NatsConnectionOptions): Promise<NatsConnection> {
  return connect({
    servers: options.url.split(',').map((s) => s.trim()),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    pingInterval: 10_000,
    // nats.js captures a stack trace per request for its error messages otherwise: a tenth of
    // the gateway's CPU per request (docs/BENCHMARKS.md).
    noAsyncTraces: true,
  });
}
