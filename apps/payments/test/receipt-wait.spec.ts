import { TransactionReceiptNotFoundError, WaitForTransactionReceiptTimeoutError, type Hash, type TransactionReceipt } from 'viem';
import { receiptWait } from '../src/domain/receipt-wait';

const HASH = `0x${'ab'.repeat(32)}` as Hash;
const RECEIPT = { transactionHash: HASH, status: 'success' } as unknown as TransactionReceipt;

/** A chain whose receipt appears after `misses` reads; each read's time (ms since the first). */
function chainWithReceiptAfter(misses: number, error?: Error) {
  const reads: number[] = [];
  let first: number | undefined;
  return {
    reads,
    getTransactionReceipt: async ({ hash }: { hash: Hash }) => {
      first ??= Date.now();
      reads.push(Date.now() - first);
      if (error !== undefined) throw error;
      if (reads.length <= misses) throw new TransactionReceiptNotFoundError({ hash });
      return RECEIPT;
    },
  };
}

describe('receiptWait', () => {
  it('answers a receipt that is there at once, with one read', async () => {
    const chain = chainWithReceiptAfter(0);
    expect(await receiptWait(chain, 5_000)({ hash: HASH })).toBe(RECEIPT);
    expect(chain.reads).toHaveLength(1);
  });

  it('looks again after 5 ms, then waits twice as long each time', async () => {
    const chain = chainWithReceiptAfter(3);
    expect(await receiptWait(chain, 5_000)({ hash: HASH })).toBe(RECEIPT);
    expect(chain.reads).toHaveLength(4);
    const gaps = chain.reads.slice(1).map((at, i) => at - chain.reads[i]!);
    // at least 5, 10 and 20 ms apart (a timer never fires early; never asserted from above)
    expect(gaps[0]).toBeGreaterThanOrEqual(4);
    expect(gaps[1]).toBeGreaterThanOrEqual(9);
    expect(gaps[2]).toBeGreaterThanOrEqual(19);
  });

  it('gives up at the timeout with viem’s timeout error', async () => {
    const chain = chainWithReceiptAfter(Number.POSITIVE_INFINITY);
    await expect(receiptWait(chain, 5_000)({ hash: HASH, timeout: 100 })).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
    expect(chain.reads.length).toBeGreaterThanOrEqual(3);
  });

  it('ends the wait on any other error of the read', async () => {
    const chain = chainWithReceiptAfter(0, new Error('the chain is unreachable'));
    await expect(receiptWait(chain, 5_000)({ hash: HASH })).rejects.toThrow('unreachable');
    expect(chain.reads).toHaveLength(1);
  });
});
