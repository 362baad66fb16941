import type { BatchScoreRequest, BatchScoreResult } from '@credit/contracts/schemas/score';
import { resolveMany } from '../domain/resolve';
import { scoreResult } from '../domain/replies';

/** docs/API.md §2.2 / §4.5: one mock score per valid address (invalid skipped, repeats once). */
export function scoreBatch(request: BatchScoreRequest, now: Date): BatchScoreResult {
  const scores = resolveMany(request.addresses).map((r) =>
    scoreResult(r.address, r.score, now, request.include_factors ? r.profile.factors : undefined),
  );
  return { scores, count: scores.length };
}
