import { warmNameNormalisation } from '@credit/address/address-input';
import { runServiceMain } from '@credit/rpc/start-service';
import { sandboxConfig } from './config';
import { SandboxModule } from './sandbox.module';

// ENSIP-15's tables built at boot, not by the first request that carries a name
warmNameNormalisation();
runServiceMain('sandbox', () => ({ module: SandboxModule, config: sandboxConfig() }));
