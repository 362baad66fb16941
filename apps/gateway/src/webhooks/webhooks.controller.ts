import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import type { WebhookOperationId } from '@credit/contracts/http-operations';
import {
  CreateWebhookBody,
  type CreatedWebhookReply,
  type DeliveriesReply,
  type TestWebhookReply,
  type WebhookItem,
  type WebhooksReply,
} from '@credit/contracts/schemas/webhooks';
import { classifyDbError } from '@credit/db/db-errors';
import { AUTH_CONTEXT, type AuthContext, type WithAuth } from '../auth/auth-context';
import { parseBody } from '../http/parse-body';
import { CreateWebhook } from './create-webhook';
import { DeleteWebhook } from './delete-webhook';
import { GetWebhook } from './get-webhook';
import { ListDeliveries } from './list-deliveries';
import { ListWebhooks } from './list-webhooks';
import { TestWebhook } from './test-webhook';
import { WebhookCharges } from './webhook-charges';

type Request = FastifyRequest & WithAuth;

/**
 * docs/API.md §4.7: an account's webhooks, behind its API key (the global key guard). Each route is
 * rate limited as the API is and charged its `WEBHOOK_OPERATIONS` price, reserved once the request
 * has passed its checks and given back when it then fails. Postgres away is 503.
 */
@Controller('api/v2/webhooks')
export class WebhooksController {
  constructor(
    private readonly charges: WebhookCharges,
    private readonly createWebhook: CreateWebhook,
    private readonly listWebhooks: ListWebhooks,
    private readonly getWebhook: GetWebhook,
    private readonly deleteWebhook: DeleteWebhook,
    private readonly listDeliveries: ListDeliveries,
    private readonly testWebhook: TestWebhook,
  ) {}

  @Post()
  @HttpCode(201)
  create(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<CreatedWebhookReply> {
    return unavailableWhenDbIs(async () => {
      const auth = req[AUTH_CONTEXT]!;
      const checked = await this.createWebhook.check(auth.account, parseBody(CreateWebhookBody, body));
      return this.charges.run(reply, auth, 'webhooksCreate', checked.addresses.length, req.id, () =>
        this.createWebhook.execute(auth.account, checked),
      );
    });
  }

  @Get()
  list(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply): Promise<WebhooksReply> {
    return this.metered(req, reply, 'webhooksList', (auth) => this.listWebhooks.execute(auth.account.id));
  }

  @Get(':id')
  get(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<WebhookItem> {
    return this.metered(req, reply, 'webhooksGet', (auth) => this.getWebhook.execute(auth.account.id, id));
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<void> {
    return this.metered(req, reply, 'webhooksDelete', (auth) => this.deleteWebhook.execute(auth.account.id, id));
  }

  @Get(':id/deliveries')
  deliveries(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<DeliveriesReply> {
    return this.metered(req, reply, 'webhooksDeliveries', (auth) => this.listDeliveries.execute(auth.account.id, id));
  }

  @Post(':id/test')
  @HttpCode(202)
  test(@Req() req: Request, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<TestWebhookReply> {
    return this.metered(req, reply, 'webhooksTest', (auth) => this.testWebhook.execute(auth.account.id, id));
  }

  /** A route of a fixed price, charged as WebhookCharges does (the creation, priced per address, is charged above). */
  private metered<T>(req: Request, reply: FastifyReply, operation: WebhookOperationId, run: (auth: AuthContext) => Promise<T>): Promise<T> {
    return unavailableWhenDbIs(() => {
      const auth = req[AUTH_CONTEXT]!;
      return this.charges.run(reply, auth, operation, 0, req.id, () => run(auth));
    });
  }
}

/** Postgres unreachable, missing or timing out is 503, like the API's key lookups; other failures stay 500s. */
async function unavailableWhenDbIs<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) && classifyDbError(error) !== null) {
      throw new DomainError('service_unavailable', 'Webhooks are unavailable; try again shortly');
    }
    throw error;
  }
}
