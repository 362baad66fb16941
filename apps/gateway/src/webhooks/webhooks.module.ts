import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DbModule } from '../db/db.module';
import { MeteringModule } from '../metering/metering.module';
import { NatsModule } from '../rpc/nats.module';
import { CreateWebhook } from './create-webhook';
import { DeleteWebhook } from './delete-webhook';
import { GetWebhook } from './get-webhook';
import { ListDeliveries } from './list-deliveries';
import { ListWebhooks } from './list-webhooks';
import { TestWebhook } from './test-webhook';
import { WebhookCharges } from './webhook-charges';
import { GatewayDeliveryQueue, webhookRepositoryProvider, webhookScoreRepositoryProvider } from './webhook.providers';
import { WebhooksController } from './webhooks.controller';

/**
 * Webhooks (issue 38, decision 38): the management routes under `/api/v2/webhooks`, their use
 * cases, and the delivery queue the ping goes on; a creation reads its baselines from the scoring
 * service (NATS). Delivery and score-change detection are apps/webhooks. The use cases and their
 * charging are exported for the dashboard's webhooks page (dashboard/dashboard-webhooks.controller.ts).
 */
@Module({
  imports: [DbModule, NatsModule, AuthModule, MeteringModule],
  controllers: [WebhooksController],
  providers: [
    webhookRepositoryProvider,
    webhookScoreRepositoryProvider,
    GatewayDeliveryQueue,
    CreateWebhook,
    ListWebhooks,
    GetWebhook,
    DeleteWebhook,
    ListDeliveries,
    TestWebhook,
    WebhookCharges,
  ],
  exports: [CreateWebhook, ListWebhooks, DeleteWebhook, ListDeliveries, TestWebhook, WebhookCharges],
})
export class WebhooksModule {}
