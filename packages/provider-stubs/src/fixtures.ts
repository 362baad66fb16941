import { z } from 'zod';

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'not YYYY-MM-DD')
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a calendar date');

/** What the stubs know of one address; each provider renders its part in its own shape. */
export const AddressFixture = z.object({
  /** Human Passport: the score as the API's decimal string ("33.538") and the stamp providers. */
  passport: z.object({ score: z.string().regex(/^-?\d+(\.\d+)?$/), stamps: z.array(z.string().min(1)) }).optional(),
  /** POAP: the events of the tokens held, dates as YYYY-MM-DD (rendered as POAP's DD-Mon-YYYY). */
  poaps: z.array(z.object({ name: z.string(), date: IsoDate })).optional(),
  /** Farcaster (Neynar): the username. */
  farcaster: z.string().min(1).optional(),
  /** Lens: the local name of the owned account's username (`bob` of `lens/bob`). */
  lens: z.string().min(1).optional(),
});
export type AddressFixture = z.infer<typeof AddressFixture>;

/** Fixtures keyed by address (lower-case; other cases are lower-cased on start). */
export const StubFixtures = z.record(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'not an address'), AddressFixture);
export type StubFixtures = z.infer<typeof StubFixtures>;
