import { Module } from '@nestjs/common';
import { DbModule } from '../db/db.module';
import { ledgerPipelineProvider, METER_REDIS, meterProvider, meterRedisProvider, MeteringLifecycle } from './meter.providers';
import { Metering } from './metering';

/**
 * Rate limits and CU (docs/decisions/0004): the meter over its own Redis connection, and the
 * ledger pipeline that moves its outbox into Postgres. The dashboard's limiters share the connection.
 */
@Module({
  imports: [DbModule],
  providers: [meterRedisProvider, meterProvider, ledgerPipelineProvider, MeteringLifecycle, Metering],
  exports: [Metering, METER_REDIS],
})
export class MeteringModule {}
