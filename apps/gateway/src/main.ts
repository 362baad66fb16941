import { closeOnSignals } from '@credit/rpc/start-service';
import { gatewayConfig } from './config';
import { startGateway } from './create-gateway';

async function main(): Promise<void> {
  const config = gatewayConfig();
  const gateway = await startGateway(config);
  closeOnSignals(gateway.close);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
