import { runServiceMain } from '@credit/rpc/start-service';
import { scoringConfig } from './config';
import { ScoringModule, ScoringResources } from './scoring.module';

runServiceMain('scoring', () => {
  const config = scoringConfig();
  return { module: ScoringModule.forRoot(config), config, readiness: (app) => app.get(ScoringResources).wallets.readinessChecks() };
});
