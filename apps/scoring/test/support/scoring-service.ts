import { startService, type RunningService } from '@credit/rpc/start-service';
import { scoringConfig } from '../../src/config';
import { ScoringModule } from '../../src/scoring.module';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The scoring service in this process, on `env` (NATS_URL and the subject prefix added), its health port any free one, silent. */
export function startScoringService(prefix: string, env: Record<string, string>): Promise<RunningService> {
  const config = scoringConfig({ NATS_URL, NATS_SUBJECT_PREFIX: prefix, ...env });
  return startService(ScoringModule.forRoot(config), {
    service: 'scoring',
    natsUrl: NATS_URL,
    subjectPrefix: prefix,
    healthPort: 0,
    silent: true,
  });
}
