import { z } from 'zod';
import type { Address } from 'viem';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';
import { ProviderError, requestJson } from './http-json';

export interface LensSourceConfig {
  /** The GraphQL endpoint itself, e.g. `https://api.lens.xyz/graphql`. */
  baseUrl: string;
  /** The app's Server API Key, sent as `x-lens-app` (left out when empty: queries are public). */
  apiKey: string;
  timeoutMs?: number;
}

const PROVIDER = 'lens';
const DEFAULT_TIMEOUT_MS = 3_000;

/** Lens API v3: the accounts `managedBy` can act as, owned ones included, with their usernames. */
export const ACCOUNTS_AVAILABLE_QUERY = `query AccountsAvailable($request: AccountsAvailableRequest!) {
  accountsAvailable(request: $request) {
    items {
      __typename
      ... on AccountOwned { account { address username { localName value } } }
      ... on AccountManaged { account { address username { localName value } } }
    }
  }
}`;

const LensAccount = z.object({
  address: z.string(),
  username: z.object({ localName: z.string().min(1), value: z.string().min(1) }).nullable(),
});
const AccountAvailable = z.discriminatedUnion('__typename', [
  z.object({ __typename: z.literal('AccountOwned'), account: LensAccount }),
  z.object({ __typename: z.literal('AccountManaged'), account: LensAccount }),
]);

/** A GraphQL answer: `data`, or `errors` (with `data` null or absent). */
const AccountsAvailableResponse = z.object({
  data: z.object({ accountsAvailable: z.object({ items: z.array(AccountAvailable) }) }).nullish(),
  errors: z.array(z.object({ message: z.string() })).optional(),
});

/**
 * Lens (v3 API, GraphQL). The handle is the `localName` of the first account the address owns that
 * has a username in the global Lens namespace (the schema's default): `bob` of `lens/bob`. Accounts
 * the address only manages (a delegate's) are not its identity and are skipped. No owned account
 * with a username (an empty `items`) is "nothing known"; GraphQL `errors` throw.
 */
export class LensSource implements IdentitySource {
  readonly name = 'lens' as const;
  readonly timeoutMs: number;

  constructor(private readonly config: LensSourceConfig) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    const headers: Record<string, string> = this.config.apiKey ? { 'x-lens-app': this.config.apiKey } : {};
    const body = await requestJson({
      provider: PROVIDER,
      url: this.config.baseUrl,
      method: 'POST',
      headers,
      body: { query: ACCOUNTS_AVAILABLE_QUERY, variables: { request: { managedBy: address, includeOwned: true, pageSize: 'FIFTY' } } },
      signal,
      schema: AccountsAvailableResponse,
    });
    if (body === undefined) return undefined;
    if (body.errors && body.errors.length > 0) {
      throw new ProviderError(PROVIDER, 'shape', `GraphQL errors: ${body.errors.map((error) => error.message).join('; ')}`);
    }
    if (!body.data) throw new ProviderError(PROVIDER, 'shape', 'the answer has neither data nor errors');
    const owned = body.data.accountsAvailable.items.find((item) => item.__typename === 'AccountOwned' && item.account.username !== null);
    const handle = owned?.account.username?.localName;
    return handle === undefined ? undefined : { social: { lens: handle } };
  }
}
