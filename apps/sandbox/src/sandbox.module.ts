import { Module } from '@nestjs/common';
import { Clock } from './clock';
import { IdentityController } from './controllers/identity.controller';
import { ReportController } from './controllers/report.controller';
import { ScoreController } from './controllers/score.controller';

/** The sandbox: every `credit.sandbox.*` subject, answered from the deterministic generator alone. */
@Module({
  controllers: [ScoreController, ReportController, IdentityController],
  providers: [Clock],
})
export class SandboxModule {}
