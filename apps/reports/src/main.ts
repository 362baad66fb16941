import { runServiceMain } from '@credit/rpc/start-service';
import { reportsConfig } from './config';
import { ReportsModule, ReportsResources } from './reports.module';

runServiceMain('reports', () => {
  const config = reportsConfig();
  return { module: ReportsModule.forRoot(config), config, readiness: (app) => app.get(ReportsResources).wallets.readinessChecks() };
});
