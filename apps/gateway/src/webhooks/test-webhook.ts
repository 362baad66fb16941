import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { TestWebhookReply } from '@credit/contracts/schemas/webhooks';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { newEvent } from '@credit/webhook-delivery/event-envelope';
import { GatewayDeliveryQueue } from './webhook.providers';
import { webhookId, webhookNotFound } from './webhook-items';

/**
 * Queues a `ping` for one of the calling account's webhooks: the next sequence number taken, the
 * event put straight on the delivery queue, where the worker delivers it like any event (signed,
 * retried). Answered once Redis holds the job, before any attempt.
 */
@Injectable()
export class TestWebhook {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly queue: GatewayDeliveryQueue,
  ) {}

  async execute(accountId: string, id: string): Promise<TestWebhookReply> {
    const sequence = await this.webhooks.nextSequence(accountId, webhookId(id));
    if (sequence === null) throw webhookNotFound(id);
    const event = newEvent('ping', { webhook_id: id }, sequence);
    try {
      await this.queue.add({ webhookId: id, event });
    } catch (error) {
      this.logger.warn(`ping for ${id} not queued: ${(error as Error).message}`);
      throw new DomainError('service_unavailable', 'Webhook delivery is unavailable; try again shortly');
    }
    return { event_id: event.id, sequence };
  }
}
