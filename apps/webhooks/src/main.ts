import { closeOnSignals } from '@credit/rpc/start-service';
import { webhooksConfig } from './config';
import { startDeliveryWorker } from './delivery-worker';
import { startDetector } from './detect-worker';
import { webhooksLogger } from './logger';

async function main(): Promise<void> {
  const config = webhooksConfig();
  const logger = webhooksLogger(config.LOG_LEVEL);
  const worker = await startDeliveryWorker(config, logger);
  const detector = await startDetector(config, logger).catch(async (error: unknown) => {
    await worker.close();
    throw error;
  });
  closeOnSignals(async () => {
    await Promise.all([detector.close(), worker.close()]);
  }, logger);
}

main().catch((error: unknown) => {
  webhooksLogger('log').error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
