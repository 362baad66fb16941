import { SUBJECTS, type ParsedRequestOf, type ReplyOf, type RequestOf, type SubjectName } from '@credit/contracts/subjects';
import { DomainError } from '@credit/contracts/errors';
import { parseReply, parseRequest } from '@credit/contracts/validate';
import { RPC_HEADERS, type RpcReplyPacket } from '@credit/contracts/rpc-wire';
import {
  createInbox,
  Events,
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type NatsError,
  type Subscription,
} from 'nats';
import { outgoingTraceparent } from '@credit/telemetry/request-trace';
import { withSpan } from '@credit/telemetry/tracing';
import { jsonBytes } from './json-bytes';
import { inboxPrefixOf } from './nats-connection';
import { PermissionWatch } from './nats-permissions';
import { prefixed } from './subject-prefix';

export interface SendOptions {
  requestId?: string;
  /** Overrides the subject's own timeout (contracts `timeoutMs`). */
  timeoutMs?: number;
}

const decoder = new TextDecoder();

/**
 * A request nobody is subscribed to is refused by NATS at once (a 503 status). A replica that
 * is restarting is back within a second or two, so such a request is asked again after these
 * delays (1.5 s in all, always within the deadline) before the caller gets a 503.
 */
const NO_RESPONDER_BACKOFF_MS = [100, 200, 400, 800];

/**
 * The typed NATS client: `send(subject, request)` is typed by the subject, validates the request
 * before it leaves and the reply when it arrives, and always ends: a reply, a domain error, 503
 * when no service is subscribed or the bus is down, or 504 when none answers within the subject's
 * timeout.
 *
 * An idempotent subject (contracts `attemptTimeoutMs`) is asked again when an attempt goes
 * unanswered for that long: a replica killed with the request in hand never answers, and the
 * next attempt reaches another replica or the restarted one. All attempts share one deadline and
 * the first reply to any of them wins. A request nobody is subscribed to was received by no one,
 * so it is asked again, whatever the subject, for a second and a half.
 *
 * It speaks @nestjs/microservices' NATS packet format (contracts `rpc-wire`) over a plain `nats`
 * connection: the same bytes as Nest's ClientNats without its per-request rxjs and serializer
 * layers (docs/decisions/0001). Replies come back on one wildcard inbox subscription, matched by
 * token; nats.js' own `request()` allocates an Error with a stack trace per request even when it
 * succeeds, a tenth of the gateway's CPU (docs/benchmarks/2026-11-22.md). The inbox is under the
 * connection's inbox prefix (`_INBOX_<user>`), which only this app's user may subscribe to.
 *
 * A request the server refuses (the app's user may not publish on its subject) fails at once with
 * `internal` instead of waiting for its timeout: the refusal is a misconfiguration, logged by the
 * connection's `PermissionWatch`.
 */
export class RpcClient {
  private seq = 0;
  private closed = false;
  /** While the connection is down a request could only wait: it is refused at once instead. */
  private disconnected = false;
  private readonly inbox: string;
  private readonly pending = new Map<string, Attempt>();
  private readonly subscription: Subscription;
  private readonly stopWatching: () => void;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjectPrefix = '',
    /** Caps every subject's timeout (tests, operators); undefined keeps the contracts' values. */
    private readonly maxTimeoutMs?: number,
  ) {
    this.inbox = createInbox(inboxPrefixOf(nc));
    this.subscription = nc.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => (error ? this.failAll(error) : this.settle(msg)),
    });
    this.stopWatching = PermissionWatch.of(nc).onViolation((violation) => {
      if (violation.operation === 'publish') this.refused(violation.subject);
    });
    void this.watchConnection();
  }

  async send<S extends SubjectName>(subject: S, request: RequestOf<S>, options: SendOptions = {}): Promise<ReplyOf<S>> {
    const def = SUBJECTS[subject];
    if (this.closed) throw new DomainError('service_unavailable', 'The message bus client is closed');
    if (this.disconnected) throw new DomainError('service_unavailable', 'The message bus is unavailable; try again shortly');
    const data: ParsedRequestOf<S> = parseRequest(subject, request);
    const timeout = Math.min(options.timeoutMs ?? def.timeoutMs, this.maxTimeoutMs ?? Infinity);
    // A fresh header set: `append` is `set` without nats.js' search-and-delete of earlier values.
    const h = natsHeaders();
    if (options.requestId) h.append(RPC_HEADERS.requestId, options.requestId);

    // The request's trace goes along: with tracing on, as the child of a client span.
    const raw = await withSpan(
      subject,
      { 'messaging.system': 'nats', 'messaging.destination.name': subject },
      () => {
        const traceparent = outgoingTraceparent();
        if (traceparent !== undefined) h.append(RPC_HEADERS.traceparent, traceparent);
        return this.exchange({
          subject: prefixed(this.subjectPrefix, subject),
          payload: (token) => jsonBytes({ pattern: subject, data, id: token }),
          headers: h,
          service: def.service,
          timeoutMs: timeout,
          attemptTimeoutMs: def.attemptTimeoutMs,
        });
      },
      'client',
    );

    const packet = decodePacket(raw, subject);
    if (packet.err !== undefined && packet.err !== null) {
      throw DomainError.fromWire(packet.err) ?? new DomainError('internal', `${def.service} service failed on ${subject}`);
    }
    return parseReply(subject, packet.response);
  }

  /** Stops listening for replies; requests still waiting fail as unavailable. */
  close(): void {
    this.closed = true;
    this.stopWatching();
    this.subscription.unsubscribe();
    this.failAll(new Error('client closed'));
  }

  /**
   * One request's attempts, under one deadline; resolves with the first reply to any of them. One
   * timer at a time: the next attempt's while it comes before the deadline, else the deadline's.
   */
  private exchange(call: Exchange): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const tokens: string[] = [];
      let timer: NodeJS.Timeout | undefined;
      let noResponders = 0;
      const startedAt = Date.now();
      const deadlineAt = startedAt + call.timeoutMs;
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        for (const token of tokens) this.pending.delete(token);
        settle();
      };
      const timeOut = () =>
        finish(() => reject(new DomainError('upstream_timeout', `The ${call.service} service did not answer within ${call.timeoutMs} ms`)));
      /** `next` in `delayMs`, if that is before the deadline; the deadline otherwise. */
      const wake = (delayMs: number | undefined, next: () => void) => {
        clearTimeout(timer);
        const now = Date.now();
        timer =
          delayMs !== undefined && now + delayMs < deadlineAt
            ? setTimeout(next, delayMs)
            : setTimeout(timeOut, Math.max(0, deadlineAt - now));
      };
      const attempt = (): void => {
        const token = (this.seq++).toString(36);
        tokens.push(token);
        this.pending.set(token, {
          service: call.service,
          subject: call.subject,
          reply: (data) => finish(() => resolve(data)),
          fail: (error) => finish(() => reject(error)),
          noResponders: () => {
            this.pending.delete(token);
            const delay = NO_RESPONDER_BACKOFF_MS[noResponders++];
            if (delay === undefined || Date.now() - startedAt + delay >= call.timeoutMs) {
              finish(() => reject(new DomainError('service_unavailable', `The ${call.service} service is unavailable; try again shortly`)));
              return;
            }
            wake(delay, attempt);
          },
        });
        try {
          this.nc.publish(call.subject, call.payload(token), { reply: `${this.inbox}.${token}`, headers: call.headers });
        } catch (error) {
          finish(() => reject(busError(error)));
          return;
        }
        wake(call.attemptTimeoutMs, attempt);
      };
      attempt();
    });
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const waiting = this.pending.get(token);
    if (waiting === undefined) return; // late reply after the request ended
    // NATS answers a request nobody is subscribed to with an empty 503 status message.
    if (msg.data.length === 0 && msg.headers?.code === 503) waiting.noResponders();
    else waiting.reply(msg.data);
  }

  /** The server refused requests on `subject`: every one waiting on it fails now. */
  private refused(subject: string): void {
    for (const waiting of [...this.pending.values()]) {
      if (waiting.subject === subject) waiting.fail(new DomainError('internal', `The message bus refused the request on ${subject}`));
    }
  }

  private failAll(error: unknown): void {
    for (const waiting of [...this.pending.values()]) waiting.fail(busError(error));
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === Events.Disconnect) {
        this.disconnected = true;
        // Replies to what is in flight went with the server: say so now, not at the deadline.
        this.failAll(new Error('disconnected'));
      } else if (status.type === Events.Reconnect) this.disconnected = false;
    }
  }
}

interface Exchange {
  subject: string;
  payload(token: string): Uint8Array;
  headers: MsgHdrs;
  service: string;
  timeoutMs: number;
  attemptTimeoutMs: number | undefined;
}

interface Attempt {
  service: string;
  /** The subject it was published on (with the prefix). */
  subject: string;
  reply(data: Uint8Array): void;
  fail(error: DomainError): void;
  noResponders(): void;
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
  const code = (error as NatsError | undefined)?.code ?? (error instanceof Error ? error.message : 'unknown');
  return new DomainError('service_unavailable', `The message bus is unavailable (${code})`);
}
