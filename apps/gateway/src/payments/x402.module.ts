import { Module } from '@nestjs/common';
import { MeteringModule } from '../metering/metering.module';
import { NatsModule } from '../rpc/nats.module';
import { X402Payments } from './x402-payments';

/** Paying per request (docs/ARCHITECTURE.md, "Paying per request"): the 402 challenge, and the payments service asked to verify, settle and release. */
@Module({
  imports: [MeteringModule, NatsModule],
  providers: [X402Payments],
  exports: [X402Payments],
})
export class X402Module {}
