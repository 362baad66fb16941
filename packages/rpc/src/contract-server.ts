import { NatsContext, ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { Msg, MsgHdrs, Subscription } from 'nats';
import { isObservable } from 'rxjs';
import { DomainError } from '@credit/contracts/errors';
import { jsonBytes } from './json-bytes';
import { PermissionWatch } from './nats-permissions';
import { decodeRequest } from './request-packet';
import { prefixed } from './subject-prefix';

/** Nest's NatsContext, reading the message's headers only when a handler asks for them. */
class LazyNatsContext extends NatsContext {
  constructor(private readonly msg: Msg) {
    super([msg.subject, undefined as unknown as MsgHdrs]);
  }

  override getHeaders(): MsgHdrs {
    return this.msg.headers as MsgHdrs;
  }
}

type ServerNatsOptions = NonNullable<NatsOptions['options']>;

export interface ContractServerOptions extends ServerNatsOptions {
  /** The service's queue group: replicas share the load. */
  queue: string;
  /** contracts subjects are registered bare; this prefix is added on the wire only. */
  subjectPrefix?: string;
  /** On close, how long requests already taken may take to answer (default 10 s). */
  drainTimeoutMs?: number;
  /** Requests worked on at once; beyond, 503 at once (default: no limit). */
  maxInflight?: number;
}

/**
 * Nest's NATS transport, subscribing each handler's subject under the configured prefix and in
 * the service's queue group. Handlers stay registered under the bare contract subject, which is
 * also the packet's `pattern`.
 */
export class ContractNatsServer extends ServerNats {
  private readonly owned: Subscription[] = [];
  private bound: Parameters<ServerNats['bindEvents']>[0] | undefined;
  private inflight = 0;
  private idle: (() => void) | undefined;

  constructor(private readonly contractOptions: ContractServerOptions) {
    super(contractOptions);
  }

  /** Nest logs a bare "PERMISSIONS_VIOLATION"; the watch logs what was refused (subject, queue group). */
  override handleStatusUpdates(client: Parameters<ServerNats['handleStatusUpdates']>[0]): Promise<void> {
    PermissionWatch.of(client, this.contractOptions.queue);
    return super.handleStatusUpdates(client);
  }

  override bindEvents(client: Parameters<ServerNats['bindEvents']>[0]): void {
    this.bound = client;
    const prefix = this.contractOptions.subjectPrefix ?? '';
    for (const [channel, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.contractOptions.queue;
      this.owned.push(
        client.subscribe(prefixed(prefix, channel), {
          queue,
          callback: this.getMessageHandler(channel).bind(this),
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
   * answered directly (one JSON.parse, one JSON.stringify, no Nest deserializer, rxjs stream or
   * next-tick queue for a plain reply). Every contract subject is request/reply, so a message
   * without a reply subject is dropped and logged, never run; an unreadable packet is answered
   * with the contract's bad-request error. Never rejects: it runs in a subscription callback that
   * nobody awaits, where a rejection would end the process.
   */
  override handleMessage(channel: string, natsMsg: Msg): Promise<void> {
    return this.answer(channel, natsMsg).catch((error: unknown) => {
      this.logger.error(`message on ${natsMsg.subject} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async answer(channel: string, natsMsg: Msg): Promise<void> {
    if (!natsMsg.reply) {
      this.logger.warn(`dropped a message without a reply subject on ${natsMsg.subject} (${natsMsg.data.length} bytes)`);
      return;
    }
    const handler = this.messageHandlers.get(channel);
    const packet = decodeRequest(natsMsg.data);
    if (!packet.ok || handler === undefined) {
      const reason = packet.ok ? 'no handler' : packet.reason;
      const error = new DomainError('invalid_body', `Unreadable request on ${channel}: ${reason}`);
      natsMsg.respond(jsonBytes({ err: error.toWire(), isDisposed: true }));
      return;
    }
    const id = packet.id;
    if (this.inflight >= (this.contractOptions.maxInflight ?? Infinity)) {
      const busy = new DomainError('service_unavailable', `The ${this.contractOptions.queue} service is at capacity; try again shortly`);
      natsMsg.respond(jsonBytes({ id, err: busy.toWire(), isDisposed: true }));
      return;
    }
    const context = new LazyNatsContext(natsMsg);
    this.inflight++;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      if (--this.inflight === 0) this.idle?.();
      this.onProcessingEndHook?.(this.transportId, context);
    };
    return this.onProcessingStartHook(this.transportId, context, async () => {
      try {
        // Nest's handler proxy runs the exception filters: a failure arrives as an observable.
        const result: unknown = await handler(packet.data, context);
        if (isObservable(result)) {
          this.send(result, (response: { isDisposed?: boolean }) => {
            natsMsg.respond(jsonBytes({ ...response, id }));
            if (response.isDisposed) done();
          });
          return;
        }
        natsMsg.respond(jsonBytes({ id, response: result, isDisposed: true }));
        done();
      } catch (error) {
        done();
        throw error;
      }
    });
  }

  /** Stops taking new requests, lets the ones already taken answer (bounded), then closes. */
  override async close(): Promise<void> {
    for (const sub of this.owned.splice(0)) sub.unsubscribe();
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
