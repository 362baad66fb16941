import { indexerConfig } from './config';
import { startIndexer } from './indexer';
import { jsonLogger } from './logger';

async function main(): Promise<void> {
  const indexer = await startIndexer(indexerConfig(), { logger: jsonLogger });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    jsonLogger.info('stopping', { signal });
    indexer.close().then(
      () => process.exit(0),
      (error: unknown) => {
        jsonLogger.error('stop failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
