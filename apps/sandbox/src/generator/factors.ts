import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { clampScore, rangeOf } from '@credit/score-model/score-bands';
import type { Rng } from './prng';
import { isoDate } from './time-bounds';
import type { FactorLabel } from '@credit/contracts/schemas/score';
import type { SandboxFactor, SandboxProfile } from './types';

type FactorInput = Omit<SandboxProfile, 'factors'>;

/**
 * One sub-score per factor, scattered around the overall score (so ratings agree with it more often
 * than not), each rated with the range labels and described by the profile's own figures.
 */
export function factorsOf(rng: Rng, profile: FactorInput, stablecoinCents: number, totalAssetCents: number): SandboxFactor[] {
  return FACTOR_LABELS.map((label) => {
    const score = clampScore(profile.score + 80 * rng.normal());
    return { label, score, rating: rangeOf(score), description: describe(label, profile, stablecoinCents, totalAssetCents) };
  });
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 100) / whole);
}

function describe(label: FactorLabel, p: FactorInput, stablecoinCents: number, totalAssetCents: number): string {
  switch (label) {
    case 'Borrowing History': {
      if (p.defi.length === 0) return 'No lending positions found';
      const liquidations = p.counts.liquidations === 0 ? 'no liquidations' : plural(p.counts.liquidations, 'liquidation');
      return `${plural(p.defi.length, 'lending position')}, ${plural(p.counts.activeLoans, 'active loan')}, ${liquidations}`;
    }
    case 'Wallet Composition': {
      if (p.tokens.length === 0) return 'No token balances';
      const chains = new Set(p.tokens.map((t) => t.chainId)).size;
      return `${plural(p.tokens.length, 'token')} across ${plural(chains, 'chain')}, ${percent(stablecoinCents, totalAssetCents)}% in stablecoins`;
    }
    case 'Wallet Health':
      return p.totalBorrowedUsd === 0
        ? 'No outstanding debt'
        : `Debt is ${percent(Math.round(p.totalBorrowedUsd * 100), Math.round(p.totalSuppliedUsd * 100))}% of collateral`;
    case 'Interactions':
      return `${plural(p.counts.transactions, 'transaction')} and ${plural(p.counts.transfers, 'transfer')} on ${plural(p.activeChains.length, 'chain')}`;
    case 'Trust': {
      const verified = p.identity.passport.stamps.filter((s) => s.verified).length;
      return `Passport score ${p.identity.passport.score} with ${plural(verified, 'verified stamp')}, ${plural(p.attestations.length, 'identity attestation')}`;
    }
    case 'New Credit':
      return `First transaction on ${isoDate(p.firstTransaction.timestamp)}, most recent on ${isoDate(p.lastTransaction.timestamp)}`;
  }
}
