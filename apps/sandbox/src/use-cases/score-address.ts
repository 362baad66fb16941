import type { ScoreAddressRequest, ScoreResult } from '@credit/contracts/schemas/score';
import { resolveOne } from '../domain/resolve';
import { scoreResult } from '../domain/replies';

/** docs/API.md §4.5 sandbox score: deterministic per address; `factors` only when asked for. */
export function scoreAddress(request: ScoreAddressRequest, now: Date): ScoreResult {
  const resolved = resolveOne(request.address);
  return scoreResult(resolved.address, resolved.score, now, request.include_factors ? resolved.profile.factors : undefined);
}
