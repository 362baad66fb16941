import { z } from 'zod';
import type { ServiceName } from './subject-def';

/**
 * Each service's readiness on the bus: every replica subscribes (no queue group) and answers only
 * while its own `/ready` would be 200, so the first reply says one ready replica exists; silence
 * (a timeout) or "no responders" says none does. The gateway's `/ready` asks the services it
 * forwards to.
 */
export const HEALTH_SUBJECTS: Readonly<Record<ServiceName, string>> = {
  scoring: 'credit.health.scoring.v1',
  reports: 'credit.health.reports.v1',
  identity: 'credit.health.identity.v1',
  sandbox: 'credit.health.sandbox.v1',
  payments: 'credit.health.payments.v1',
};

/** How long a caller waits for a ready replica's answer before counting the service not ready. */
export const HEALTH_TIMEOUT_MS = 500;

export const HealthReply = z.object({ service: z.string(), ready: z.literal(true) });
export type HealthReply = z.infer<typeof HealthReply>;
