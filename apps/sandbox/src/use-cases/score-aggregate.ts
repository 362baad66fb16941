import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import type { AggregateScoreRequest, AggregatedScoreResult } from '@credit/contracts/schemas/score';
import { decileOf } from '@credit/score-model/deciles';
import { SANDBOX_DECILE_CUT_POINTS } from '../generator/decile-cut-points';
import { rangeOf } from '@credit/score-model/score-bands';
import { resolveMany } from '../domain/resolve';

/**
 * docs/API.md §4.1 aggregated score, sandbox form: the mean of the valid addresses' scores rounded to an
 * integer, decile and range of that mean; invalid addresses skipped, none valid → no_valid_address.
 */
export function scoreAggregate(request: AggregateScoreRequest, now: Date): AggregatedScoreResult {
  const resolved = resolveMany(request.addresses);
  const score = Math.round(resolved.reduce((sum, r) => sum + r.score, 0) / resolved.length);
  return {
    address: resolved.map((r) => r.address),
    score,
    decile: decileOf(score, SANDBOX_DECILE_CUT_POINTS),
    range: rangeOf(score),
    model_version: MODEL_VERSION,
    timestamp: now.toISOString(),
  };
}
