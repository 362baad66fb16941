import { closeOnSignals } from '@credit/rpc/start-service';
import { indexerConfig } from './config';
import { startIndexer } from './indexer';
import { indexerLogger, jsonLogger } from './logger';

async function main(): Promise<void> {
  const config = indexerConfig();
  const logger = indexerLogger(config.LOG_LEVEL);
  const indexer = await startIndexer(config, { logger });
  closeOnSignals(() => indexer.close(), logger);
}

main().catch((error: unknown) => {
  jsonLogger.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
