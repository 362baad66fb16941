import { Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { DashboardWebhooksReply } from '@credit/contracts/schemas/webhooks';
import { ListDeliveries } from '../webhooks/list-deliveries';
import { ListWebhooks } from '../webhooks/list-webhooks';

/** Delivery attempts the webhooks page shows per webhook, the latest first. */
export const RECENT_DELIVERIES = 10;

/** A webhook as the page shows it: the API's item (never its secret) and its latest attempts. */
export type WebhookActivity = DashboardWebhooksReply['webhooks'][number];

export type WebhookActivityReply = DashboardWebhooksReply;

/**
 * The webhooks page: the account's webhooks, oldest first, each with its latest delivery attempts,
 * as the API's list and deliveries give them. A webhook deleted between the two reads is left out.
 */
@Injectable()
export class ListWebhookActivity {
  constructor(
    private readonly webhooks: ListWebhooks,
    private readonly deliveries: ListDeliveries,
  ) {}

  async execute(accountId: string): Promise<WebhookActivityReply> {
    const { webhooks } = await this.webhooks.execute(accountId);
    const listed = await Promise.all(
      webhooks.map(async (webhook): Promise<WebhookActivity | null> => {
        try {
          const { deliveries } = await this.deliveries.execute(accountId, webhook.id);
          return { ...webhook, deliveries: deliveries.slice(0, RECENT_DELIVERIES) };
        } catch (error) {
          if (error instanceof DomainError && error.code === 'route_not_found') return null;
          throw error;
        }
      }),
    );
    return { webhooks: listed.filter((webhook) => webhook !== null) };
  }
}
