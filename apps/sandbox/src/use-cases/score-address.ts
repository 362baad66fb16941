import type { ScoreAddressRequest, ScoreResult } from '@credit/contracts/schemas/score';
import { resolveOne } from '../domain/resolve';
import { scoreResult } from '../domain/replies';

/** SPEC 4.5 sandbox score: deterministic per address; `factors` only when asked for. */
export function scoreAddress(request: ScoreAddressRequest, now: Date): ScoreResult {
  const { address, profile } = resolveOne(request.address);
  return scoreResult(address, profile.score, now, request.include_factors ? profile.factors : undefined);
}
