import { z } from 'zod';
import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { RangeLabel } from '@credit/contracts/schemas/common';

/**
 * What scoring one wallet came to, as cached (docs/API.md §8: 5 minutes per address) and as the use cases
 * read it: a score with the model's factors, or "no activity" (the API answers 404 for it, and
 * caches that answer too, so a repeated miss costs no JSON-RPC request either).
 */
export const ScoredWallet = z.object({
  score: z.number().int().min(300).max(1000),
  /** The model's factors in its order, with the points and reasons a reader recomputes the score from. */
  factors: z.array(
    z.object({
      label: z.enum(FACTOR_LABELS),
      points: z.number(),
      /** Score points below full marks (adverse-action order sorts on it). */
      pointsLost: z.number(),
      rating: RangeLabel,
      reasons: z.array(z.string()),
    }),
  ),
  /** ISO 8601, wall clock: when the score was calculated (the reply's `timestamp`). */
  computedAt: z.iso.datetime({ offset: false }),
  /** ISO 8601: the chain state the score describes (the newest head among the chains read). */
  asOf: z.iso.datetime({ offset: false }),
});
export type ScoredWallet = z.infer<typeof ScoredWallet>;

export const NoActivity = z.object({ noActivity: z.literal(true) });
export type NoActivity = z.infer<typeof NoActivity>;

export const WalletOutcome = z.union([ScoredWallet, NoActivity]);
export type WalletOutcome = z.infer<typeof WalletOutcome>;

export const NO_ACTIVITY: NoActivity = Object.freeze({ noActivity: true as const });

export function isScored(outcome: WalletOutcome): outcome is ScoredWallet {
  return !('noActivity' in outcome);
}
