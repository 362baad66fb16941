import { Module } from '@nestjs/common';
import { Clock } from './clock';
import { SandboxHandlers } from './sandbox-handlers';

/** The sandbox: every `credit.sandbox.*` subject, answered from the deterministic generator alone. */
@Module({
  providers: [Clock, SandboxHandlers],
})
export class SandboxModule {}
