import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENTS } from '@credit/contracts/events';
import { prefixed } from '@credit/rpc/subject-prefix';
import type { NatsConnection, Subscription } from 'nats';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { NATS_CONNECTION } from '../rpc/nats.providers';
import { AuthenticateKey } from './authenticate-key';

/**
 * Revocation is immediate on every replica: the CLI (or dashboard) broadcasts the key's hash and
 * each gateway drops it from its cache. No queue group: every replica gets every event.
 */
@Injectable()
export class KeyRevocationListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KeyRevocationListener.name);
  private subscription: Subscription | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly authenticate: AuthenticateKey,
  ) {}

  /** Subscribed (and confirmed by the server) before the gateway takes its first request. */
  async onModuleInit(): Promise<void> {
    const decoder = new TextDecoder();
    this.subscription = this.nc.subscribe(prefixed(this.config.NATS_SUBJECT_PREFIX, EVENTS.apiKeyRevoked.subject), {
      callback: (error, msg) => {
        if (error) return this.logger.warn(`revocation subscription: ${error.message}`);
        try {
          const event = EVENTS.apiKeyRevoked.payload.parse(JSON.parse(decoder.decode(msg.data)));
          this.authenticate.forget(event.key_hash);
        } catch (e) {
          this.logger.warn(`ignored a malformed revocation event: ${(e as Error).message}`);
        }
      },
    });
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
