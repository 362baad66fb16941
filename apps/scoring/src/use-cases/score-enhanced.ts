import type { EnhancedScoreRequest, ScoreResult } from '@credit/contracts/schemas/score';
import { enhancedScore } from '@credit/score-model/boost';
import { scoredOrThrow, scoreResult } from '../domain/replies';
import type { ScoringDeps } from './scoring-deps';

/**
 * docs/API.md §4.1 POST score/address: the on-chain score boosted by the off-chain assets (docs/MODEL.md:
 * round(0.15 × (1000 − score) × min(assets, 50,000) / 50,000), never above 1000); decile and range
 * of the boosted score. The boost is applied to the cached on-chain score, never cached itself.
 * Factors (when asked for) are the on-chain score's: the boost is not a model factor. Invalid →
 * 404 `address_not_found`; no activity → 404 `no_activity` (docs/API.md §4.1 rule 3).
 */
export async function scoreEnhanced(request: EnhancedScoreRequest, deps: ScoringDeps): Promise<ScoreResult> {
  const address = await deps.resolver.resolveOne(request.address);
  const outcomes = await deps.scorer.scoreWallets([address]);
  const wallet = scoredOrThrow(address, outcomes.get(address));
  return scoreResult(address, wallet, request.include_factors, enhancedScore(wallet.score, request.total_asset_usd ?? 0));
}
