import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MeteringModule } from '../metering/metering.module';
import { X402Module } from '../payments/x402.module';
import { NatsModule } from '../rpc/nats.module';
import { BillingHooks } from './billing-hooks';
import { AccountLanes } from './account-lanes';
import { Forwarder } from './forwarder';
import { HealthController } from './health.controller';
import { OperationRoutes } from './operation-routes';
import { UsersController } from './users.controller';

/** The API: one route per operation and variant (forwarded over NATS, billed by its hooks), `/users/me` and `/health`. */
@Module({
  imports: [AuthModule, MeteringModule, X402Module, NatsModule],
  controllers: [UsersController, HealthController],
  providers: [AccountLanes, Forwarder, BillingHooks, OperationRoutes],
})
export class ApiRoutesModule {}
