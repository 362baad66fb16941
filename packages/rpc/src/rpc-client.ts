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
import { createInbox, headers as natsHeaders, type Msg, type NatsConnection, type NatsError, type Subscription } from 'nats';
import { jsonBytes } from './json-bytes';
import { prefixed } from './subject-prefix';

export interface SendOptions {
  requestId?: string;
  accountId?: string;
  /** Overrides the subject's own timeout (contracts `timeoutMs`). */
  timeoutMs?: number;
}

const decoder = new TextDecoder();

/**
 * The typed NATS client: `send(subject, request)` is typed by the subject, validates the request
 * before it leaves and the reply when it arrives, and always ends: a reply, a domain error, 503
 * when no service is subscribed, or 504 when none answers within the subject's timeout.
 *
 * It speaks @nestjs/microservices' NATS packet format (contracts `rpc-wire`) over a plain `nats`
 * connection: the same bytes as Nest's ClientNats without its per-request rxjs and serializer
 * layers (docs/decisions/0001). Replies come back on one wildcard inbox subscription, matched by
 * token; nats.js' own `request()` allocates an Error with a stack trace per request even when it
 * succeeds, a tenth of the gateway's CPU (docs/BENCHMARKS.md).
 */
export class RpcClient {
  private seq = 0;
  private closed = false;
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjectPrefix = '',
    /** Caps every subject's timeout (tests, operators); undefined keeps the contracts' values. */
    private readonly maxTimeoutMs?: number,
  ) {
    this.inbox = createInbox();
    this.subscription = nc.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => (error ? this.failAll(error) : this.settle(msg)),
    });
  }

  async send<S extends SubjectName>(
    subject: S,
    request: RequestOf<S>,
    options: SendOptions = {},
  ): Promise<ReplyOf<S>> {
    const def = SUBJECTS[subject];
    if (this.closed) throw new DomainError('service_unavailable', 'The message bus client is closed');
    const data: ParsedRequestOf<S> = parseRequest(subject, request);
    const token = (this.seq++).toString(36);
    const timeout = Math.min(options.timeoutMs ?? def.timeoutMs, this.maxTimeoutMs ?? Infinity);
    // A fresh header set: `append` is `set` without nats.js' search-and-delete of earlier values.
    const h = natsHeaders();
    if (options.requestId) h.append(RPC_HEADERS.requestId, options.requestId);
    if (options.accountId) h.append(RPC_HEADERS.accountId, options.accountId);

    const raw = await new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new DomainError('upstream_timeout', `The ${def.service} service did not answer within ${timeout} ms`));
      }, timeout);
      this.pending.set(token, { resolve, reject, timer, service: def.service });
      try {
        this.nc.publish(
          prefixed(this.subjectPrefix, subject),
          jsonBytes({ pattern: subject, data, id: token }),
          { reply: `${this.inbox}.${token}`, headers: h },
        );
      } catch (error) {
        this.pending.delete(token);
        clearTimeout(timer);
        reject(busError(error));
      }
    });

    const packet = decodePacket(raw, subject);
    if (packet.err !== undefined && packet.err !== null) {
      throw (
        DomainError.fromWire(packet.err) ??
        new DomainError('internal', `${def.service} service failed on ${subject}`)
      );
    }
    return parseReply(subject, packet.response);
  }

  /** Stops listening for replies; requests still waiting fail as unavailable. */
  close(): void {
    this.closed = true;
    this.subscription.unsubscribe();
    this.failAll(new Error('client closed'));
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const waiting = this.pending.get(token);
    if (waiting === undefined) return; // late reply after a timeout
    this.pending.delete(token);
    clearTimeout(waiting.timer);
    // NATS answers a request nobody is subscribed to with an empty 503 status message.
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      waiting.reject(new DomainError('service_unavailable', `The ${waiting.service} service is unavailable; try again shortly`));
    } else {
      waiting.resolve(msg.data);
    }
  }

  private failAll(error: unknown): void {
    for (const [token, waiting] of this.pending) {
      this.pending.delete(token);
      clearTimeout(waiting.timer);
      waiting.reject(busError(error));
    }
  }
}

interface Pending {
  resolve(data: Uint8Array): void;
  reject(error: DomainError): void;
  timer: NodeJS.Timeout;
  service: string;
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

function busError(error: unknown): DomainError {
  const code = (error as NatsError | undefined)?.code ?? 'unknown';
  return new DomainError('service_unavailable', `The message bus is unavailable (${code})`);
}
