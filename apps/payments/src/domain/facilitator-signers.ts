import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { X402Network } from '@credit/x402/x402-settings';
import type { Facilitator } from './facilitator';
import { httpFacilitator } from './http-facilitator';
import { selfHostedFacilitator } from './self-hosted-facilitator';
import type { CodeReader } from './recent-code';
import type { HeadWatch } from './head-watch';
import type { FoundReceipts } from './receipt-wait';
import type { SendLocks } from './signer-send-lock';

/** A facilitator that settles with one signer; `name` names its queue (its address, or `external`). */
export interface FacilitatorSigner {
  name: string;
  facilitator: Facilitator;
}

export interface FacilitatorSignersOptions {
  /** An external facilitator: one queue, its own signers behind it. */
  url?: string;
  /** The self-hosted facilitator's keys (checked at boot: distinct, valid). */
  keys: readonly Hex[];
  rpcTimeoutMs: number;
  confirmationTimeoutMs: number;
  /** The receipts the signers' waits find, shared with the settlements' checks. */
  receipts?: FoundReceipts;
  /** Each signer's lock on each chain, shared by every replica (its sends in nonce order). */
  sendLocks?: SendLocks;
}

/** The facilitators that settle, one per signer key (or the external one), each named by its signer's address. */
export function facilitatorSigners(networks: readonly X402Network[], options: FacilitatorSignersOptions): FacilitatorSigner[] {
  if (options.url !== undefined) return [{ name: 'external', facilitator: httpFacilitator(options.url) }];
  // a payment is verified by the first signer's facilitator and settled by its own signer's: both read the payer's code once
  const codes = new Map<string, CodeReader>();
  // every signer's receipt waits on a chain read its head once a poll
  const heads = new Map<string, HeadWatch>();
  return options.keys.map((privateKey) => ({
    name: privateKeyToAccount(privateKey).address.toLowerCase(),
    facilitator: selfHostedFacilitator(networks, {
      privateKey,
      rpcTimeoutMs: options.rpcTimeoutMs,
      confirmationTimeoutMs: options.confirmationTimeoutMs,
      codes,
      heads,
      ...(options.receipts !== undefined ? { receipts: options.receipts } : {}),
      ...(options.sendLocks !== undefined ? { sendLocks: options.sendLocks } : {}),
    }),
  }));
}
