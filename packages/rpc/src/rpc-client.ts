import {
  SUBJECTS,
  type ParsedRequestOf,
  type ReplyOf,
  type RequestOf,
  type SubjectName,
} from '@credit/contracts/subjects';
import { DomainError } from '@credit/contracts/errors';
import { parseReply, parseRequest } from '@credit/contracts/validate';
import { RPC_HEADERS, type RpcReplyPacket } from '@credit/contracts/rpc-wire';
import { ErrorCode, headers as natsHeaders, type NatsConnection, type NatsError } from 'nats';
import { prefixed } from './subject-prefix';

export interface SendOptions {
  requestId?: string;
  accountId?: string;
  /** Overrides the subject's own timeout (contracts `timeoutMs`). */
  timeoutMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The typed NATS client: `send(subject, request)` is typed by the subject, validates the request
 * before it leaves and the reply when it arrives, and always ends: a reply, a domain error, 503
 * when no service is subscribed, or 504 when none answers within the subject's timeout.
 *
 * It speaks @nestjs/microservices' NATS packet format (contracts `rpc-wire`) over a plain `nats`
 * connection: the same bytes as Nest's ClientNats without its per-request rxjs and serializer
 * layers, which cost most of the gateway's time per request (docs/BENCHMARKS.md).
 */
export class RpcClient {
  private seq = 0;
  private readonly idPrefix = `${process.pid.toString(36)}${Date.now().toString(36)}`;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjectPrefix = '',
    /** Caps every subject's timeout (tests, operators); undefined keeps the contracts' values. */
    private readonly maxTimeoutMs?: number,
  ) {}

  async send<S extends SubjectName>(
    subject: S,
    request: RequestOf<S>,
    options: SendOptions = {},
  ): Promise<ReplyOf<S>> {
    const def = SUBJECTS[subject];
    const data: ParsedRequestOf<S> = parseRequest(subject, request);
    const id = `${this.idPrefix}-${(this.seq++).toString(36)}`;
    const timeout = Math.min(options.timeoutMs ?? def.timeoutMs, this.maxTimeoutMs ?? Infinity);
    const h = natsHeaders();
    if (options.requestId) h.set(RPC_HEADERS.requestId, options.requestId);
    if (options.accountId) h.set(RPC_HEADERS.accountId, options.accountId);

    let raw: Uint8Array;
    try {
      const msg = await this.nc.request(
        prefixed(this.subjectPrefix, subject),
        encoder.encode(JSON.stringify({ pattern: subject, data, id })),
        { timeout, headers: h },
      );
      raw = msg.data;
    } catch (error) {
      throw transportError(error as NatsError, def.service, timeout);
    }

    const packet = decodePacket(raw, subject);
    if (packet.err !== undefined && packet.err !== null) {
      throw (
        DomainError.fromWire(packet.err) ??
        new DomainError('internal', `${def.service} service failed on ${subject}`)
      );
    }
    return parseReply(subject, packet.response);
  }
}

function decodePacket(raw: Uint8Array, subject: string): RpcReplyPacket {
  try {
    const value: unknown = JSON.parse(decoder.decode(raw));
    if (typeof value === 'object' && value !== null) return value as RpcReplyPacket;
  } catch {
    // fall through
  }
  throw new DomainError('internal', `unreadable reply on ${subject}`);
}

function transportError(error: NatsError, service: string, timeoutMs: number): DomainError {
  switch (error?.code) {
    case ErrorCode.NoResponders:
      return new DomainError('service_unavailable', `The ${service} service is unavailable; try again shortly`);
    case ErrorCode.Timeout:
      return new DomainError('upstream_timeout', `The ${service} service did not answer within ${timeoutMs} ms`);
    default:
      return new DomainError('service_unavailable', `The message bus is unavailable (${error?.code ?? 'unknown'})`);
  }
}
