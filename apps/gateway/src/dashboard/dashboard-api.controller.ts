import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateKeyBody,
  ForgotPasswordBody,
  ResendVerificationBody,
  ResetPasswordBody,
  SignInBody,
  SignUpBody,
  VerifyEmailBody,
  type CreatedKeyReply,
  type DashboardUsageReply,
  type ForgotPasswordReply,
  type KeyItem,
  type KeysReply,
  type ResendVerificationReply,
  type ResetPasswordReply,
  type SessionReply,
  type SignUpReply,
  type VerifyEmailReply,
} from '@credit/contracts/schemas/dashboard';
import { Public } from '../auth/public.decorator';
import { parseBody } from '../http/parse-body';
import { CreateKey } from './create-key';
import { noStore, signedIn, unavailableWhenDbIs } from './dashboard-requests';
import { DashboardSessions } from './dashboard-sessions';
import { ForgotPassword } from './forgot-password';
import { ListKeys } from './list-keys';
import { ReadUsage } from './read-usage';
import { ResendVerification } from './resend-verification';
import { ResetPassword } from './reset-password';
import { RevokeKey } from './revoke-key';
import { dashboardAccount, SignIn } from './sign-in';
import { SignUp } from './sign-up';
import { VerifyEmail } from './verify-email';

/**
 * The dashboard's JSON endpoints (docs/API.md §4.6): a session cookie opens them, an API key does
 * not (they are outside the key guard, and no handler reads `Authorization`). Every state change
 * passes the CSRF check first. Errors keep the API's envelope; a database that cannot be reached
 * is 503. Nothing here is metered.
 */
@Public()
@Controller('dashboard/api')
export class DashboardApiController {
  constructor(
    private readonly sessions: DashboardSessions,
    private readonly signUp: SignUp,
    private readonly verifyEmail: VerifyEmail,
    private readonly signIn: SignIn,
    private readonly resend: ResendVerification,
    private readonly forgot: ForgotPassword,
    private readonly reset: ResetPassword,
    private readonly listKeys: ListKeys,
    private readonly createKey: CreateKey,
    private readonly revokeKey: RevokeKey,
    private readonly usage: ReadUsage,
  ) {}

  @Get('csrf')
  csrf(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): { csrf_token: string } {
    noStore(reply);
    return { csrf_token: this.sessions.anonymousCsrf(req, reply) };
  }

  @Post('signup')
  @HttpCode(202)
  signup(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<SignUpReply> {
    return this.anonymous(req, reply, () => this.signUp.execute(parseBody(SignUpBody, body), req.ip));
  }

  @Post('verify')
  @HttpCode(200)
  verify(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<VerifyEmailReply> {
    return this.anonymous(req, reply, () => this.verifyEmail.execute(parseBody(VerifyEmailBody, body), req.ip));
  }

  @Post('signin')
  @HttpCode(200)
  signin(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<SessionReply> {
    return this.anonymous(req, reply, () => this.signIn.execute(reply, parseBody(SignInBody, body), req.ip));
  }

  @Post('verification/resend')
  @HttpCode(202)
  resendVerification(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<ResendVerificationReply> {
    return this.anonymous(req, reply, () => this.resend.execute(parseBody(ResendVerificationBody, body), req.ip));
  }

  @Post('password/forgot')
  @HttpCode(202)
  forgotPassword(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<ForgotPasswordReply> {
    return this.anonymous(req, reply, () => this.forgot.execute(parseBody(ForgotPasswordBody, body).email, req.ip));
  }

  @Post('password/reset')
  @HttpCode(200)
  resetPassword(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<ResetPasswordReply> {
    return this.anonymous(req, reply, () => this.reset.execute(parseBody(ResetPasswordBody, body), req.ip));
  }

  @Post('signout')
  @HttpCode(204)
  signout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.signedIn(req, reply, 'change', (session) => this.sessions.end(reply, session));
  }

  @Get('session')
  session(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionReply> {
    return this.signedIn(req, reply, 'read', (session) => ({ account: dashboardAccount(session.account), csrf_token: session.csrfToken }));
  }

  @Get('keys')
  keys(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<KeysReply> {
    return this.signedIn(req, reply, 'read', async (session) => ({ keys: await this.listKeys.execute(session.account.id) }));
  }

  @Post('keys')
  @HttpCode(201)
  create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<CreatedKeyReply> {
    return this.signedIn(req, reply, 'change', (session) =>
      this.createKey.execute(session.account.id, parseBody(CreateKeyBody, body).name),
    );
  }

  @Post('keys/:keyId/revoke')
  @HttpCode(200)
  revoke(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('keyId') keyId: string): Promise<KeyItem> {
    return this.signedIn(req, reply, 'change', (session) => this.revokeKey.execute(session.account.id, keyId));
  }

  @Get('usage')
  readUsage(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardUsageReply> {
    return this.signedIn(req, reply, 'read', (session) => this.usage.execute(session.account));
  }

  /** A state change before sign-in: the double-submit CSRF check, then the use case. */
  private anonymous<T>(req: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T> {
    noStore(reply);
    return unavailableWhenDbIs(async () => {
      this.sessions.checkCsrf(req, null);
      return run();
    });
  }

  /** A signed-in request: the session (401 without one), the session's CSRF token for a change, then the use case. */
  private signedIn<T>(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: 'read' | 'change',
    run: (session: Awaited<ReturnType<DashboardSessions['require']>>) => T | Promise<T>,
  ): Promise<T> {
    return signedIn(this.sessions, req, reply, kind, run);
  }
}
