import type { SandboxChain } from './chains';
import { ENS_COLLECTION, SANDBOX_NFT_COLLECTIONS } from './nfts';
import type { Rng } from './prng';
import { BALANCE_DECIMALS, SANDBOX_TOKENS, type SandboxTokenDef } from './tokens';
import type { SandboxNft } from './types';

/** Wallet value tiers in cents; better scores land in higher tiers more often. */
const WEALTH_TIERS: readonly (readonly [number, number])[] = [
  [500, 20_000], // $5 – $200
  [20_000, 200_000], // $200 – $2k
  [200_000, 2_000_000], // $2k – $20k
  [2_000_000, 15_000_000], // $20k – $150k
  [15_000_000, 150_000_000], // $150k – $1.5M
];

export function wealthCents(rng: Rng, quality: number): number {
  const tier = Math.min(WEALTH_TIERS.length - 1, Math.floor(quality * 3 + rng.float() * 2.5));
  const [lo, hi] = WEALTH_TIERS[tier]!;
  return rng.int(lo, hi);
}

export interface TokenDraft {
  def: SandboxTokenDef;
  chainId: number;
  /** Balance in millionths of a token. */
  micros: number;
  valueCents: number;
}

const UNIT = 10 ** BALANCE_DECIMALS;

/**
 * The gas token of every active chain plus some of the chain's other tokens, sharing the wallet's
 * value by random weights. The balance is derived from the value and the mock price, then the value
 * is recomputed from the balance, so balance × price = value to the cent. Dust rounding to a zero
 * balance is dropped. All products stay below 2^53 (values ≤ $1.5M, six decimals).
 */
export function tokenHoldings(rng: Rng, active: readonly SandboxChain[], walletCents: number): TokenDraft[] {
  const held: { def: SandboxTokenDef; chainId: number; weight: number }[] = [];
  for (const chain of active) {
    const defs = SANDBOX_TOKENS[chain.id] ?? [];
    defs.forEach((def, index) => {
      if (index === 0 || rng.chance(0.35)) held.push({ def, chainId: chain.id, weight: 0.05 + rng.float() });
    });
  }
  const totalWeight = held.reduce((sum, h) => sum + h.weight, 0);
  const drafts: TokenDraft[] = [];
  for (const { def, chainId, weight } of held) {
    const targetCents = Math.floor((walletCents * weight) / totalWeight);
    const micros = Math.round((targetCents * UNIT) / def.priceCents);
    if (micros === 0) continue;
    drafts.push({ def, chainId, micros, valueCents: Math.round((micros * def.priceCents) / UNIT) });
  }
  return drafts;
}

/** `12.345678` from 12345678 millionths: integer arithmetic, no locale. */
export function formatBalance(micros: number): string {
  const whole = Math.floor(micros / UNIT);
  const fraction = micros % UNIT;
  return `${whole}.${String(fraction).padStart(BALANCE_DECIMALS, '0')}`;
}

/** The owned `.eth` names (as ENS NFTs on Ethereum), then 0–4 collectibles on active chains. */
export function nftHoldings(rng: Rng, active: readonly SandboxChain[], quality: number, ensNames: readonly string[]): SandboxNft[] {
  const nfts: SandboxNft[] = ensNames
    .filter((name) => name.endsWith('.eth'))
    .map((name) => ({ name, collection: ENS_COLLECTION, chainId: 1 }));
  const count = rng.int(0, Math.floor(1 + 3 * quality));
  const seen = new Set(nfts.map((n) => n.name));
  for (let i = 0; i < count; i++) {
    const chain = rng.pick(active);
    const collection = rng.pick(SANDBOX_NFT_COLLECTIONS[chain.id] ?? []);
    const name = `${collection} #${rng.int(1, 9999)}`;
    if (seen.has(name)) continue;
    seen.add(name);
    nfts.push({ name, collection, chainId: chain.id });
  }
  return nfts;
}
