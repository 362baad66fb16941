import { runServiceMain } from '@credit/rpc/start-service';
import { identityConfig } from './config';
import { IdentityModule, IdentityResources } from './identity.module';

runServiceMain('identity', () => {
  const config = identityConfig();
  return { module: IdentityModule.forRoot(config), config, readiness: (app) => app.get(IdentityResources).readinessChecks() };
});
