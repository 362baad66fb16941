import {
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { HeadWatch } from './head-watch';

/** The first look again after a receipt was not there, and the longest wait between looks. */
const FIRST_WAIT_MS = 5;
const LONGEST_WAIT_MS = 250;
/** With a HeadWatch: the waits up to this long (5, 10, 20, 40 ms) need no new head. */
const FAST_LOOKS_MS = 40;
/** Receipts kept once found: more than the settlements in flight on every signer. */
const RECEIPTS_KEPT = 1_000;

export type ReceiptWait = (args: { hash: Hash; timeout?: number }) => Promise<TransactionReceipt>;

/**
 * Receipts the waits of this process found, by transaction hash (the last 1,000). The facilitator's
 * wait after broadcasting a settlement and the settlement's check of its transfer (payment-chain.ts)
 * share one: the check reads the receipt the wait just read from the chain, not the chain again.
 * Only a receipt the chain answered is kept; a hash names one signed transaction on one chain.
 */
export class FoundReceipts {
  private readonly byHash = new Map<string, TransactionReceipt>();

  get(hash: Hash): TransactionReceipt | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  add(hash: Hash, receipt: TransactionReceipt): void {
    if (this.byHash.size >= RECEIPTS_KEPT) this.byHash.delete(this.byHash.keys().next().value as string);
    this.byHash.set(hash.toLowerCase(), receipt);
  }
}

export interface ReceiptWaitOptions {
  /** Receipts found by this process's waits: looked up first, and what this wait finds is added. */
  found?: FoundReceipts;
  /**
   * The transactions waited for were just broadcast: the first look is after 5 ms, not at once. A
   * chain mines after it answers the broadcast (the devnet within a few ms: 95 of 100 looks at once
   * found nothing), so a look at once is a request for nothing.
   */
  justSent?: boolean;
  /**
   * The chain's head, shared by the process's waits (head-watch.ts). With it, a wait past its
   * looks at 5, 15, 35 and 75 ms after the broadcast (on a chain whose blocks come 100 ms apart or
   * more, from the first) looks again only when its timer is up and the head has moved past the
   * one it last missed at: about once a block on a chain with block times, as often as without it
   * on the devnet, whose head moves with every transaction.
   */
  heads?: HeadWatch;
}

/**
 * Waits for a transaction's receipt by asking for it: at once, then after 5, 10, 20, 40, 80 and
 * 160 ms (when `justSent`: first after 5 ms, then 10, 20, … apart), then every 250 ms until
 * `timeout` (a WaitForTransactionReceiptTimeoutError); with `heads`, past 75 ms (or from the first
 * on a chain with block times) each look also waits for a new head. viem's own wait, after a first look again, looks only on
 * its block polls, 250 ms apart: on a chain that mines a block per transaction (the devnet), a
 * receipt not there at those first looks held its signer's queue, and every settlement behind it,
 * for that long. Any other error of the read ends the wait, as viem's does; the settlement then
 * asks the chain before it sends again.
 */
export function receiptWait(
  client: Pick<PublicClient, 'getTransactionReceipt'>,
  defaultTimeoutMs: number,
  options: ReceiptWaitOptions = {},
): ReceiptWait {
  const { found, justSent = false, heads } = options;
  return async ({ hash, timeout }) => {
    const kept = found?.get(hash);
    if (kept !== undefined) return kept;
    const until = Date.now() + (timeout ?? defaultTimeoutMs);
    const look = async (): Promise<TransactionReceipt | undefined> => {
      try {
        const receipt = await client.getTransactionReceipt({ hash });
        found?.add(hash, receipt);
        return receipt;
      } catch (error) {
        if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
        return undefined;
      }
    };
    // the head before the first look: a look is worth making again once the chain is past it
    let missedAt = heads?.latest();
    if (!justSent) {
      const receipt = await look();
      if (receipt !== undefined) return receipt;
    }
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      const left = until - Date.now();
      if (left <= 0) throw new WaitForTransactionReceiptTimeoutError({ hash });
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
      if (heads !== undefined && (heads.slow || wait > FAST_LOOKS_MS)) {
        // and then a head past the one the last look missed at (at once if the chain already moved on)
        const head = await heads.past(missedAt, until);
        if (head === undefined) throw new WaitForTransactionReceiptTimeoutError({ hash });
        missedAt = head;
      } else {
        missedAt = heads?.latest() ?? missedAt;
      }
      const receipt = await look();
      if (receipt !== undefined) return receipt;
    }
  };
}
