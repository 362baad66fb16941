import { toClientEvmSigner, type ClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';

/** A CAIP-2 network id of an EVM chain, e.g. `eip155:8453` (Base). */
export type EvmNetwork = `eip155:${number}`;

export interface PayingFetchOptions {
  /** Who pays: a viem account (`privateKeyToAccount(…)`, a wallet's account) or any signer of EIP-712 data. */
  account: Pick<ClientEvmSigner, 'address' | 'signTypedData'>;
  /** The networks the account pays on (USDC, by `transferWithAuthorization`). */
  networks: readonly EvmNetwork[];
  /** Tokens other than the network's default USDC that may be paid with (a testnet's or a devnet's). */
  allowedAssets?: readonly { network: EvmNetwork; asset: `0x${string}` }[];
  fetch?: typeof globalThis.fetch;
}

/**
 * A fetch that answers the API's 402 by paying the price asked over x402 (the official
 * `@x402/fetch` client, unmodified): give it to `createCreditClient({ fetch })` instead of an API
 * key. Each production request is then paid on its own, no account needed.
 */
export function payingFetch(options: PayingFetchOptions): typeof globalThis.fetch {
  const scheme = new ExactEvmScheme(toClientEvmSigner(options.account));
  const client = x402Client.fromConfig({
    schemes: options.networks.map((network) => ({ network, client: scheme })),
    ...(options.allowedAssets === undefined ? {} : { spendControls: { allowedAssets: [...options.allowedAssets] } }),
  });
  return wrapFetchWithPayment(options.fetch ?? globalThis.fetch.bind(globalThis), client) as typeof globalThis.fetch;
}
