import { z } from 'zod';

/** docs/API.md §2.9. */
export const UserProfile = z.object({
  id: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  is_verified: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfile>;
