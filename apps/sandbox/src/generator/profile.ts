import { clampScore, SCORE_MAX, SCORE_MIN } from '@credit/score-model/score-bands';
import { activityWindows, chooseActiveChains, transactionCount, transferCount } from './activity';
import { SANDBOX_CHAINS } from './chains';
import { factorsOf } from './factors';
import { attestationsOf, ensRecord, passport, poaps, social } from './identity';
import { lendingPositions } from './lending';
import { usd } from '@credit/contracts/usd';
import { formatBalance, nftHoldings, tokenHoldings, wealthCents } from './portfolio';
import { rngFor } from './prng';
import type { SandboxChainProfile, SandboxCounts, SandboxIdentity, SandboxProfile, SandboxTransaction } from './types';

/** The sandbox score distribution: roughly normal around 680 with sd 110, clamped to 300..1000. */
export const SANDBOX_SCORE_MEAN = 680;
export const SANDBOX_SCORE_SD = 110;

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The score alone (cheap: what the decile calibration samples). Same as sandboxProfile(key).score. */
export function sandboxScore(key: string): number {
  return clampScore(SANDBOX_SCORE_MEAN + SANDBOX_SCORE_SD * rngFor(key, 'score').normal());
}

/**
 * The deterministic mock profile of an input. `key` is the normalised input: the checksummed hex
 * address, or the ENSIP-15-normalised name (callers normalise; the key is hashed as given, so
 * differently written forms of one address must not reach here). Same key ⇒ identical profile in
 * every process, on every machine, every Node version: see prng.ts.
 */
export function sandboxProfile(key: string): SandboxProfile {
  if (key.length === 0) throw new RangeError('sandbox key must not be empty');
  const kind = HEX_ADDRESS.test(key) ? 'address' : 'name';
  const score = sandboxScore(key);
  const quality = (score - SCORE_MIN) / (SCORE_MAX - SCORE_MIN);

  const identityRng = rngFor(key, 'identity');
  const hasEns = kind === 'name' || identityRng.chance(0.5);

  const activityRng = rngFor(key, 'activity');
  const active = chooseActiveChains(activityRng, hasEns);
  const windows = activityWindows(activityRng, active, quality);

  const portfolioRng = rngFor(key, 'portfolio');
  const wallet = wealthCents(portfolioRng, quality);
  const tokenDrafts = tokenHoldings(portfolioRng, active, wallet);
  const lending = lendingPositions(rngFor(key, 'lending'), active, quality, wallet);

  const chains: SandboxChainProfile[] = SANDBOX_CHAINS.map((chain) => {
    const window = windows.find((w) => w.chain === chain);
    const onChainLending = lending.filter((l) => l.chainId === chain.id);
    const onChainTokens = tokenDrafts.filter((t) => t.chainId === chain.id);
    const lendingEvents = onChainLending.reduce((n, l) => n + l.collateralDeposits + l.repayments + l.liquidations, 0);
    const transactions = window ? Math.max(transactionCount(activityRng, window, quality), lendingEvents + 2) : 0;
    const counts: SandboxCounts = {
      transactions,
      transfers: window ? transferCount(activityRng, transactions) : 0,
      balances: onChainTokens.length,
      collateralDeposits: sum(onChainLending.map((l) => l.collateralDeposits)),
      activeLoans: onChainLending.filter((l) => l.borrowedCents > 0).length,
      liquidations: sum(onChainLending.map((l) => l.liquidations)),
      repayments: sum(onChainLending.map((l) => l.repayments)),
    };
    return {
      chainId: chain.id,
      chainName: chain.name,
      active: window !== undefined,
      ...(window ? { firstTransaction: window.first, lastTransaction: window.last } : {}),
      assetUsd: usd(sum(onChainTokens.map((t) => t.valueCents))),
      suppliedUsd: usd(sum(onChainLending.map((l) => l.suppliedCents))),
      borrowedUsd: usd(sum(onChainLending.map((l) => l.borrowedCents))),
      counts,
    };
  });

  const firstTransaction = earliest(windows.map((w) => w.first));
  const lastTransaction = latest(windows.map((w) => w.last));

  const ens = hasEns ? ensRecord(identityRng, kind === 'name' ? key : undefined) : undefined;
  const identity: SandboxIdentity = {
    ...(ens ? { ens } : {}),
    passport: passport(identityRng, quality, hasEns),
    poaps: poaps(identityRng, quality, firstTransaction.timestamp, lastTransaction.timestamp),
  };
  const handles = social(identityRng, ens?.primaryName);
  if (handles) identity.social = handles;

  const totalAssetCents = sum(tokenDrafts.map((t) => t.valueCents));
  const stablecoinCents = sum(tokenDrafts.filter((t) => t.def.stable).map((t) => t.valueCents));
  const withoutFactors: Omit<SandboxProfile, 'factors'> = {
    key,
    kind,
    score,
    chains,
    activeChains: active.map((c) => c.id),
    firstTransaction,
    lastTransaction,
    counts: {
      transactions: sum(chains.map((c) => c.counts.transactions)),
      transfers: sum(chains.map((c) => c.counts.transfers)),
      balances: tokenDrafts.length,
      collateralDeposits: sum(chains.map((c) => c.counts.collateralDeposits)),
      activeLoans: sum(chains.map((c) => c.counts.activeLoans)),
      liquidations: sum(chains.map((c) => c.counts.liquidations)),
      repayments: sum(chains.map((c) => c.counts.repayments)),
    },
    tokens: tokenDrafts.map((t) => ({
      symbol: t.def.symbol,
      name: t.def.name,
      balance: formatBalance(t.micros),
      valueUsd: usd(t.valueCents),
      chainId: t.chainId,
    })),
    nfts: nftHoldings(rngFor(key, 'nfts'), active, quality, ens?.ownedNames ?? []),
    defi: lending.map((l) => ({
      protocol: l.protocol,
      chainId: l.chainId,
      suppliedUsd: usd(l.suppliedCents),
      borrowedUsd: usd(l.borrowedCents),
      collateralDeposits: l.collateralDeposits,
      repayments: l.repayments,
      liquidations: l.liquidations,
    })),
    totalAssetUsd: usd(totalAssetCents),
    totalSuppliedUsd: usd(sum(lending.map((l) => l.suppliedCents))),
    totalBorrowedUsd: usd(sum(lending.map((l) => l.borrowedCents))),
    identity,
    attestations: attestationsOf(identity),
  };
  return {
    ...withoutFactors,
    factors: factorsOf(rngFor(key, 'factors'), withoutFactors, stablecoinCents, totalAssetCents),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

function earliest(refs: readonly SandboxTransaction[]): SandboxTransaction {
  return refs.reduce((a, b) => (b.timestamp < a.timestamp ? b : a));
}

function latest(refs: readonly SandboxTransaction[]): SandboxTransaction {
  return refs.reduce((a, b) => (b.timestamp > a.timestamp ? b : a));
}
