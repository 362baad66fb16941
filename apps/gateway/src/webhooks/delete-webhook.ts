import { Injectable } from '@nestjs/common';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { webhookId, webhookNotFound } from './webhook-items';

/**
 * Deletes one of the calling account's webhooks with its delivery record. Events still queued for
 * it are dropped by the worker at their next attempt (it reads the webhook each time).
 */
@Injectable()
export class DeleteWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(accountId: string, id: string): Promise<void> {
    if (!(await this.webhooks.deleteOwned(accountId, webhookId(id)))) throw webhookNotFound(id);
  }
}
