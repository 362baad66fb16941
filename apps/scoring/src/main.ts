import { closeOnSignals, startService } from '@credit/rpc/start-service';
import { scoringConfig } from './config';
import { ScoringModule } from './scoring.module';

async function main(): Promise<void> {
  const config = scoringConfig();
  const service = await startService(ScoringModule.forRoot(config), {
    service: 'scoring',
    natsUrl: config.NATS_URL,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    healthPort: config.HEALTH_PORT,
    logLevel: config.LOG_LEVEL,
  });
  closeOnSignals(service.close);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
