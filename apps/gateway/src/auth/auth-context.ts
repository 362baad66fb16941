import type { PlanName } from '@credit/contracts/pricing';

/** Who is calling, attached to the request by the key guard. */
export interface AuthContext {
  keyId: string;
  account: {
    id: string;
    email: string;
    plan: PlanName;
    isActive: boolean;
    isVerified: boolean;
    /** An enterprise account's contracted CU a month; null is the plan's own allowance. */
    monthlyCu: number | null;
  };
}

export const AUTH_CONTEXT = Symbol('auth');

export type WithAuth = { [AUTH_CONTEXT]?: AuthContext };
