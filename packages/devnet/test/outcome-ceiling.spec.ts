import { ceilingProbability, interestCharge, simulatedPaths, simulateWindow, type CeilingWallet } from '../src/seed/outcome-ceiling';
import { pricePath, type PricePath } from '../src/seed/price-path';
import { Rng } from '../src/seed/rng';
import { extraBorrowChance, reactionChance, reactionOf, reactionTrigger, type PositionView } from '../src/seed/window-policy';
import { REFERENCE_WORLD_PARAMS, resolveWorldParams, type WorldParams } from '../src/seed/world-params';

const DAYS = 90;
const params: WorldParams = { ...REFERENCE_WORLD_PARAMS };
const flat = (m = 1): PricePath => ({ eth: Array(DAYS).fill(m), volt: Array(DAYS).fill(m) });
/** ETH falls linearly to `to` × start over the first `days` days, then stays. */
const falling = (to: number, days = 30): PricePath => ({
  eth: Array.from({ length: DAYS }, (_, k) => 1 - ((1 - to) * Math.min(k + 1, days)) / days),
  volt: Array(DAYS).fill(1),
});

/** A WETH borrower at ETH 3,000 whose health factor at T is `hf`. */
function wallet(hf: number, overrides: Partial<CeilingWallet> = {}): CeilingWallet {
  const collateral = 10;
  return {
    discipline: 0.5,
    asset: 'ETH',
    startPrice: 3_000,
    collateral,
    collateralReserve: 0,
    debtUsd: (collateral * 3_000 * 0.825) / hf,
    stableReserveUsd: 0,
    ltv: 0.8,
    liquidationThreshold: 0.825,
    liquidationBonus: 0.05,
    interestDays: [],
    ...overrides,
  };
}

describe('world parameters', () => {
  it('default to the reference world and are checked', () => {
    expect(resolveWorldParams()).toEqual(REFERENCE_WORLD_PARAMS);
    expect(resolveWorldParams({ dailyVol: 0.01 }).dailyVol).toBe(0.01);
    expect(() => resolveWorldParams({ priceFloor: 0.1 })).toThrow(/priceFloor/);
    expect(() => resolveWorldParams({ loanShare: [9_000, 8_000] })).toThrow(/loanShare/);
  });
});

describe('price path', () => {
  it('is a function of its generator, held above the floor', () => {
    const a = pricePath(params, new Rng('p'), DAYS);
    expect(pricePath(params, new Rng('p'), DAYS)).toEqual(a);
    expect(a.eth).toHaveLength(DAYS);
    const harsh = pricePath({ ...params, dailyVol: 0.2, jumpsPerYear: 200 }, new Rng('p'), DAYS);
    expect(Math.min(...harsh.eth, ...harsh.volt)).toBeCloseTo(params.priceFloor, 12);
    expect(Math.min(...harsh.eth, ...harsh.volt)).toBeGreaterThanOrEqual(params.priceFloor);
  });

  it('stays flat without volatility or jumps, and only falls with jumps alone', () => {
    expect(pricePath({ ...params, dailyVol: 0, jumpsPerYear: 0 }, new Rng('q'), DAYS)).toEqual(flat());
    const jumps = pricePath({ ...params, dailyVol: 0, jumpsPerYear: 50 }, new Rng('q'), DAYS).eth;
    for (let k = 1; k < DAYS; k++) expect(jumps[k]!).toBeLessThanOrEqual(jumps[k - 1]!);
    expect(jumps[DAYS - 1]!).toBeLessThan(1);
  });
});

describe('window policy', () => {
  const view = (hf: number, reserves = 5_000): PositionView => ({
    collateralUsd: 30_000,
    debtUsd: (30_000 * 0.825) / hf,
    liquidationThreshold: 0.825,
    ltv: 0.8,
    stableReserveUsd: reserves,
    collateralReserveUsd: reserves,
  });

  it('always draws four values', () => {
    for (const [d, hf] of [
      [0.9, 1.05],
      [0.1, 3],
      [0.5, Infinity],
    ] as const) {
      const rng = new Rng('draws');
      reactionOf(d, hf, rng, view(hf));
      const other = new Rng('draws');
      for (let k = 0; k < 4; k++) other.next();
      expect(rng.next()).toBe(other.next());
    }
  });

  it('acts below its trigger, more often when disciplined, within its reserves and towards a safer health factor', () => {
    expect(reactionTrigger(1)).toBeCloseTo(1.5);
    expect(reactionChance(0.9)).toBeGreaterThan(reactionChance(0.1));
    const rate = (d: number) => {
      const rng = new Rng(`rate:${d}`);
      let acted = 0;
      for (let k = 0; k < 2_000; k++) {
        const r = reactionOf(d, 1.05, rng, view(1.05));
        if (r.kind === 'repay' || r.kind === 'topUp') {
          acted += 1;
          expect(r.usd).toBeLessThanOrEqual(5_000);
          expect(r.usd).toBeGreaterThan(0);
        }
      }
      return acted / 2_000;
    };
    expect(rate(0.9)).toBeGreaterThan(0.7);
    expect(rate(0.1)).toBeLessThan(0.25);
    // a repayment never goes beyond what brings it a little above its trigger
    const rng = new Rng('target');
    for (let k = 0; k < 200; k++) {
      const r = reactionOf(0.8, 1.05, rng, view(1.05, 1e9));
      if (r.kind === 'repay')
        expect((30_000 * 0.825) / ((30_000 * 0.825) / 1.05 - r.usd)).toBeLessThanOrEqual(reactionTrigger(0.8) + 0.4 + 1e-9);
    }
    // above the trigger it never repays; without debt it does nothing
    const calm = new Rng('calm');
    for (let k = 0; k < 500; k++) expect(['none', 'borrow']).toContain(reactionOf(0.5, 3, calm, view(3)).kind);
    expect(reactionOf(0.5, Infinity, calm, { ...view(2), debtUsd: 0 })).toEqual({ kind: 'none' });
  });

  it('the undisciplined now and then borrow more on calm days, within what the pool lends', () => {
    expect(extraBorrowChance(0)).toBeGreaterThan(extraBorrowChance(0.8));
    const rng = new Rng('borrow');
    let borrows = 0;
    for (let k = 0; k < 5_000; k++) {
      const r = reactionOf(0, 2, rng, view(2));
      if (r.kind === 'borrow') {
        borrows += 1;
        expect(r.usd).toBeLessThanOrEqual(30_000 * 0.8 - (30_000 * 0.825) / 2);
      }
    }
    expect(borrows).toBeGreaterThan(50);
    expect(borrows).toBeLessThan(300);
  });
});

describe('outcome ceiling', () => {
  it('posts interest as debt × apr × 30 / 365', () => {
    expect(interestCharge(36_500, 0.06)).toBeCloseTo(180);
  });

  it('a flat market liquidates nobody healthy; a deep fall liquidates a borrower who cannot react', () => {
    const none = { discipline: 0 };
    expect(simulateWindow(wallet(1.2, none), flat(), params, new Rng('a'), DAYS).liquidations).toBe(0);
    const fall = simulateWindow(wallet(1.2, none), falling(0.6), params, new Rng('a'), DAYS);
    expect(fall.liquidations).toBeGreaterThan(0);
    expect(fall.firstLiquidatedDay).toBeGreaterThan(1);
    expect(fall.firstLiquidatedDay).toBeLessThanOrEqual(30);
  });

  it('a disciplined borrower with reserves survives the fall that liquidates the same position without them', () => {
    const hf = 1.2;
    const debt = wallet(hf).debtUsd;
    const disciplined = wallet(hf, { discipline: 0.95, stableReserveUsd: debt * 0.6, collateralReserve: 5 });
    let survived = 0;
    for (let k = 0; k < 50; k++)
      if (simulateWindow(disciplined, falling(0.6), params, new Rng(`s${k}`), DAYS).liquidations === 0) survived += 1;
    expect(survived).toBeGreaterThan(40);
    expect(simulateWindow(wallet(hf, { discipline: 0.95 }), falling(0.6), params, new Rng('s'), DAYS).liquidations).toBeGreaterThan(0);
  });

  it('interest alone can take a borrower at the edge below 1', () => {
    const edge = wallet(1.004, { discipline: 0, interestDays: [30] });
    const result = simulateWindow(edge, flat(), { ...params, interestApr: 0.1 }, new Rng('i'), DAYS);
    expect(result.firstLiquidatedDay).toBe(30);
  });

  it('is a probability over fresh paths: 0 without debt, higher for lower health factors and lower discipline, deterministic', () => {
    const paths = simulatedPaths(params, new Rng('paths'), 300, DAYS);
    const p = (w: CeilingWallet) => ceilingProbability(w, paths, params, new Rng('c'), DAYS);
    expect(p(wallet(1.5, { debtUsd: 0 }))).toBe(0);
    const low = p(wallet(1.1, { discipline: 0.3 }));
    const mid = p(wallet(1.5, { discipline: 0.3 }));
    const high = p(wallet(3, { discipline: 0.3 }));
    expect(low).toBeGreaterThan(mid);
    expect(mid).toBeGreaterThanOrEqual(high);
    expect(low).toBeLessThanOrEqual(1);
    const debt = wallet(1.3).debtUsd;
    expect(p(wallet(1.3, { discipline: 0.9, stableReserveUsd: debt * 0.5 }))).toBeLessThan(p(wallet(1.3, { discipline: 0.1 })));
    expect(p(wallet(1.3))).toBe(p(wallet(1.3)));
  });
});
