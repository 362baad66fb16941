import { z } from 'zod';

/** docs/API.md §2.9. */
export const UserProfile = z.object({
  id: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  is_verified: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfile>;

/** `GET /users/me/usage`: the account's CU in the current calendar month (UTC). */
export const UsageReport = z.object({
  plan: z.enum(['free', 'pro', 'enterprise']),
  /** CU a month; null when unlimited. */
  monthly_limit: z.number().int().nonnegative().nullable(),
  used: z.number().int().nonnegative(),
  /** null when unlimited. */
  remaining: z.number().int().nonnegative().nullable(),
  period_start: z.string(),
  /** When the allowance starts again: the next month's first instant. */
  period_end: z.string(),
  by_operation: z.record(z.string(), z.number().int()),
});
export type UsageReport = z.infer<typeof UsageReport>;
