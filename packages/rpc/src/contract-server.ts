import { ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { Subscription } from 'nats';
import { prefixed } from './subject-prefix';

type ServerNatsOptions = NonNullable<NatsOptions['options']>;

export interface ContractServerOptions extends ServerNatsOptions {
  /** The service's queue group: replicas share the load. */
  queue: string;
  /** contracts subjects are registered bare; this prefix is added on the wire only. */
  subjectPrefix?: string;
}

/**
 * Nest's NATS transport, subscribing each handler's subject under the configured prefix and in
 * the service's queue group. Handlers stay registered under the bare contract subject, which is
 * also the packet's `pattern`.
 */
export class ContractNatsServer extends ServerNats {
  private readonly owned: Subscription[] = [];

  constructor(private readonly contractOptions: ContractServerOptions) {
    super(contractOptions);
  }

  override bindEvents(client: Parameters<ServerNats['bindEvents']>[0]): void {
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
   * Contract subjects are plain strings. Nest's default tries `JSON.parse` on every incoming
   * pattern and catches the throw: an exception per message, for nothing.
   */
  override getRouteFromPattern(pattern: string): string {
    return pattern;
  }

  /** Stops taking new requests, lets in-flight ones answer, then closes. */
  override async close(): Promise<void> {
    for (const sub of this.owned.splice(0)) sub.unsubscribe();
    await super.close();
  }
}
