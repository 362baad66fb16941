import type { ScoreAddressRequest, ScoreResult } from '@credit/contracts/schemas/score';
import { scoredOrThrow, scoreResult } from '../domain/replies';
import type { ScoringDeps } from './scoring-deps';

/**
 * docs/API.md §4.1 GET score/address: one address or name. Invalid or unresolvable → 404
 * `address_not_found`; no on-chain activity → 404 `no_activity`. A hex address whose verdict this
 * replica holds is answered at once, with no promise (the warm path, issue 37); the rest read it.
 */
export function scoreAddress(request: ScoreAddressRequest, deps: ScoringDeps): ScoreResult | Promise<ScoreResult> {
  const known = deps.resolver.peekOne(request.address);
  const kept = known === undefined ? undefined : deps.scorer.peek(known);
  if (known !== undefined && kept !== undefined) return scoreResult(known, scoredOrThrow(known, kept), request.include_factors);
  return scoreRead(request, deps);
}

async function scoreRead(request: ScoreAddressRequest, deps: ScoringDeps): Promise<ScoreResult> {
  const address = await deps.resolver.resolveOne(request.address);
  const outcomes = await deps.scorer.scoreWallets([address]);
  return scoreResult(address, scoredOrThrow(address, outcomes.get(address)), request.include_factors);
}
