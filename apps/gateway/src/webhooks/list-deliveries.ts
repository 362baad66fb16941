import { Injectable } from '@nestjs/common';
import { WEBHOOK_DELIVERIES_LISTED, type DeliveriesReply } from '@credit/contracts/schemas/webhooks';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { toDeliveryItem, webhookId, webhookNotFound } from './webhook-items';

/** The latest delivery attempts of one of the calling account's webhooks, newest first. */
@Injectable()
export class ListDeliveries {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(accountId: string, id: string): Promise<DeliveriesReply> {
    const attempts = await this.webhooks.deliveriesOwned(accountId, webhookId(id), WEBHOOK_DELIVERIES_LISTED);
    if (attempts === null) throw webhookNotFound(id);
    return { deliveries: attempts.map(toDeliveryItem) };
  }
}
