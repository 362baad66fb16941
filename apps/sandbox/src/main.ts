import { runServiceMain } from '@credit/rpc/start-service';
import { sandboxConfig } from './config';
import { SandboxModule } from './sandbox.module';

runServiceMain('sandbox', () => ({ module: SandboxModule, config: sandboxConfig() }));
