import type { BatchScoreRequest, BatchScoreResult } from '@credit/contracts/schemas/score';
import { scoreResult } from '../domain/replies';
import { isScored } from '../domain/wallet-outcome';
import type { ScoringDeps } from './scoring-deps';

/**
 * docs/API.md §4.1 GET score/batch/ (at most 100 addresses: the contract rejects more): one score per
 * valid address with on-chain activity, in input order; invalid, unresolvable and inactive
 * addresses are skipped, repeats count once; none valid is 400 `no_valid_address`. Every address
 * is scored in one pass (one cache read, one query, one multicall per chain for the misses).
 */
export async function scoreBatch(request: BatchScoreRequest, deps: ScoringDeps): Promise<BatchScoreResult> {
  const addresses = await deps.resolver.resolveMany(request.addresses);
  const outcomes = await deps.scorer.scoreWallets(addresses);
  const scores = addresses.flatMap((address) => {
    const outcome = outcomes.get(address);
    return outcome && isScored(outcome) ? [scoreResult(address, outcome, request.include_factors)] : [];
  });
  return { scores, count: scores.length };
}
