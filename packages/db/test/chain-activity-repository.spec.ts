import {
  ChainActivityRepository,
  type HexString,
  type IndexedLog,
  type IndexedTransaction,
  type RangeData,
} from '../src/chain-activity-repository';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';
import { withClient } from './throwaway-database';

jest.setTimeout(60_000);

const ALICE = addr(0xa11ce);
const BOB = addr(0xb0b);
const TOKEN = addr(0x70c);
const POOL = addr(0x9001);

function tx(n: number, block: number, from: HexString, to: HexString | null): IndexedTransaction {
  // the value it carried: n ether and a wei (the column holds any uint256)
  return {
    txHash: hash(n),
    blockNumber: BigInt(block),
    txIndex: 0,
    timestamp: 1_600_000_000 + block * 12,
    from,
    to,
    value: BigInt(n) * 10n ** 18n + 1n,
  };
}

function log(
  n: number,
  logIndex: number,
  block: number,
  kind: IndexedLog['kind'],
  party: HexString,
  counterparty: HexString | null,
): IndexedLog {
  return {
    txHash: hash(n),
    logIndex,
    blockNumber: BigInt(block),
    txIndex: 0,
    timestamp: 1_600_000_000 + block * 12,
    kind,
    contract: kind === 'transfer' ? TOKEN : POOL,
    party,
    counterparty,
    asset: kind === 'transfer' ? null : TOKEN,
    amount: 10n ** 30n,
  };
}

/** Blocks 10..19: Alice funds Bob, Bob supplies and borrows, Alice sends a token to herself. */
function rangeA(): RangeData {
  return {
    chainId: 1,
    fromBlock: 10n,
    toBlock: 19n,
    transactions: [tx(1, 10, ALICE, BOB), tx(2, 12, BOB, POOL), tx(3, 15, BOB, POOL), tx(4, 18, ALICE, TOKEN)],
    logs: [
      log(2, 0, 12, 'transfer', BOB, POOL),
      log(2, 1, 12, 'supply', BOB, BOB),
      log(3, 2, 15, 'borrow', BOB, BOB),
      log(3, 3, 15, 'transfer', POOL, BOB),
      log(4, 4, 18, 'transfer', ALICE, ALICE),
    ],
  };
}

/** Blocks 20..29: Bob repays. */
function rangeB(): RangeData {
  return {
    chainId: 1,
    fromBlock: 20n,
    toBlock: 29n,
    transactions: [tx(5, 25, BOB, POOL)],
    logs: [log(5, 0, 25, 'transfer', BOB, POOL), log(5, 1, 25, 'repay', BOB, BOB)],
  };
}

describe('ChainActivityRepository', () => {
  let db: Db;
  let repo: ChainActivityRepository;
  const { url } = useMigratedDatabase(async (client) => {
    db = client;
    repo = new ChainActivityRepository(db);
  });

  const snapshot = () =>
    withClient(url, async (client) => {
      const activity = await client.query('SELECT * FROM address_activity ORDER BY chain_id, address');
      const counts = await client.query(
        `SELECT (SELECT count(*) FROM chain_transactions)::int AS txs, (SELECT count(*) FROM chain_logs)::int AS logs`,
      );
      return { activity: activity.rows.map(({ updated_at: _u, ...rest }) => rest), counts: counts.rows[0] };
    });

  it('plans ranges from the start block, bounded by the backlog, and never plans a block twice', async () => {
    const first = await repo.planRanges({ chainId: 1, startBlock: 10n, upTo: 45n, rangeSize: 10, maxPending: 3 });
    expect(first.map((r) => [r.fromBlock, r.toBlock])).toEqual([
      [10n, 19n],
      [20n, 29n],
      [30n, 39n],
    ]);
    const second = await repo.planRanges({ chainId: 1, startBlock: 10n, upTo: 45n, rangeSize: 10, maxPending: 3 });
    expect(second).toEqual([]);
    expect(await repo.checkpoint(1)).toEqual({ chainId: 1, indexedTo: 9n, plannedTo: 39n, indexedToAt: null, confirmations: 0 });
    expect((await repo.pendingRanges(1)).map((r) => r.fromBlock)).toEqual([10n, 20n, 30n]);
  });

  it('writes a range: counts sent transactions, transfers in or out, lending events, first and last transaction', async () => {
    const result = await repo.writeRange(rangeA());
    expect(result).toEqual({ insertedTransactions: 4, insertedLogs: 5, addresses: 4 });

    const bob = await repo.activity(1, BOB.toUpperCase().replace('0X', '0x'));
    expect(bob).toMatchObject({
      transactionCount: 2,
      transferCount: 2,
      firstTransaction: { hash: hash(1), blockNumber: 10n, timestamp: new Date((1_600_000_000 + 10 * 12) * 1000) },
      lastTransaction: { hash: hash(3), blockNumber: 15n },
      supply: { count: 1, first: new Date((1_600_000_000 + 12 * 12) * 1000) },
      borrow: { count: 1 },
      repay: { count: 0, first: null, last: null },
    });
    const alice = await repo.activity(1, ALICE);
    // the self-transfer counts once
    expect(alice).toMatchObject({ transactionCount: 2, transferCount: 1, lastTransaction: { hash: hash(4) } });
  });

  it('a replayed range changes nothing', async () => {
    const before = await snapshot();
    const result = await repo.writeRange(rangeA());
    expect(result).toEqual({ insertedTransactions: 0, insertedLogs: 0, addresses: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('the checkpoint moves only over contiguous completed ranges', async () => {
    expect(await repo.advanceCheckpoint(1)).toBe(19n);
    // range 30..39 completes before 20..29: the checkpoint waits for the gap
    await repo.writeRange({ chainId: 1, fromBlock: 30n, toBlock: 39n, transactions: [], logs: [] });
    expect(await repo.advanceCheckpoint(1)).toBe(19n);
    await repo.writeRange(rangeB());
    expect(await repo.advanceCheckpoint(1)).toBe(39n);
    expect(await repo.pendingRanges(1)).toEqual([]);
    expect(await repo.activity(1, BOB)).toMatchObject({
      transactionCount: 3,
      transferCount: 3,
      repay: { count: 1 },
      lastTransaction: { hash: hash(5) },
    });
  });

  it('concurrent writes of overlapping ranges count every event once', async () => {
    const chainId = 2;
    const all: IndexedTransaction[] = Array.from({ length: 40 }, (_, i) => tx(1000 + i, 100 + i, i % 2 ? ALICE : BOB, i % 3 ? BOB : ALICE));
    const logs: IndexedLog[] = all.map((t, i) => log(1000 + i, i, 100 + i, 'transfer', t.from, t.to));
    const part = (from: number, to: number): RangeData => ({
      chainId,
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
      transactions: all.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
      logs: logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to),
    });
    await Promise.all([part(100, 129), part(110, 139), part(100, 139), part(120, 125)].map((r) => repo.writeRange(r)));
    const rows = await repo.chainActivity(chainId);
    const sent = (who: HexString) => all.filter((t) => t.from === who).length;
    const transfers = (who: HexString) => logs.filter((l) => l.party === who || l.counterparty === who).length;
    expect(rows.map((r) => [r.address, r.transactionCount, r.transferCount])).toEqual(
      [ALICE, BOB].sort().map((a) => [a, sent(a), transfers(a)]),
    );
  });

  it('a write that throws before commit leaves nothing behind', async () => {
    const before = await snapshot();
    const range: RangeData = { chainId: 3, fromBlock: 0n, toBlock: 0n, transactions: [tx(9000, 0, ALICE, BOB)], logs: [] };
    await expect(
      repo.writeRange(range, () => {
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await snapshot()).toEqual(before);
  });

  it('every table the migration creates reads through the Prisma schema (names, types, enum)', async () => {
    const [t] = await db.chainTransaction.findMany({ where: { chainId: 1, txHash: hash(1) } });
    expect(t).toMatchObject({
      chainId: 1,
      txHash: hash(1),
      blockNumber: 10n,
      txIndex: 0,
      blockTimestamp: new Date((1_600_000_000 + 120) * 1000),
      fromAddress: ALICE,
      toAddress: BOB,
    });
    expect(t!.value.toFixed()).toBe('1000000000000000001');
    const [l] = await db.chainLog.findMany({ where: { chainId: 1, txHash: hash(2), logIndex: 1 } });
    expect(l).toMatchObject({ kind: 'supply', contract: POOL, party: BOB, counterparty: BOB, asset: TOKEN, blockNumber: 12n, txIndex: 0 });
    expect(l!.amount.toFixed()).toBe((10n ** 30n).toString());
    expect(await db.indexerRange.findMany({ where: { chainId: 1 }, orderBy: { fromBlock: 'asc' } })).toEqual(
      [10n, 20n, 30n].map((from) => ({
        chainId: 1,
        fromBlock: from,
        toBlock: from + 9n,
        plannedAt: expect.any(Date),
        completedAt: expect.any(Date),
        toBlockHash: null,
        toBlockAt: null,
      })),
    );
    expect(await db.indexerCheckpoint.findUnique({ where: { chainId: 1 } })).toEqual({
      chainId: 1,
      indexedTo: 39n,
      plannedTo: 39n,
      confirmations: 0,
      updatedAt: expect.any(Date),
    });
    expect(await db.addressActivity.count({ where: { chainId: 1 } })).toBe(4);
  });
  it('keeps the hash of the last indexed block, as read', async () => {
    expect(await repo.indexedBlockRefs(1)).toEqual([]); // the ranges so far carried no hash
    await repo.planRanges({ chainId: 1, startBlock: 10n, upTo: 49n, rangeSize: 10, maxPending: 5 });
    await repo.writeRange({ chainId: 1, fromBlock: 40n, toBlock: 49n, toBlockHash: '0xABCD', transactions: [], logs: [] });
    expect(await repo.advanceCheckpoint(1)).toBe(49n);
    expect((await repo.indexedBlockRefs(1))[0]).toEqual({ block: 49n, hash: '0xabcd' });
  });

  it('a chain replaced under its id loses its indexed rows, and only its rows', async () => {
    expect(await repo.ensureChainIdentity(1, '0xAAAA')).toBe('new');
    expect(await repo.ensureChainIdentity(1, '0xaaaa')).toBe('same');
    expect(await repo.ensureChainIdentity(8453, '0xbbbb')).toBe('new');
    await repo.planRanges({ chainId: 8453, startBlock: 10n, upTo: 19n, rangeSize: 10, maxPending: 5 });
    await repo.writeRange({ ...rangeA(), chainId: 8453 });
    const rows = async (chainId: number) => ({
      activity: await db.addressActivity.count({ where: { chainId } }),
      transactions: await db.chainTransaction.count({ where: { chainId } }),
      logs: await db.chainLog.count({ where: { chainId } }),
      ranges: await db.indexerRange.count({ where: { chainId } }),
    });
    const other = await rows(8453);
    expect((await rows(1)).activity).toBeGreaterThan(0);

    expect(await repo.ensureChainIdentity(1, '0xcccc')).toBe('reset');
    expect(await rows(1)).toEqual({ activity: 0, transactions: 0, logs: 0, ranges: 0 });
    expect(await repo.checkpoint(1)).toBeNull();
    expect(await rows(8453)).toEqual(other);
    expect(await repo.ensureChainIdentity(1, '0xcccc')).toBe('same');
  });

  it('gives the planner statistics of every table a range writes', async () => {
    await repo.writeRange({ ...rangeB(), chainId: 10 });
    await repo.analyzeIndexTables();
    const { rows } = await withClient(url, (client) =>
      client.query<{ relname: string; reltuples: number; count: number }>(
        `SELECT c.relname, c.reltuples::int AS reltuples, (xpath('/row/n/text()', query_to_xml('SELECT count(*) AS n FROM ' || c.relname, false, true, '')))[1]::text::int AS count
           FROM pg_class c
          WHERE c.relname IN ('chain_transactions', 'chain_logs', 'address_activity', 'chain_lending_moves', 'chain_price_answers')
          ORDER BY c.relname`,
      ),
    );
    // analyzed: the estimate is the table's own count (reltuples is -1 for a table never analyzed)
    expect(rows.map((r) => [r.relname, r.reltuples])).toEqual(rows.map((r) => [r.relname, r.count]));
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.relname === 'chain_logs')!.count).toBeGreaterThan(0);
  });
});
