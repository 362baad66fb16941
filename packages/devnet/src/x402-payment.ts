import { randomBytes } from 'node:crypto';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseAbi,
  parseSignature,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CANCEL_AUTHORIZATION_TYPES, TRANSFER_WITH_AUTHORIZATION_TYPES } from './eip3009';
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
    domain: { ...domainOf(payments), verifyingContract: options.token ?? payments.token },
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

const EIP3009 = parseAbi([
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
]);
/** Sent without an estimate, so a call that reverts (the nonce already used) still lands, as `reverted`. */
const AUTHORIZATION_GAS = 200_000n;

function domainOf(payments: DevnetPayments) {
  return { name: payments.tokenName, version: payments.tokenVersion, chainId: payments.chainId, verifyingContract: payments.token };
}

/**
 * What a payer who wants its payment back sends (EIP-3009, as USDC has it): `cancelAuthorization`
 * of its own nonce, signed by `key` and sent from it (it pays the gas). The transaction's hash.
 */
export async function cancelAuthorization(payments: DevnetPayments, key: Hex, nonce: Hex): Promise<Hex> {
  const account = privateKeyToAccount(key);
  const signature = parseSignature(
    await account.signTypedData({
      domain: domainOf(payments),
      types: CANCEL_AUTHORIZATION_TYPES,
      primaryType: 'CancelAuthorization',
      message: { authorizer: account.address, nonce },
    }),
  );
  const wallet = createWalletClient({ account, chain: paymentChain(payments), transport: http(payments.rpcUrl) });
  return wallet.writeContract({
    address: payments.token,
    abi: EIP3009,
    functionName: 'cancelAuthorization',
    args: [account.address, nonce, Number(signature.v ?? BigInt(signature.yParity + 27)), signature.r, signature.s],
    gas: AUTHORIZATION_GAS,
  });
}

/**
 * Spends `nonce` on another `transferWithAuthorization` of `key`'s (default: 0 to itself), sent
 * from that account: the nonce is used, and nothing reaches the payments' receiver.
 */
export async function spendAuthorization(
  payments: DevnetPayments,
  key: Hex,
  nonce: Hex,
  transfer: { to?: Address; value?: bigint } = {},
): Promise<Hex> {
  const account = privateKeyToAccount(key);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = {
    from: account.address,
    to: transfer.to ?? account.address,
    value: transfer.value ?? 0n,
    validAfter: now - 60n,
    validBefore: now + 600n,
    nonce,
  };
  const signature = parseSignature(
    await account.signTypedData({
      domain: domainOf(payments),
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message,
    }),
  );
  const wallet = createWalletClient({ account, chain: paymentChain(payments), transport: http(payments.rpcUrl) });
  return wallet.writeContract({
    address: payments.token,
    abi: EIP3009,
    functionName: 'transferWithAuthorization',
    args: [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      nonce,
      Number(signature.v ?? BigInt(signature.yParity + 27)),
      signature.r,
      signature.s,
    ],
    gas: AUTHORIZATION_GAS,
  });
}
