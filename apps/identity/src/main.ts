import { runServiceMain } from '@credit/rpc/start-service';
import { identityConfig } from './config';
import { identityMetrics } from './identity-metrics';
import { IdentityModule } from './identity.module';

runServiceMain('identity', () => {
  const config = identityConfig();
  return { module: IdentityModule.forRoot(config), config, metrics: identityMetrics };
});
