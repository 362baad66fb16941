import { runServiceMain } from '@credit/rpc/start-service';
import { paymentsConfig } from './config';
import { PaymentsModule, PaymentsResources } from './payments.module';

runServiceMain('payments', () => {
  const config = paymentsConfig();
  return { module: PaymentsModule.forRoot(config), config, readiness: (app) => app.get(PaymentsResources).readinessChecks() };
});
