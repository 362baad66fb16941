import { runServiceMain } from '@credit/rpc/start-service';
import { scoringConfig } from './config';
import { ScoringModule } from './scoring.module';

runServiceMain('scoring', () => {
  const config = scoringConfig();
  return { module: ScoringModule.forRoot(config), config };
});
