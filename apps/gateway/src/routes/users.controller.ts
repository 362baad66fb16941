import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { UserProfile } from '@credit/contracts/schemas/user';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';

/** docs/API.md §4.4: the key test endpoint; no version prefix. */
@Controller('users')
export class UsersController {
  @Get('me')
  me(@Req() req: FastifyRequest & WithAuth): UserProfile {
    const account = req[AUTH_CONTEXT]!.account;
    return { id: account.id, email: account.email, is_active: account.isActive, is_verified: account.isVerified };
  }
}
