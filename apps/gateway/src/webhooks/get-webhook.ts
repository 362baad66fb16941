import { Injectable } from '@nestjs/common';
import type { WebhookItem } from '@credit/contracts/schemas/webhooks';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { toWebhookItem, webhookId, webhookNotFound } from './webhook-items';

/** One of the calling account's webhooks; another account's is 404. */
@Injectable()
export class GetWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(accountId: string, id: string): Promise<WebhookItem> {
    const record = await this.webhooks.findOwned(accountId, webhookId(id));
    if (record === null) throw webhookNotFound(id);
    return toWebhookItem(record);
  }
}
