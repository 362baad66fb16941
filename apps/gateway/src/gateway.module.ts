import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthenticateKey } from './auth/authenticate-key';
import { KeyEventsListener } from './auth/key-events.listener';
import { LastUsedRecorder } from './auth/last-used-recorder';
import type { GatewayConfig } from './config';
import { DbCloser, dbProvider, keyStoreProvider } from './db/db.providers';
import { GATEWAY_CONFIG } from './gateway-config.token';
import { HttpExceptionFilter } from './http/http-exception.filter';
import { CLOCK, type Clock } from './metering/clock';
import { ledgerPipelineProvider, meterProvider, meterRedisProvider, MeteringLifecycle } from './metering/meter.providers';
import { Metering } from './metering/metering';
import { OpenApiController } from './openapi/openapi.controller';
import { NatsConnectionCloser } from './rpc/nats-connection.closer';
import { natsConnectionProvider, rpcClientProvider } from './rpc/nats.providers';
import { Forwarder } from './routes/forwarder';
import { HealthController } from './routes/health.controller';
import { X402Payments } from './payments/x402-payments';
import { OperationRoutes } from './routes/operation-routes';
import { UsersController } from './routes/users.controller';
import { DashboardApiController } from './dashboard/dashboard-api.controller';
import { dashboardRepositoryProviders } from './dashboard/dashboard-db.providers';
import { DashboardKeys } from './dashboard/dashboard-keys';
import { DashboardPagesController } from './dashboard/dashboard-pages.controller';
import { DashboardSessions } from './dashboard/dashboard-sessions';
import { DashboardSweeper } from './dashboard/dashboard-sweeper';
import { DashboardUsage } from './dashboard/dashboard-usage';
import { ForgotPassword } from './dashboard/forgot-password';
import { EmailLinkLimiter } from './dashboard/link-limiter';
import { MailQueue } from './dashboard/mail-queue';
import { mailerProvider } from './dashboard/mailer';
import { PublicUrl } from './dashboard/public-url';
import { PasswordReset } from './dashboard/password-reset';
import { SendAccountMail } from './dashboard/send-account-mail';
import { SignIn } from './dashboard/sign-in';
import { SignInLimiter } from './dashboard/signin-limiter';
import { SignUp } from './dashboard/sign-up';
import { VerifyEmail } from './dashboard/verify-email';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, options: { clock?: Clock } = {}): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [UsersController, HealthController, OpenApiController, DashboardApiController, DashboardPagesController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        natsConnectionProvider,
        rpcClientProvider,
        NatsConnectionCloser,
        dbProvider,
        keyStoreProvider,
        DbCloser,
        { provide: CLOCK, useValue: options.clock ?? Date.now },
        meterRedisProvider,
        meterProvider,
        ledgerPipelineProvider,
        MeteringLifecycle,
        Metering,
        LastUsedRecorder,
        AuthenticateKey,
        KeyEventsListener,
        Forwarder,
        X402Payments,
        OperationRoutes,
        // The account dashboard (docs/decisions/0006).
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
        ForgotPassword,
        PasswordReset,
        DashboardKeys,
        DashboardUsage,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
      ],
    };
  }
}
