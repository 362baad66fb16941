import type { AccountRecord } from '@credit/db/account-repository';

/** Who is calling, attached to the request by the key guard: the key and its account as stored. */
export interface AuthContext {
  keyId: string;
  account: AccountRecord;
}

export const AUTH_CONTEXT = Symbol('auth');

export type WithAuth = { [AUTH_CONTEXT]?: AuthContext };
