import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import { WEBHOOK_OPERATIONS, type WebhookOperationId } from '@credit/contracts/http-operations';
import { costOf } from '@credit/contracts/pricing';
import { Metering, type MeteredPayer } from '../metering/metering';

/** Who pays for a webhook operation: the account, and the API key the request came with (null from the dashboard). */
export type WebhookPayer = MeteredPayer;

/**
 * A webhook operation at its `WEBHOOK_OPERATIONS` price, the same from the API and the dashboard:
 * admitted under the plan's API rate limit with its CU reserved, run, and the CU kept only when it
 * succeeded. `addresses` counts for a per-address price.
 */
@Injectable()
export class WebhookCharges {
  constructor(private readonly metering: Metering) {}

  async run<T>(
    reply: FastifyReply,
    payer: WebhookPayer,
    operation: WebhookOperationId,
    addresses: number,
    requestId: string,
    run: () => Promise<T>,
  ): Promise<T> {
    const cost = costOf(WEBHOOK_OPERATIONS[operation].price, addresses);
    const reservation = await this.metering.admit(reply, payer, { operation, cost, requestId, limit: 'api' });
    try {
      const result = await run();
      if (reservation !== undefined) await this.metering.settle(reply, reservation, cost, reply.statusCode);
      return result;
    } catch (error) {
      const status = error instanceof DomainError ? error.status : 500;
      if (reservation !== undefined) await this.metering.settle(reply, reservation, 0, status);
      throw error;
    }
  }
}
