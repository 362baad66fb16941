import { Module } from '@nestjs/common';
import { DbModule } from '../db/db.module';
import { ledgerPipelineProvider, METER_REDIS, meterProvider, meterRedisProvider, MeteringLifecycle } from './meter.providers';
import { Metering } from './metering';
import { StatusTally } from './status-tally';
import { UsageStatusRepository } from '@credit/db/usage-status-repository';
import type { Db } from '@credit/db/prisma-client';
import { DB } from '../db/db.providers';

/**
 * Rate limits and CU (docs/decisions/0004): the meter over its own Redis connection, and the
 * ledger pipeline that moves its outbox into Postgres; the count of each key's requests by status.
 * The dashboard's limiters share the connection.
 */
@Module({
  imports: [DbModule],
  providers: [
    meterRedisProvider,
    meterProvider,
    ledgerPipelineProvider,
    MeteringLifecycle,
    Metering,
    { provide: UsageStatusRepository, inject: [DB], useFactory: (db: Db) => new UsageStatusRepository(db) },
    StatusTally,
  ],
  exports: [Metering, METER_REDIS, StatusTally],
})
export class MeteringModule {}
