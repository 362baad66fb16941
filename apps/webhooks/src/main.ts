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
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info('stopping', { signal });
    Promise.all([detector.close(), worker.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('stop failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  webhooksLogger('log').error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
