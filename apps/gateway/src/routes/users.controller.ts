import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UsageReport, UserProfile } from '@credit/contracts/schemas/user';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { Metering } from '../metering/metering';

/** docs/API.md §4.4: the key test endpoint and the month's usage; no version prefix, 0 CU. */
@Controller('users')
export class UsersController {
  constructor(private readonly metering: Metering) {}

  /** Free, but counted against the API's rate limit. */
  @Get('me')
  async me(@Req() req: FastifyRequest & WithAuth, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserProfile> {
    const auth = req[AUTH_CONTEXT]!;
    await this.metering.admit(reply, auth, { operation: 'usersMe', cost: 0, requestId: req.id, limit: 'api' });
    const account = auth.account;
    return { id: account.id, email: account.email, is_active: account.isActive, is_verified: account.isVerified };
  }

  /** Free and outside the API's rate limit, with a limit of its own. */
  @Get('me/usage')
  async usage(@Req() req: FastifyRequest & WithAuth, @Res({ passthrough: true }) reply: FastifyReply): Promise<UsageReport> {
    const auth = req[AUTH_CONTEXT]!;
    await this.metering.admit(reply, auth, { operation: 'usersMeUsage', cost: 0, requestId: req.id, limit: 'usage' });
    return this.metering.usage(auth.account);
  }
}
