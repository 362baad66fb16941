/**
 * The NATS message format: the one @nestjs/microservices' NATS transport speaks, so any Nest
 * service answers it and any NATS client can call a service directly.
 *
 * request:  { pattern: <subject>, data: <request>, id: <correlation id> }
 * reply:    { id, response: <reply> , isDisposed: true }   or   { id, err: WireError, isDisposed: true }
 *
 * Request metadata travels in NATS headers, never in the payload.
 */
export const RPC_HEADERS = {
  requestId: 'x-request-id',
  /** W3C trace context of the calling span (`00-<trace id>-<span id>-<flags>`). */
  traceparent: 'traceparent',
} as const;

export interface RpcRequestPacket<T = unknown> {
  pattern: string;
  data: T;
  id: string;
}

export interface RpcReplyPacket<T = unknown> {
  id?: string;
  response?: T;
  err?: unknown;
  isDisposed?: boolean;
}
