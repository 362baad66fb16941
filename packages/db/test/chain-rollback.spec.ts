import { ChainActivityRepository, type IndexedLog, type IndexedTransaction, type RangeData } from '../src/chain-activity-repository';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

const PEOPLE = [addr(0xa11ce), addr(0xb0b), addr(0xca201), addr(0xd0d)];
const TOKEN = addr(0x70c);
const POOL = addr(0x9001);
const FEED = addr(0xfeed);
const T0 = 1_600_000_000;
const KINDS: IndexedLog['kind'][] = ['transfer', 'supply', 'borrow', 'repay', 'withdraw', 'liquidation', 'transfer'];

/**
 * A deterministic history over blocks 1..60: every block has two transactions between the people
 * (self-sends included) and three events of every kind, so each aggregate column is exercised.
 */
function history(): { txs: IndexedTransaction[]; logs: IndexedLog[] } {
  const txs: IndexedTransaction[] = [];
  const logs: IndexedLog[] = [];
  let n = 1;
  for (let block = 1; block <= 60; block += 1) {
    for (let i = 0; i < 2; i += 1) {
      const from = PEOPLE[(block + i) % 4]!;
      const to = i === 1 && block % 5 === 0 ? from : PEOPLE[(block * 3 + i) % 4]!;
      const txHash = hash(n++);
      txs.push({
        txHash,
        blockNumber: BigInt(block),
        txIndex: i,
        timestamp: T0 + block * 3600,
        from,
        to: block % 7 === 0 && i === 0 ? null : to,
      });
      for (let j = 0; j < 3; j += 1) {
        const kind = KINDS[(block + i + j) % KINDS.length]!;
        const party = PEOPLE[(block + j) % 4]!;
        logs.push({
          txHash,
          logIndex: j,
          blockNumber: BigInt(block),
          txIndex: i,
          timestamp: T0 + block * 3600,
          kind,
          contract: kind === 'transfer' ? TOKEN : POOL,
          party,
          counterparty: j === 2 ? party : PEOPLE[(block + j + 1) % 4]!,
          asset: kind === 'transfer' ? null : TOKEN,
          amount: BigInt(block * 1000 + j),
        });
      }
    }
  }
  return { txs, logs };
}

function range(chainId: number, from: number, to: number, all = history()): RangeData {
  const inRange = (b: bigint) => b >= BigInt(from) && b <= BigInt(to);
  return {
    chainId,
    fromBlock: BigInt(from),
    toBlock: BigInt(to),
    toBlockHash: hash(chainId * 1_000_000 + to),
    toBlockTimestamp: T0 + to * 3600,
    transactions: all.txs.filter((t) => inRange(t.blockNumber)),
    logs: all.logs.filter((l) => inRange(l.blockNumber)),
    // the market history written with the range: a feed's answer and one lending move per block's lending log
    priceAnswers: all.txs
      .filter((t) => inRange(t.blockNumber) && t.txIndex === 0)
      .map((t) => ({
        txHash: t.txHash,
        logIndex: 9,
        blockNumber: t.blockNumber,
        timestamp: t.timestamp,
        feed: FEED,
        roundId: t.blockNumber,
        answer: t.blockNumber * 100n,
        updatedAt: t.timestamp,
      })),
    lendingMoves: all.logs
      .filter((l) => inRange(l.blockNumber) && l.kind !== 'transfer')
      .map((l) => ({
        txHash: l.txHash,
        logIndex: l.logIndex,
        blockNumber: l.blockNumber,
        txIndex: l.txIndex,
        timestamp: l.timestamp,
        pool: POOL,
        account: l.party,
        asset: TOKEN,
        supplied: l.kind === 'supply' ? l.amount : 0n,
        borrowed: l.kind === 'borrow' ? l.amount : 0n,
      })),
  };
}

describe('rolling a chain back to a block', () => {
  let db: Db;
  let repo: ChainActivityRepository;
  useMigratedDatabase(async (client) => {
    db = client;
    repo = new ChainActivityRepository(db);
  });

  async function index(chainId: number, upTo: number): Promise<void> {
    const planned = await repo.planRanges({
      chainId,
      startBlock: 1n,
      upTo: BigInt(upTo),
      rangeSize: 10,
      maxPending: 100,
      confirmations: 2,
    });
    for (const r of planned) await repo.writeRange(range(chainId, Number(r.fromBlock), Number(r.toBlock)));
    await repo.advanceCheckpoint(chainId);
  }
  const activityOf = async (chainId: number) => (await repo.chainActivity(chainId)).map(({ chainId: _c, ...rest }) => rest);
  const counts = async (chainId: number) => ({
    transactions: await db.chainTransaction.count({ where: { chainId } }),
    logs: await db.chainLog.count({ where: { chainId } }),
    priceAnswers: await db.chainPriceAnswer.count({ where: { chainId } }),
    lendingMoves: await db.chainLendingMove.count({ where: { chainId } }),
  });

  it('ends with exactly the rows of an index that never saw the blocks after it', async () => {
    await index(1, 60); // the whole history, then forget blocks 31..60
    await index(2, 30); // only what is left
    const result = await repo.rollbackTo(1, 30n);

    expect(result).toMatchObject({ indexedTo: 30n, deletedTransactions: 60, deletedLogs: 180 });
    expect(result.addresses).toBe(PEOPLE.length);
    expect(await activityOf(1)).toEqual(await activityOf(2));
    expect(await counts(1)).toEqual(await counts(2));
    expect(await repo.checkpoint(1)).toEqual({ ...(await repo.checkpoint(2))!, chainId: 1 });
    expect(await repo.pendingRanges(1)).toEqual([]);
  });

  it('then indexes the blocks after it again, as if nothing had happened', async () => {
    const planned = await repo.planRanges({ chainId: 1, startBlock: 1n, upTo: 60n, rangeSize: 10, maxPending: 100, confirmations: 2 });
    expect(planned.map((r) => r.fromBlock)).toEqual([31n, 41n, 51n]);
    for (const r of planned) await repo.writeRange(range(1, Number(r.fromBlock), Number(r.toBlock)));
    expect(await repo.advanceCheckpoint(1)).toBe(60n);

    await index(3, 60);
    expect(await activityOf(1)).toEqual(await activityOf(3));
  });

  it('an address whose every row is rolled back loses its activity row', async () => {
    const late = addr(0x1a7e);
    await repo.planRanges({ chainId: 1, startBlock: 1n, upTo: 70n, rangeSize: 10, maxPending: 100 });
    await repo.writeRange({
      ...range(1, 61, 70),
      transactions: [{ txHash: hash(9_999), blockNumber: 65n, txIndex: 0, timestamp: T0, from: late, to: PEOPLE[0]! }],
      logs: [],
    });
    await repo.advanceCheckpoint(1);
    expect(await repo.activity(1, late)).not.toBeNull();

    await repo.rollbackTo(1, 60n);
    expect(await repo.activity(1, late)).toBeNull();
    expect(await activityOf(1)).toEqual(await activityOf(3));
  });

  it('lists the indexed blocks a restart checks, newest first, with the last block’s time in the checkpoint', async () => {
    const refs = await repo.indexedBlockRefs(1);
    expect(refs.map((r) => r.block)).toEqual([60n, 50n, 40n, 30n, 20n, 10n]);
    expect(refs[0]!.hash).toBe(hash(1_000_060));
    expect(await repo.checkpoint(1)).toEqual({
      chainId: 1,
      indexedTo: 60n,
      plannedTo: 60n,
      indexedToAt: new Date((T0 + 60 * 3600) * 1000),
      confirmations: 0,
    });
  });
});
