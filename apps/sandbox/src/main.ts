import { closeOnSignals, startService } from '@credit/rpc/start-service';
import { sandboxConfig } from './config';
import { SandboxModule } from './sandbox.module';

async function main(): Promise<void> {
  const config = sandboxConfig();
  const service = await startService(SandboxModule, {
    service: 'sandbox',
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
