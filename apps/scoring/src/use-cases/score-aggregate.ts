import type { Address } from 'viem';
import { DomainError } from '@credit/contracts/errors';
import type { AggregateScoreRequest, AggregatedScoreResult } from '@credit/contracts/schemas/score';
import { aggregatedResult } from '../domain/replies';
import { isScored, type ScoredWallet } from '../domain/wallet-outcome';
import type { ScoringDeps } from './scoring-deps';

/**
 * docs/API.md §4.1 GET score/: the mean (rounded to an integer) of the individual scores, decile and range
 * of that mean. Invalid and unresolvable entries are skipped and repeats count once; none valid is
 * 400 `no_valid_address`. Valid addresses WITHOUT on-chain activity are skipped as well: they have
 * no score (the single endpoint answers 404 for them), and counting them at the floor would drag
 * the mean down for wallets that simply were never used. The reply's `address` lists the
 * addresses actually averaged. Valid addresses but none with activity → 404 `no_activity`.
 */
export async function scoreAggregate(request: AggregateScoreRequest, deps: ScoringDeps): Promise<AggregatedScoreResult> {
  const addresses = await deps.resolver.resolveMany(request.addresses);
  const outcomes = await deps.scorer.scoreWallets(addresses);
  const scored = addresses.flatMap((address): [Address, ScoredWallet][] => {
    const outcome = outcomes.get(address);
    return outcome && isScored(outcome) ? [[address, outcome]] : [];
  });
  if (scored.length === 0) {
    throw new DomainError('no_activity', 'No on-chain activity found for any of the addresses supplied');
  }
  return aggregatedResult(scored);
}
