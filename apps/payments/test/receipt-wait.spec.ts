import { TransactionReceiptNotFoundError, WaitForTransactionReceiptTimeoutError, type Hash, type TransactionReceipt } from 'viem';
import { HeadWatch } from '../src/domain/head-watch';
import { FoundReceipts, receiptWait } from '../src/domain/receipt-wait';

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

  it('after a broadcast, first looks 5 ms later, then 10 and 20 ms apart', async () => {
    const chain = chainWithReceiptAfter(2);
    const started = Date.now();
    expect(await receiptWait(chain, 5_000, { justSent: true })({ hash: HASH })).toBe(RECEIPT);
    expect(chain.reads).toHaveLength(3);
    const firstAfter = Date.now() - started - chain.reads[2]!;
    expect(firstAfter).toBeGreaterThanOrEqual(4);
    const gaps = chain.reads.slice(1).map((at, i) => at - chain.reads[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
  });

  it("shares what it found: another wait on the same FoundReceipts answers that hash without a read, never another's", async () => {
    const found = new FoundReceipts();
    const sender = chainWithReceiptAfter(1);
    expect(await receiptWait(sender, 5_000, { found, justSent: true })({ hash: HASH })).toBe(RECEIPT);
    const checker = chainWithReceiptAfter(0);
    const check = receiptWait(checker, 5_000, { found });
    expect(await check({ hash: `0x${'AB'.repeat(32)}` as Hash })).toBe(RECEIPT);
    expect(checker.reads).toHaveLength(0);
    const other = `0x${'cd'.repeat(32)}` as Hash;
    expect(await check({ hash: other })).toBe(RECEIPT);
    expect(checker.reads).toHaveLength(1);
  });

  it('keeps nothing from a wait that found no receipt', async () => {
    const found = new FoundReceipts();
    const chain = chainWithReceiptAfter(Number.POSITIVE_INFINITY);
    await expect(receiptWait(chain, 5_000, { found })({ hash: HASH, timeout: 30 })).rejects.toBeInstanceOf(
      WaitForTransactionReceiptTimeoutError,
    );
    expect(found.get(HASH)).toBeUndefined();
    const later = chainWithReceiptAfter(0);
    expect(await receiptWait(later, 5_000, { found })({ hash: HASH })).toBe(RECEIPT);
    expect(later.reads).toHaveLength(1);
  });

  describe("with the chain's head (HeadWatch)", () => {
    /** A chain that mines a block every `blockMs`; the receipt is there from head `landsAt` on. */
    function chainWithBlocks(blockMs: number) {
      const c = {
        head: 100n,
        landsAt: Number.POSITIVE_INFINITY,
        reads: 0,
        getTransactionReceipt: async ({ hash }: { hash: Hash }) => {
          c.reads += 1;
          if (Number(c.head) < c.landsAt) throw new TransactionReceiptNotFoundError({ hash });
          return RECEIPT;
        },
        mining: setInterval(() => (c.head += 1n), blockMs),
      };
      return c;
    }

    /** `test` run on a chain mining every `blockMs`, with a HeadWatch over it; the mining stops after. */
    async function onChainWithBlocks(blockMs: number, test: (c: ReturnType<typeof chainWithBlocks>, heads: HeadWatch) => Promise<void>) {
      const c = chainWithBlocks(blockMs);
      try {
        await test(c, new HeadWatch(async () => c.head));
      } finally {
        clearInterval(c.mining);
      }
    }

    it('on a chain with block times, reads the receipt once a new head, not every 250 ms', () =>
      onChainWithBlocks(400, async (c, heads) => {
        // a first wait teaches the watch the chain's block time
        c.landsAt = Number(c.head) + 2;
        expect(await receiptWait(c, 10_000, { justSent: true, heads })({ hash: HASH })).toBe(RECEIPT);
        expect(heads.slow).toBe(true);
        c.reads = 0;
        c.landsAt = Number(c.head) + 3;
        const started = Date.now();
        expect(await receiptWait(c, 10_000, { justSent: true, heads })({ hash: HASH })).toBe(RECEIPT);
        // three blocks (about 1.2 s): at most a look a head (and one at a head already stale), where
        // looks every 250 ms after the first 155 ms would have made about nine
        expect(Date.now() - started).toBeGreaterThanOrEqual(700);
        expect(c.reads).toBeLessThanOrEqual(4);
      }));

    it('on a chain that mines at once, finds the receipt at its first look 5 ms after the broadcast, as without it', () =>
      onChainWithBlocks(1_000_000, async (c, heads) => {
        c.landsAt = Number(c.head);
        expect(await receiptWait(c, 5_000, { justSent: true, heads })({ hash: HASH })).toBe(RECEIPT);
        expect(c.reads).toBe(1);
      }));

    it('gives up at the timeout while it waits for a head', () =>
      onChainWithBlocks(1_000_000, async (c, heads) => {
        await expect(receiptWait(c, 5_000, { justSent: true, heads })({ hash: HASH, timeout: 300 })).rejects.toBeInstanceOf(
          WaitForTransactionReceiptTimeoutError,
        );
        // the fast looks (5, 15, 35, 75 ms), one at the watch's first head, then none: the head never moved
        expect(c.reads).toBe(5);
      }));
  });
});
