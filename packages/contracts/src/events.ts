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
} as const;

export type ApiKeyRevokedEvent = z.infer<typeof EVENTS.apiKeyRevoked.payload>;
