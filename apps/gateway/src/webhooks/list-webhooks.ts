import { Injectable } from '@nestjs/common';
import type { WebhooksReply } from '@credit/contracts/schemas/webhooks';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { toWebhookItem } from './webhook-items';

/** The calling account's webhooks, oldest first (never their secrets). */
@Injectable()
export class ListWebhooks {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(accountId: string): Promise<WebhooksReply> {
    return { webhooks: (await this.webhooks.listOwned(accountId)).map(toWebhookItem) };
  }
}
