import { Inject, Injectable, Logger, type FactoryProvider, type OnApplicationShutdown } from '@nestjs/common';
import type { Db } from '@credit/db/prisma-client';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { WebhookScoreRepository } from '@credit/db/webhook-score-repository';
import { DeliveryQueue } from '@credit/webhook-delivery/delivery-queue';
import { DB } from '../db/db.providers';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

export const webhookRepositoryProvider: FactoryProvider<WebhookRepository> = {
  provide: WebhookRepository,
  inject: [DB],
  useFactory: (db: Db) => new WebhookRepository(db),
};

export const webhookScoreRepositoryProvider: FactoryProvider<WebhookScoreRepository> = {
  provide: WebhookScoreRepository,
  inject: [DB],
  useFactory: (db: Db) => new WebhookScoreRepository(db),
};

/** The delivery queue as the gateway feeds it (the ping); the worker is apps/webhooks. */
@Injectable()
export class GatewayDeliveryQueue extends DeliveryQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('webhooks');

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super(config.REDIS_URL, config.NATS_SUBJECT_PREFIX);
    this.onError((error) => this.logger.warn(`delivery queue: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close().catch((error: unknown) => this.logger.warn(`delivery queue close: ${(error as Error).message}`));
  }
}
