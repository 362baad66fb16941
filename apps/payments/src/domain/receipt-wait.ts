import {
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';

/** The first look again after a receipt was not there, and the longest wait between looks. */
const FIRST_WAIT_MS = 5;
const LONGEST_WAIT_MS = 250;

export type ReceiptWait = (args: { hash: Hash; timeout?: number }) => Promise<TransactionReceipt>;

/**
 * Waits for a transaction's receipt by asking for it: at once, then after 5, 10, 20, 40, 80 and 160 ms,
 * then every 250 ms until `timeout` (a WaitForTransactionReceiptTimeoutError). viem's own wait,
 * after a first look again, looks only on its block polls, 250 ms apart: on a chain that mines a
 * block per transaction (the devnet), a receipt not there at those first looks held its signer's
 * queue, and every settlement behind it, for that long. A lone request waits for the first look
 * again: it is 5 ms, since the devnet mines within a few. Any other error of the
 * read ends the wait, as viem's does; the settlement then asks the chain before it sends again.
 */
export function receiptWait(client: Pick<PublicClient, 'getTransactionReceipt'>, defaultTimeoutMs: number): ReceiptWait {
  return async ({ hash, timeout }) => {
    const until = Date.now() + (timeout ?? defaultTimeoutMs);
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      try {
        return await client.getTransactionReceipt({ hash });
      } catch (error) {
        if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      }
      const left = until - Date.now();
      if (left <= 0) throw new WaitForTransactionReceiptTimeoutError({ hash });
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  };
}
