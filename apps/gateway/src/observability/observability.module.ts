import { Module, type FactoryProvider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { MeterKeys } from '@credit/metering/meter-keys';
import type { GatewayConfig } from '../config';
import { DbModule } from '../db/db.module';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { METER_REDIS } from '../metering/meter.providers';
import { MeteringModule } from '../metering/metering.module';
import { X402Module } from '../payments/x402.module';
import { NatsModule } from '../rpc/nats.module';
import { GatewayReadiness } from './gateway-readiness';
import { watchLedgerOutbox } from './ledger-outbox-gauges';

/** The metering outbox the `credit_ledger_outbox_*` gauges read at scrape time (the provider's value is its key). */
const ledgerOutboxWatch: FactoryProvider<string> = {
  provide: Symbol('LedgerOutboxWatch'),
  inject: [METER_REDIS, GATEWAY_CONFIG],
  useFactory: (redis: Redis, config: GatewayConfig) => {
    const outbox = new MeterKeys(config.NATS_SUBJECT_PREFIX).outbox;
    watchLedgerOutbox(redis, outbox);
    return outbox;
  },
};

/**
 * The gateway's readiness (its probe port's `/ready`) and the outbox its gauges read; the other
 * metrics register in the process registry as their modules load.
 */
@Module({
  imports: [NatsModule, DbModule, MeteringModule, X402Module],
  providers: [GatewayReadiness, ledgerOutboxWatch],
  exports: [GatewayReadiness],
})
export class ObservabilityModule {}
