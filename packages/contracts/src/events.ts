import { z } from 'zod';

/**
 * Broadcast subjects: every replica receives every message (no queue group).
 */
export const EVENTS = {
  /** An API key was revoked: every gateway replica drops it from its key cache at once. */
  apiKeyRevoked: {
    subject: 'credit.events.api-key.revoked.v1',
    payload: z.object({ key_id: z.string(), key_hash: z.string() }),
  },
  /**
   * An account was disabled or enabled again: every gateway replica drops the account's cached
   * keys at once, so the next request with any of them reads the account's state from Postgres.
   */
  accountStatusChanged: {
    subject: 'credit.events.account.status.v1',
    payload: z.object({ account_id: z.string(), is_active: z.boolean() }),
  },
  /**
   * An account's plan or contracted allowance changed: every gateway replica drops the account's
   * cached keys, so the next request is metered against the new allowance (a 429 lifts at once).
   */
  accountPlanChanged: {
    subject: 'credit.events.account.plan.v1',
    payload: z.object({
      account_id: z.string(),
      plan: z.enum(['free', 'pro', 'enterprise']),
      monthly_cu: z.number().int().nonnegative().nullable(),
    }),
  },
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]['payload']>;
