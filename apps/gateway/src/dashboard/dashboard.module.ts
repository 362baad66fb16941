import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DbModule } from '../db/db.module';
import { MeteringModule } from '../metering/metering.module';
import { NatsModule } from '../rpc/nats.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CreateKey } from './create-key';
import { DashboardApiController } from './dashboard-api.controller';
import { dashboardRepositoryProviders } from './dashboard-db.providers';
import { DashboardPagesController } from './dashboard-pages.controller';
import { DashboardSessions } from './dashboard-sessions';
import { DashboardSweeper } from './dashboard-sweeper';
import { DashboardWebhooksController } from './dashboard-webhooks.controller';
import { ForgotPassword } from './forgot-password';
import { EmailLinkLimiter } from './link-limiter';
import { ListKeys } from './list-keys';
import { ListWebhookActivity } from './list-webhook-activity';
import { MailQueue } from './mail-queue';
import { mailerProvider } from './mailer';
import { PublicUrl } from './public-url';
import { ReadUsage } from './read-usage';
import { ResendVerification } from './resend-verification';
import { ResetPassword } from './reset-password';
import { RevokeKey } from './revoke-key';
import { SendAccountMail } from './send-account-mail';
import { SignIn } from './sign-in';
import { SignInLimiter } from './signin-limiter';
import { SignUp } from './sign-up';
import { VerifyEmail } from './verify-email';

/**
 * The account dashboard (docs/decisions/0006): its pages and JSON endpoints, sessions, the
 * sign-in and link limits (on the metering's Redis), the mail queue and its use cases. The webhooks
 * page runs the webhooks module's use cases.
 */
@Module({
  imports: [DbModule, NatsModule, AuthModule, MeteringModule, WebhooksModule],
  controllers: [DashboardApiController, DashboardWebhooksController, DashboardPagesController],
  providers: [
    ...dashboardRepositoryProviders,
    mailerProvider,
    PublicUrl,
    SignInLimiter,
    EmailLinkLimiter,
    SendAccountMail,
    MailQueue,
    DashboardSessions,
    DashboardSweeper,
    SignUp,
    VerifyEmail,
    SignIn,
    ResendVerification,
    ForgotPassword,
    ResetPassword,
    ListKeys,
    CreateKey,
    RevokeKey,
    ReadUsage,
    ListWebhookActivity,
  ],
})
export class DashboardModule {}
