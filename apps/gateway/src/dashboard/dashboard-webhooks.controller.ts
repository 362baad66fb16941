import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateWebhookBody, type CreatedWebhookReply, type TestWebhookReply } from '@credit/contracts/schemas/webhooks';
import { Public } from '../auth/public.decorator';
import { parseBody } from '../http/parse-body';
import { CreateWebhook } from '../webhooks/create-webhook';
import { DeleteWebhook } from '../webhooks/delete-webhook';
import { TestWebhook } from '../webhooks/test-webhook';
import { WebhookCharges } from '../webhooks/webhook-charges';
import { signedIn } from './dashboard-requests';
import { DashboardSessions } from './dashboard-sessions';
import { ListWebhookActivity, type WebhookActivityReply } from './list-webhook-activity';

/**
 * The webhooks page's JSON endpoints (docs/API.md §4.7, "From the dashboard"): the API's webhook
 * use cases behind the dashboard's session and CSRF check (an API key does not open them). The
 * creation and the ping cost what they cost from the API, under the plan's API rate limit and its
 * limits, charged to the account without a key (WebhookCharges); listing and deleting are free.
 * Another account's webhook is 404, as from the API.
 */
@Public()
@Controller('dashboard/api/webhooks')
export class DashboardWebhooksController {
  constructor(
    private readonly sessions: DashboardSessions,
    private readonly charges: WebhookCharges,
    private readonly listActivity: ListWebhookActivity,
    private readonly createWebhook: CreateWebhook,
    private readonly deleteWebhook: DeleteWebhook,
    private readonly testWebhook: TestWebhook,
  ) {}

  @Get()
  list(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<WebhookActivityReply> {
    return signedIn(this.sessions, req, reply, 'read', (session) => this.listActivity.execute(session.account.id));
  }

  @Post()
  @HttpCode(201)
  create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<CreatedWebhookReply> {
    return signedIn(this.sessions, req, reply, 'change', async ({ account }) => {
      const checked = await this.createWebhook.check(account, parseBody(CreateWebhookBody, body));
      return this.charges.run(reply, { account, keyId: null }, 'webhooksCreate', checked.addresses.length, req.id, () =>
        this.createWebhook.execute(account, checked),
      );
    });
  }

  @Post(':id/test')
  @HttpCode(202)
  test(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<TestWebhookReply> {
    return signedIn(this.sessions, req, reply, 'change', ({ account }) =>
      this.charges.run(reply, { account, keyId: null }, 'webhooksTest', 0, req.id, () => this.testWebhook.execute(account.id, id)),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('id') id: string): Promise<void> {
    return signedIn(this.sessions, req, reply, 'change', (session) => this.deleteWebhook.execute(session.account.id, id));
  }
}
