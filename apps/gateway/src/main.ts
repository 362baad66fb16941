import { warmNameNormalisation } from '@credit/address/address-input';
import { closeOnSignals } from '@credit/rpc/start-service';
import { createLogger } from '@credit/telemetry/logger';
import { gatewayConfig } from './config';
import { startGateway } from './create-gateway';

async function main(): Promise<void> {
  const config = gatewayConfig();
  // ENSIP-15's tables built at boot, not by the first request that carries a name
  warmNameNormalisation();
  const gateway = await startGateway(config);
  closeOnSignals(gateway.close);
}

main().catch((error: unknown) => {
  createLogger('gateway', { level: 'log' }).fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
