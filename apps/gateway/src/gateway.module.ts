import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AgentsModule } from './agents/agents.module';
import { AuthModule } from './auth/auth.module';
import type { GatewayConfig } from './config';
import { DashboardModule } from './dashboard/dashboard.module';
import { GatewayConfigModule } from './gateway-config.module';
import { HttpExceptionFilter } from './http/http-exception.filter';
import type { Clock } from './metering/clock';
import { MeteringModule } from './metering/metering.module';
import { ObservabilityModule } from './observability/observability.module';
import { OpenApiModule } from './openapi/openapi.module';
import { X402Module } from './payments/x402.module';
import { ApiRoutesModule } from './routes/api-routes.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The gateway: its features, each a module owning its providers, and the one error filter.
 *
 * Nest starts the modules deepest first and stops them in the opposite order, a module's
 * providers together. Each feature imports what it uses, so the order follows the imports: the
 * routes and the dashboard (its mail worker) stop first; then auth (the last-used times written,
 * the key events unsubscribed) and x402; then metering (the ledger pipeline closed, then its
 * Redis) and NATS (drained); Postgres (DbModule, which auth and metering import) closes last.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, options: { clock?: Clock } = {}): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        GatewayConfigModule.forRoot(config, options.clock),
        AuthModule,
        MeteringModule,
        X402Module,
        ApiRoutesModule,
        AgentsModule,
        DashboardModule,
        WebhooksModule,
        OpenApiModule,
        ObservabilityModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: HttpExceptionFilter }],
    };
  }
}
