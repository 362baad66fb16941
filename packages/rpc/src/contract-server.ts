import { ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { Msg, Subscription } from 'nats';
import { DomainError, statusOf, type WireError } from '@credit/contracts/errors';
import { RPC_HEADERS } from '@credit/contracts/rpc-wire';
import { SUBJECTS, type SubjectName } from '@credit/contracts/subjects';
import { countQueuedWith, outcomeOfStatus, timeRequest, type RequestOutcome } from '@credit/observability/request-metrics';
import type { Logger } from '@credit/telemetry/logger';
import { AdmissionQueue, type Release } from './admission-queue';
import type { ServiceTable } from './handler-table';
import { jsonBytes } from './json-bytes';
import { traceMessage } from './message-trace';
import { PermissionWatch } from './nats-permissions';
import { decodeRequest } from './request-packet';
import { prefixed } from './subject-prefix';
import { wireErrorOf } from './wire-error';
import { withTimeout } from '@credit/observability/readiness';

const NO_LIMIT: Release = () => undefined;
const DEFAULT_MAX_QUEUED = 10_000;
/** A subject the contracts do not list (none is subscribed here): how long it may wait its turn. */
const DEFAULT_WAIT_MS = 1_000;

type ServerNatsOptions = NonNullable<NatsOptions['options']>;

export interface ContractServerOptions extends ServerNatsOptions {
  /** The service's queue group: replicas share the load. */
  queue: string;
  /** contracts subjects are registered bare; this prefix is added on the wire only. */
  subjectPrefix?: string;
  /** On close, how long requests already taken may take to answer (default 10 s). */
  drainTimeoutMs?: number;
  /**
   * Requests worked on at once; the others wait their turn, each for half its subject's attempt
   * timeout, and only one that could not start by then is answered 503 (default: no limit).
   */
  maxInflight?: number;
  /** Requests waiting their turn at most; beyond, 503 at once (default 10,000). */
  maxQueued?: number;
  /** Where a line per request answered goes (`ACCESS_LOG=on`); none when unset. */
  accessLog?: Logger | undefined;
}

/**
 * Nest's NATS transport serving one handler table (`serve`): each subject subscribed under the
 * configured prefix and in the service's queue group, and answered by its handler directly.
 * Handlers are keyed by the bare contract subject, which is also the packet's `pattern`.
 */
export class ContractNatsServer extends ServerNats {
  private readonly owned: Subscription[] = [];
  private table: ServiceTable | undefined;
  private bound: Parameters<ServerNats['bindEvents']>[0] | undefined;
  /** Requests taken (waiting their turn or running): what a close waits for. */
  private inflight = 0;
  private idle: (() => void) | undefined;
  private readonly admission: AdmissionQueue | undefined;

  constructor(private readonly contractOptions: ContractServerOptions) {
    super(contractOptions);
    const { maxInflight, maxQueued } = contractOptions;
    this.admission = maxInflight === undefined ? undefined : new AdmissionQueue(maxInflight, maxQueued ?? DEFAULT_MAX_QUEUED);
  }

  /** Nest logs a bare "PERMISSIONS_VIOLATION"; the watch logs what was refused (subject, queue group). */
  override handleStatusUpdates(client: Parameters<ServerNats['handleStatusUpdates']>[0]): Promise<void> {
    PermissionWatch.of(client, this.contractOptions.queue);
    return super.handleStatusUpdates(client);
  }

  /** The handler table this server answers; given before `listen()` (startService does). */
  serve(table: ServiceTable): void {
    if (this.bound !== undefined) throw new Error('serve() after the server listens');
    this.table = table;
  }

  override bindEvents(client: Parameters<ServerNats['bindEvents']>[0]): void {
    this.bound = client;
    // Messages delivered that wait for the event loop, and those waiting their turn: this replica's queue.
    countQueuedWith(() => this.owned.reduce((sum, sub) => sum + sub.getPending(), this.admission?.waiting ?? 0));
    const prefix = this.contractOptions.subjectPrefix ?? '';
    for (const channel of this.table?.subjects.keys() ?? []) {
      this.owned.push(
        client.subscribe(prefixed(prefix, channel), {
          queue: this.contractOptions.queue,
          callback: (error: Error | null, msg: Msg) => {
            if (error) this.logger.error(`subscription to ${channel} failed: ${error.message}`);
            else void this.handleMessage(channel, msg);
          },
        }),
      );
    }
  }

  /**
   * Ready only once the server has the subscriptions: a round trip (PING/PONG) after subscribing,
   * so a request sent the moment `listen()` resolves finds the service (not "no responders").
   */
  override start(callback: (error?: unknown) => void): void {
    super.start((error?: unknown) => {
      if (error !== undefined || this.bound === undefined) return callback(error);
      this.bound.flush().then(() => callback(), callback);
    });
  }

  /**
   * Contract subjects are plain strings. Nest's default tries `JSON.parse` on every incoming
   * pattern and catches the throw: an exception per message, for nothing.
   */
  override getRouteFromPattern(pattern: string): string {
    return pattern;
  }

  /**
   * Every message takes this one path: decoded once by `decodeRequest` (which cannot throw), then
   * answered directly by its subject's handler (one JSON.parse, one JSON.stringify, no Nest
   * deserializer, handler proxy, pipes or rxjs stream). Every contract subject is request/reply,
   * so a message without a reply subject is dropped and logged, never run; an unreadable packet is
   * answered with the contract's bad-request error; a failure with its wire error (`wireErrorOf`).
   * Never rejects: it runs in a subscription callback that nobody awaits, where a rejection would
   * end the process.
   */
  override handleMessage(channel: string, natsMsg: Msg): Promise<void> {
    return traceMessage(channel, natsMsg, this.contractOptions.accessLog, () => this.answer(channel, natsMsg)).catch((error: unknown) => {
      this.logger.error(`message on ${natsMsg.subject} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async answer(channel: string, natsMsg: Msg): Promise<void> {
    if (!natsMsg.reply) {
      this.logger.warn(`dropped a message without a reply subject on ${natsMsg.subject} (${natsMsg.data.length} bytes)`);
      return;
    }
    const dispatch = this.table?.subjects.get(channel as SubjectName);
    const packet = decodeRequest(natsMsg.data);
    if (!packet.ok || dispatch === undefined) {
      const reason = packet.ok ? 'no handler' : packet.reason;
      const error = new DomainError('invalid_body', `Unreadable request on ${channel}: ${reason}`);
      natsMsg.respond(jsonBytes({ err: error.toWire(), isDisposed: true }));
      return;
    }
    const id = packet.id;
    this.inflight++;
    const turn = this.turn(channel);
    const release = typeof turn === 'function' || turn === undefined ? turn : await turn;
    const recordAs = timeRequest(channel);
    if (release === undefined) {
      const busy = new DomainError('service_unavailable', `The ${this.contractOptions.queue} service is at capacity; try again shortly`, {
        retry_after: 1,
      });
      natsMsg.respond(jsonBytes({ id, err: busy.toWire(), isDisposed: true }));
      recordAs('unavailable');
      if (--this.inflight === 0) this.idle?.();
      return;
    }
    let reply: Uint8Array;
    let outcome: RequestOutcome = 'ok';
    try {
      const context = { subject: channel as SubjectName, requestId: natsMsg.headers?.get(RPC_HEADERS.requestId) || undefined };
      const result = dispatch(packet.data, context);
      reply = jsonBytes({ id, response: result instanceof Promise ? await result : result, isDisposed: true });
    } catch (error) {
      const err = wireErrorOf(error);
      outcome = outcomeOfReply(err);
      reply = jsonBytes({ id, err, isDisposed: true });
    }
    try {
      natsMsg.respond(reply);
    } finally {
      recordAs(outcome);
      release();
      if (--this.inflight === 0) this.idle?.();
    }
  }

  /**
   * This request's turn: at once while fewer than `maxInflight` run, else once one finishes, if
   * that is within half its subject's attempt timeout (so it still has time to answer); undefined
   * when it is not (or too many wait).
   */
  private turn(channel: string): Release | undefined | Promise<Release | undefined> {
    if (this.admission === undefined) return NO_LIMIT;
    const def = SUBJECTS[channel as SubjectName] as { timeoutMs: number; attemptTimeoutMs?: number } | undefined;
    const waitMs = (def?.attemptTimeoutMs ?? def?.timeoutMs ?? DEFAULT_WAIT_MS * 2) / 2;
    const entered = this.admission.enter(waitMs);
    return typeof entered === 'function' ? entered : entered.catch(() => undefined);
  }

  /**
   * Answers `subject` (no queue group: every replica hears it) only while `ready()` holds, so a
   * caller's first reply means one ready replica exists (`HEALTH_SUBJECTS` in the contracts).
   */
  answerHealth(subject: string, reply: Uint8Array, ready: () => Promise<boolean>): void {
    if (this.bound === undefined) throw new Error('answerHealth before the server listens');
    this.owned.push(
      this.bound.subscribe(prefixed(this.contractOptions.subjectPrefix ?? '', subject), {
        // A refused subscription (the NATS user may not) calls back with an error: PermissionWatch logs it.
        callback: (error: unknown, msg: Msg) => {
          if (error) return;
          void ready().then(
            (ok) => ok && msg.respond(reply),
            () => undefined,
          );
        },
      }),
    );
  }

  /** A round trip to the NATS server within `timeoutMs`: the connection this server answers on works. */
  async assertConnected(timeoutMs: number): Promise<void> {
    const client = this.bound;
    if (client === undefined || client.isClosed()) throw new Error('the NATS connection is closed');
    await withTimeout(client.flush(), timeoutMs, `no PONG from the NATS server within ${timeoutMs} ms`);
  }

  /**
   * Stops taking new requests, lets the ones already taken (delivered, waiting their turn or
   * running) answer, bounded by `drainTimeoutMs`, then closes.
   */
  override async close(): Promise<void> {
    // Drained, not dropped: messages the server already handed this replica are still answered.
    const drained = Promise.all(this.owned.splice(0).map((sub) => sub.drain().catch(() => sub.unsubscribe())));
    await withTimeout(drained, this.contractOptions.drainTimeoutMs ?? 10_000, 'drain').catch(() => undefined);
    if (this.inflight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.contractOptions.drainTimeoutMs ?? 10_000);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await super.close();
  }
}

/** A failure's outcome from its wire error's code (the error table's status). */
function outcomeOfReply(err: WireError): RequestOutcome {
  return outcomeOfStatus(statusOf(err.code));
}
