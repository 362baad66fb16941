import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENTS, type EventName, type EventPayload } from '@credit/contracts/events';
import { prefixed } from '@credit/rpc/subject-prefix';
import type { NatsConnection, Subscription } from 'nats';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { NATS_CONNECTION } from '../rpc/nats.providers';
import { AuthenticateKey } from './authenticate-key';

/**
 * Revocations and account changes are immediate on every replica: the CLI (or dashboard)
 * broadcasts them and each gateway drops what it cached. No queue group: every replica gets every
 * event. One typed handler per event, so an event added to the contract without one fails to compile.
 */
@Injectable()
export class KeyEventsListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KeyEventsListener.name);
  private readonly subscriptions: Subscription[] = [];

  private readonly handlers: { [E in EventName]: (event: EventPayload<E>) => void } = {
    apiKeyRevoked: (event) => this.authenticate.forget(event.key_hash),
    accountStatusChanged: (event) => this.authenticate.forgetAccount(event.account_id),
    accountPlanChanged: (event) => this.authenticate.forgetAccount(event.account_id),
  };

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly authenticate: AuthenticateKey,
  ) {}

  /** Subscribed (and confirmed by the server) before the gateway takes its first request. */
  async onModuleInit(): Promise<void> {
    for (const name of Object.keys(EVENTS) as EventName[]) this.listen(name);
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  private listen<E extends EventName>(name: E): void {
    const decoder = new TextDecoder();
    const { subject, payload } = EVENTS[name];
    const handle = this.handlers[name] as (event: EventPayload<E>) => void;
    this.subscriptions.push(
      this.nc.subscribe(prefixed(this.config.NATS_SUBJECT_PREFIX, subject), {
        callback: (error, msg) => {
          if (error) return this.logger.warn(`${subject} subscription: ${error.message}`);
          try {
            handle(payload.parse(JSON.parse(decoder.decode(msg.data))) as EventPayload<E>);
          } catch (e) {
            this.logger.warn(`ignored a malformed ${subject} event: ${(e as Error).message}`);
          }
        },
      }),
    );
  }
}
