import { Inject, Injectable, Logger } from '@nestjs/common';
import { classifyAddress } from '@credit/address/address-input';
import { DomainError } from '@credit/contracts/errors';
import { WEBHOOK_PLAN_LIMITS, type CreateWebhookBody, type CreatedWebhookReply } from '@credit/contracts/schemas/webhooks';
import type { AccountRecord } from '@credit/db/account-repository';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { WebhookScoreRepository } from '@credit/db/webhook-score-repository';
import { RpcClient } from '@credit/rpc/rpc-client';
import { generateSecret } from '@credit/webhook-delivery/signing';
import { checkTarget, TargetRefused } from '@credit/webhook-delivery/url-guard';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { toWebhookItem } from './webhook-items';

/** A creation checked and ready to store: what it costs is one CU per address. */
export interface CheckedWebhook {
  url: string;
  addresses: string[];
  minChange: number;
}

/**
 * Registers a webhook for the calling account: addresses checksummed and without repeats, within
 * the plan's limits; the URL checked now (https, every resolved address public, unless
 * WEBHOOK_ALLOW_PRIVATE); a new secret, in this one reply. Before it answers, each address's score
 * is read afresh from the scoring service and stored as the baseline that score-change detection
 * compares with (decision 38), so no change after the 201 is missed; without it (scoring away) the
 * webhook is removed again and the answer is 503.
 */
@Injectable()
export class CreateWebhook {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly scores: WebhookScoreRepository,
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Everything that can refuse the request before it is charged: 400 for bad input, 403 beyond the plan. */
  async check(account: AccountRecord, body: CreateWebhookBody): Promise<CheckedWebhook> {
    const addresses = [...new Set(body.addresses.map((raw) => checksummed(raw)))];
    const limit = WEBHOOK_PLAN_LIMITS[account.plan].addresses;
    if (addresses.length > limit) {
      throw new DomainError('forbidden', `The ${account.plan} plan watches at most ${limit} addresses per webhook`);
    }
    try {
      await checkTarget(body.url, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE });
    } catch (error) {
      if (error instanceof TargetRefused) throw new DomainError('invalid_body', error.message);
      throw error;
    }
    return { url: body.url, addresses, minChange: body.min_change };
  }

  async execute(account: AccountRecord, webhook: CheckedWebhook): Promise<CreatedWebhookReply> {
    const secret = generateSecret();
    const max = WEBHOOK_PLAN_LIMITS[account.plan].webhooks;
    // Counted and inserted in one transaction under the account's row lock: parallel creations cannot pass the limit.
    const created = await this.webhooks.createWithinLimit({ accountId: account.id, ...webhook, secret }, max);
    if (created === null) {
      throw new DomainError('forbidden', `The ${account.plan} plan holds at most ${max} webhooks: delete one first`);
    }
    try {
      const baselines = await this.rpc.send('credit.score.watch.v1', { addresses: created.addresses });
      await this.scores.saveBaselines(created.id, baselines.scores);
    } catch (error) {
      this.logger.warn(`webhook ${created.id} removed, its baselines not read: ${(error as Error).message}`);
      await this.webhooks.deleteOwned(account.id, created.id);
      throw new DomainError('service_unavailable', 'Scores are unavailable to start watching from; try again shortly');
    }
    return { ...toWebhookItem(created), secret };
  }
}

/** An address as stored: EIP-55. A bad checksum is refused; a name was refused by the schema. */
function checksummed(raw: string): string {
  const input = classifyAddress(raw);
  if (input.kind !== 'hex')
    throw new DomainError(
      'invalid_body',
      `addresses: ${raw.slice(0, 50)} is not a valid address (${input.kind === 'invalid' ? input.reason : 'a name'})`,
    );
  return input.address;
}
