import { indexerConfig } from './config';
import { startIndexer } from './indexer';
import { indexerLogger, jsonLogger } from './logger';

async function main(): Promise<void> {
  const config = indexerConfig();
  const logger = indexerLogger(config.LOG_LEVEL);
  const indexer = await startIndexer(config, { logger });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info('stopping', { signal });
    indexer.close().then(
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
  jsonLogger.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
