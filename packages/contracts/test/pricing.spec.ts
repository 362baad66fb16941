import { CU_USD, FREE, PLANS, PLAN_NAMES, USDC_ATOMIC_PER_CU, costOf, usdOf } from '../src/pricing';

/** CU prices and plans (docs/API.md §5, §8). */
describe('costOf', () => {
  it('a fixed price ignores the address count', () => {
    expect(costOf({ kind: 'fixed', cu: 7 }, 0)).toBe(7);
    expect(costOf({ kind: 'fixed', cu: 7 }, 1)).toBe(7);
    expect(costOf({ kind: 'fixed', cu: 7 }, 50)).toBe(7);
    expect(costOf({ kind: 'fixed', cu: 10 }, 3)).toBe(10);
  });

  it('a per-address price multiplies by the count', () => {
    expect(costOf({ kind: 'per_address', cu: 1 }, 37)).toBe(37);
    expect(costOf({ kind: 'per_address', cu: 1 }, 100)).toBe(100);
    expect(costOf({ kind: 'per_address', cu: 7 }, 3)).toBe(21);
    expect(costOf({ kind: 'per_address', cu: 2 }, 0)).toBe(0);
  });

  it('a negative count never yields a negative (refunding) cost', () => {
    expect(costOf({ kind: 'per_address', cu: 7 }, -4)).toBe(0);
  });

  it('the free price costs nothing whatever the count', () => {
    expect(FREE).toEqual({ kind: 'fixed', cu: 0 });
    expect(costOf(FREE, 100)).toBe(0);
  });
});

describe('usdOf', () => {
  it('converts CU at 0.01 USD with two decimals', () => {
    expect(CU_USD).toBe(0.01);
    expect(usdOf(7)).toBe('0.07');
    expect(usdOf(1)).toBe('0.01');
    expect(usdOf(10)).toBe('0.10');
    expect(usdOf(0)).toBe('0.00');
    expect(usdOf(24_900)).toBe('249.00');
  });

  it('is exact to the cent for every CU count up to 100,000', () => {
    for (let cu = 0; cu <= 100_000; cu += 1) {
      const expected = `${Math.floor(cu / 100)}.${String(cu % 100).padStart(2, '0')}`;
      if (usdOf(cu) !== expected) throw new Error(`usdOf(${cu}) = ${usdOf(cu)}, expected ${expected}`);
    }
  });

  it('one CU is 10,000 atomic units of six-decimal USDC', () => {
    expect(USDC_ATOMIC_PER_CU).toBe(CU_USD * 1_000_000);
  });
});

describe('PLANS', () => {
  it('docs/API.md §8: free 1,000 CU, pro 50,000 CU, enterprise unlimited', () => {
    expect(PLANS.free.monthlyCu).toBe(1000);
    expect(PLANS.pro.monthlyCu).toBe(50_000);
    expect(PLANS.enterprise.monthlyCu).toBeNull();
    expect([...PLAN_NAMES].sort()).toEqual(['enterprise', 'free', 'pro']);
  });
});
