/**
 * CU prices (docs/API.md §5): each operation states its own in its definition (`operations/`).
 * One CU is 0.01 USD on the x402 path (10,000 USDC atomic units, USDC having six decimals).
 */
export type Price =
  /** A fixed number of CU per request. */
  | { readonly kind: 'fixed'; readonly cu: number }
  /** CU per address in the request (batch score) or per address analysed (aggregated report). */
  | { readonly kind: 'per_address'; readonly cu: number };

export const CU_USD = 0.01;
export const USDC_ATOMIC_PER_CU = 10_000;

/** The sandbox's price (docs/API.md §4.5); each operation's production price is in its definition (`operations/`). */
export const FREE: Price = { kind: 'fixed', cu: 0 };

/** CU a request costs, given how many addresses it names (for per-address prices). */
export function costOf(price: Price, addressCount: number): number {
  return price.kind === 'fixed' ? price.cu : price.cu * Math.max(addressCount, 0);
}

export function usdOf(cu: number): string {
  return (cu * CU_USD).toFixed(2);
}

/** docs/API.md §8 plans: monthly CU allowance; null is unlimited. */
export const PLANS = {
  free: { monthlyCu: 1_000 },
  pro: { monthlyCu: 50_000 },
  enterprise: { monthlyCu: null },
} as const;

export type PlanName = keyof typeof PLANS;

/** CU a month for an account: its plan's, or an enterprise account's contracted allowance; null is unlimited. */
export function allowanceOf(plan: PlanName, contractedMonthlyCu: number | null): number | null {
  return plan === 'enterprise' && contractedMonthlyCu !== null ? contractedMonthlyCu : PLANS[plan].monthlyCu;
}
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];
