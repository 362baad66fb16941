import { createHash } from 'node:crypto';
import { rangeOf } from '@credit/score-model/score-bands';
import { SANDBOX_CHAINS, sandboxChain } from '../../src/generator/chains';
import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { cents } from '@credit/contracts/usd';
import { rngFor } from '../../src/generator/prng';
import { sandboxProfile, sandboxScore } from '../../src/generator/profile';
import { SANDBOX_PROTOCOLS } from '../../src/generator/protocols';
import { FIRST_TRANSACTION_MAX, FIRST_TRANSACTION_MIN, LAST_TRANSACTION_MAX, isoDate } from '../../src/generator/time-bounds';
import { SANDBOX_TOKENS } from '../../src/generator/tokens';
import type { SandboxProfile } from '../../src/generator/types';
import { PINNED_KEY, PINNED_PROFILE } from './pinned-profile';

const hex = (i: number) => `0x${createHash('sha256').update(`address ${i}`).digest('hex').slice(0, 40)}`;
const KEYS = [
  ...Array.from({ length: 400 }, (_, i) => hex(i)),
  ...Array.from({ length: 100 }, (_, i) => `name${i}.eth`),
  'ñandú.eth',
  '0x0000000000000000000000000000000000000000',
];
const PROFILES: SandboxProfile[] = KEYS.map(sandboxProfile);

function sumCents(values: readonly number[]): number {
  return values.reduce((total, v) => total + cents(v), 0);
}

function isMoney(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

describe('sandbox generator: determinism', () => {
  it('pins the PRNG stream', () => {
    const rng = rngFor('key', 'stream');
    expect([rng.u32(), rng.u32(), rng.u32()]).toEqual([3471667631, 3999414440, 145847288]);
  });

  it('gives the same profile for the same key, twice', () => {
    for (const key of KEYS.slice(0, 50)) expect(sandboxProfile(key)).toEqual(sandboxProfile(key));
  });

  it('matches the pinned profile of a well-known key exactly', () => {
    expect(sandboxProfile(PINNED_KEY)).toEqual(PINNED_PROFILE);
  });

  it('pins a few scores', () => {
    expect(
      ['0x0000000000000000000000000000000000000000', 'vitalik.eth', 'nick.eth', '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'].map(
        sandboxScore,
      ),
    ).toEqual([861, 758, 887, 567]);
  });

  it('gives different keys different profiles', () => {
    const serialized = new Set(PROFILES.map((p) => JSON.stringify({ ...p, key: '' })));
    expect(serialized.size).toBe(PROFILES.length);
    const scores = new Set(PROFILES.map((p) => p.score));
    expect(scores.size).toBeGreaterThan(200);
  });

  it('hashes the key as given (case matters: callers pass the checksummed form)', () => {
    expect(sandboxProfile(PINNED_KEY.toLowerCase())).not.toEqual(sandboxProfile(PINNED_KEY));
  });

  it('rejects an empty key', () => {
    expect(() => sandboxProfile('')).toThrow(RangeError);
  });
});

describe('sandbox generator: ranges and consistency', () => {
  it('scores are integers in 300..1000, the same as sandboxScore, spread around 680', () => {
    for (const p of PROFILES) {
      expect(Number.isInteger(p.score)).toBe(true);
      expect(p.score).toBeGreaterThanOrEqual(300);
      expect(p.score).toBeLessThanOrEqual(1000);
      expect(p.score).toBe(sandboxScore(p.key));
    }
    const mean = PROFILES.reduce((s, p) => s + p.score, 0) / PROFILES.length;
    expect(mean).toBeGreaterThan(650);
    expect(mean).toBeLessThan(710);
  });

  it('has the six factors in order, rated by their sub-scores, described', () => {
    for (const p of PROFILES) {
      expect(p.factors.map((f) => f.label)).toEqual(FACTOR_LABELS);
      for (const f of p.factors) {
        expect(f.rating).toBe(rangeOf(f.score));
        expect(f.description.length).toBeGreaterThan(5);
      }
    }
  });

  it('lists every chain of the table; active ones carry activity, inactive ones are empty', () => {
    for (const p of PROFILES) {
      expect(p.chains.map((c) => c.chainId)).toEqual(SANDBOX_CHAINS.map((c) => c.id));
      expect(p.activeChains.length).toBeGreaterThan(0);
      expect(p.chains.filter((c) => c.active).map((c) => c.chainId)).toEqual(p.activeChains);
      for (const c of p.chains) {
        expect(c.chainName).toBe(sandboxChain(c.chainId)!.name);
        if (!c.active) {
          expect(c.firstTransaction).toBeUndefined();
          expect(c.assetUsd + c.suppliedUsd + c.borrowedUsd + c.counts.transactions + c.counts.balances).toBe(0);
          continue;
        }
        const first = c.firstTransaction!;
        const last = c.lastTransaction!;
        expect(first.chainId).toBe(c.chainId);
        expect(first.timestamp).toBeGreaterThanOrEqual(sandboxChain(c.chainId)!.launchedAt);
        expect(last.timestamp).toBeGreaterThan(first.timestamp);
        expect(last.timestamp).toBeLessThanOrEqual(LAST_TRANSACTION_MAX);
        expect(last.blockNumber).toBeGreaterThan(first.blockNumber);
        expect(Number.isSafeInteger(first.blockNumber) && first.blockNumber >= 0).toBe(true);
        expect(c.counts.transactions).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('takes the first transaction from the earliest chain (2016-01-01..2025-06-30) and the last from the latest', () => {
    for (const p of PROFILES) {
      const active = p.chains.filter((c) => c.active);
      expect(p.firstTransaction.timestamp).toBe(Math.min(...active.map((c) => c.firstTransaction!.timestamp)));
      expect(p.lastTransaction.timestamp).toBe(Math.max(...active.map((c) => c.lastTransaction!.timestamp)));
      expect(p.firstTransaction.timestamp).toBeGreaterThanOrEqual(FIRST_TRANSACTION_MIN);
      expect(p.firstTransaction.timestamp).toBeLessThanOrEqual(FIRST_TRANSACTION_MAX);
      expect(p.lastTransaction.timestamp).toBeGreaterThan(p.firstTransaction.timestamp);
      expect(p.lastTransaction.timestamp).toBeLessThanOrEqual(LAST_TRANSACTION_MAX);
      expect(p.activeChains).toContain(p.firstTransaction.chainId);
    }
  });

  it('sums counts over chains; transfers are at least half the transactions; balances count tokens', () => {
    for (const p of PROFILES) {
      for (const field of [
        'transactions',
        'transfers',
        'balances',
        'collateralDeposits',
        'activeLoans',
        'liquidations',
        'repayments',
      ] as const) {
        expect(p.counts[field]).toBe(p.chains.reduce((n, c) => n + c.counts[field], 0));
      }
      expect(p.counts.transfers).toBeGreaterThanOrEqual(p.counts.transactions / 2);
      for (const c of p.chains) {
        expect(c.counts.transfers).toBeGreaterThanOrEqual(c.counts.transactions / 2);
        expect(c.counts.balances).toBe(p.tokens.filter((t) => t.chainId === c.chainId).length);
      }
      expect(p.counts.balances).toBe(p.tokens.length);
    }
  });

  it('keeps money to cents and totals equal to the sums of their parts', () => {
    for (const p of PROFILES) {
      const amounts = [
        p.totalAssetUsd,
        p.totalSuppliedUsd,
        p.totalBorrowedUsd,
        ...p.tokens.map((t) => t.valueUsd),
        ...p.defi.flatMap((d) => [d.suppliedUsd, d.borrowedUsd]),
        ...p.chains.flatMap((c) => [c.assetUsd, c.suppliedUsd, c.borrowedUsd]),
      ];
      for (const amount of amounts) expect(isMoney(amount)).toBe(true);
      expect(cents(p.totalAssetUsd)).toBe(sumCents(p.tokens.map((t) => t.valueUsd)));
      expect(cents(p.totalAssetUsd)).toBe(sumCents(p.chains.map((c) => c.assetUsd)));
      expect(cents(p.totalSuppliedUsd)).toBe(sumCents(p.defi.map((d) => d.suppliedUsd)));
      expect(cents(p.totalSuppliedUsd)).toBe(sumCents(p.chains.map((c) => c.suppliedUsd)));
      expect(cents(p.totalBorrowedUsd)).toBe(sumCents(p.defi.map((d) => d.borrowedUsd)));
      expect(cents(p.totalBorrowedUsd)).toBe(sumCents(p.chains.map((c) => c.borrowedUsd)));
      for (const c of p.chains) {
        expect(cents(c.assetUsd)).toBe(sumCents(p.tokens.filter((t) => t.chainId === c.chainId).map((t) => t.valueUsd)));
      }
    }
  });

  it('holds tokens of its active chains, with value = balance × price to the cent', () => {
    for (const p of PROFILES) {
      for (const t of p.tokens) {
        expect(p.activeChains).toContain(t.chainId);
        expect(t.balance).toMatch(/^\d+\.\d{6}$/);
        const def = SANDBOX_TOKENS[t.chainId]!.find((d) => d.symbol === t.symbol)!;
        expect(def.name).toBe(t.name);
        const micros = Number(t.balance.replace('.', ''));
        expect(micros).toBeGreaterThan(0);
        expect(cents(t.valueUsd)).toBe(Math.round((micros * def.priceCents) / 1_000_000));
      }
      for (const n of p.nfts) expect(p.activeChains).toContain(n.chainId);
    }
  });

  it('borrows at most supplied × LTV, on protocols deployed on an active chain', () => {
    for (const p of PROFILES) {
      for (const d of p.defi) {
        const protocol = SANDBOX_PROTOCOLS.find((x) => x.name === d.protocol)!;
        expect(protocol.chains).toContain(d.chainId);
        expect(p.activeChains).toContain(d.chainId);
        expect(cents(d.borrowedUsd) * 10_000).toBeLessThanOrEqual(cents(d.suppliedUsd) * protocol.ltvBps);
        expect(d.suppliedUsd).toBeGreaterThan(0);
      }
      expect(p.counts.activeLoans).toBe(p.defi.filter((d) => d.borrowedUsd > 0).length);
      for (const c of p.chains.filter((x) => x.active)) {
        const events = p.defi
          .filter((d) => d.chainId === c.chainId)
          .reduce((n, d) => n + d.collateralDeposits + d.repayments + d.liquidations, 0);
        expect(c.counts.transactions).toBeGreaterThanOrEqual(events);
      }
    }
  });

  it('gives identity data that agrees with the rest of the profile', () => {
    for (const p of PROFILES) {
      const { ens, passport, poaps, social } = p.identity;
      if (p.kind === 'name') expect(ens?.primaryName).toBe(p.key);
      if (ens) {
        expect(ens.ownedNames[0]).toBe(ens.primaryName);
        expect(new Set(ens.ownedNames).size).toBe(ens.ownedNames.length);
        expect(p.activeChains).toContain(1);
        for (const name of ens.ownedNames.filter((n) => n.endsWith('.eth'))) {
          expect(p.nfts).toContainEqual({ name, collection: 'ENS: Ethereum Name Service', chainId: 1 });
        }
        if (ens.avatar !== null) expect(ens.avatar).toMatch(/^https:\/\//);
      }
      expect(passport.score).toBeGreaterThanOrEqual(0);
      expect(passport.score).toBeLessThanOrEqual(100);
      expect(isMoney(passport.score)).toBe(true);
      if (!passport.stamps.some((s) => s.verified)) expect(passport.score).toBe(0);
      expect(passport.stamps.some((s) => s.provider === 'ENS')).toBe(ens !== undefined);
      expect(poaps.count).toBe(poaps.events.length);
      const from = isoDate(p.firstTransaction.timestamp);
      const to = isoDate(p.lastTransaction.timestamp);
      for (const e of poaps.events) {
        expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(e.date >= from && e.date <= to).toBe(true);
      }
      for (const handle of Object.values(social ?? {})) expect(handle.length).toBeGreaterThan(0);
      expect(new Set(p.attestations).size).toBe(p.attestations.length);
    }
  });

  it('gives about half of the addresses a name, and some a social profile', () => {
    const addresses = PROFILES.filter((p) => p.kind === 'address');
    const named = addresses.filter((p) => p.identity.ens).length / addresses.length;
    expect(named).toBeGreaterThan(0.4);
    expect(named).toBeLessThan(0.6);
    const social = PROFILES.filter((p) => p.identity.social).length / PROFILES.length;
    expect(social).toBeGreaterThan(0.1);
    expect(social).toBeLessThan(0.9);
  });
});
