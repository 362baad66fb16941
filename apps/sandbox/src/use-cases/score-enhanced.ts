import type { EnhancedScoreRequest, ScoreResult } from '@credit/contracts/schemas/score';
import { enhancedScore } from '@credit/score-model/boost';
import { resolveOne } from '../domain/resolve';
import { scoreResult } from '../domain/replies';

/** docs/API.md §4.1 POST, sandbox form: the mock score boosted by the off-chain assets (docs/MODEL.md). */
export function scoreEnhanced(request: EnhancedScoreRequest, now: Date): ScoreResult {
  const resolved = resolveOne(request.address);
  const score = enhancedScore(resolved.score, request.total_asset_usd ?? 0);
  return scoreResult(resolved.address, score, now, request.include_factors ? resolved.profile.factors : undefined);
}
