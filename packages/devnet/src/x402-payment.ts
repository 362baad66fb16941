import { randomBytes } from 'node:crypto';
import { createPublicClient, defineChain, http, type Address, type Chain, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from './eip3009';
import type { DevnetPayments } from './state-file';

export interface SignedPaymentOptions {
  /** Who signs (default: the devnet payer's key). */
  key: Hex;
  /** Default: the payments' receiver. */
  to?: Address;
  /** Atomic units (default 10,000: one CU). */
  value?: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  /** The token whose EIP-712 domain is signed against (default: the devnet's). */
  token?: Address;
  /** The x402 v1 network name (default `base-sepolia`). */
  network?: string;
}

/**
 * An x402 v1 `X-PAYMENT` header signed by hand: an EIP-3009 `transferWithAuthorization` against
 * the token's EIP-712 domain, as x402-fetch makes it, with any field overridable (the cases an
 * official client never sends: a wrong amount, recipient, token, window, signer).
 */
export async function signedX402Payment(payments: DevnetPayments, options: SignedPaymentOptions): Promise<string> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const account = privateKeyToAccount(options.key);
  const authorization = {
    from: account.address,
    to: options.to ?? payments.payTo,
    value: options.value ?? 10_000n,
    validAfter: options.validAfter ?? now - 60n,
    validBefore: options.validBefore ?? now + 120n,
    nonce: options.nonce ?? (`0x${randomBytes(32).toString('hex')}` as Hex),
  };
  const signature = await account.signTypedData({
    domain: {
      name: payments.tokenName,
      version: payments.tokenVersion,
      chainId: payments.chainId,
      verifyingContract: options.token ?? payments.token,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const payload = {
    x402Version: 1,
    scheme: 'exact',
    network: options.network ?? 'base-sepolia',
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: String(authorization.value),
        validAfter: String(authorization.validAfter),
        validBefore: String(authorization.validBefore),
      },
    },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The devnet's payment chain as a viem chain (its RPC URL is this start's). */
export function paymentChain(payments: DevnetPayments): Chain {
  return defineChain({
    id: payments.chainId,
    name: 'devnet payment chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [payments.rpcUrl] } },
  });
}

/** A client reading the payment chain (balances, receipts, the signer's nonce). */
export function paymentChainClient(payments: DevnetPayments): PublicClient {
  return createPublicClient({ chain: paymentChain(payments), transport: http(payments.rpcUrl) });
}
