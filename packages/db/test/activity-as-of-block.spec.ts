import { ChainActivityRepository, type HexString, type IndexedLog, type IndexedTransaction } from '../src/chain-activity-repository';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

const ALICE = addr(0xa11ce);
const BOB = addr(0xb0b);
const POOL = addr(0x9001);
const DAI = addr(0xda1);

const at = (block: number) => 1_600_000_000 + block * 12;
const tx = (n: number, block: number, from: HexString, to: HexString): IndexedTransaction => ({
  txHash: hash(n),
  blockNumber: BigInt(block),
  txIndex: 0,
  timestamp: at(block),
  from,
  to,
});
const lending = (n: number, block: number, kind: IndexedLog['kind'], party: HexString, amount: bigint): IndexedLog => ({
  txHash: hash(n),
  logIndex: 0,
  blockNumber: BigInt(block),
  txIndex: 0,
  timestamp: at(block),
  kind,
  contract: POOL,
  party,
  counterparty: party,
  asset: DAI,
  amount,
});

/** The index read as of a past block (the monotonicity replay, the model card): the rollback's aggregation, bounded. */
describe('ChainActivityReader as of a block', () => {
  let repo: ChainActivityRepository;
  useMigratedDatabase(async (client: Db) => {
    repo = new ChainActivityRepository(client);
    await repo.writeRange({
      chainId: 1,
      fromBlock: 1n,
      toBlock: 20n,
      transactions: [tx(1, 2, ALICE, POOL), tx(2, 5, ALICE, POOL), tx(3, 9, BOB, ALICE), tx(4, 12, ALICE, POOL)],
      logs: [lending(1, 2, 'borrow', ALICE, 100n), lending(2, 5, 'repay', ALICE, 60n), lending(4, 12, 'liquidation', ALICE, 40n)],
    });
  });

  it('at the last block it equals the incremental index, row for row', async () => {
    expect(await repo.activityAsOfBlock(1, [ALICE, BOB], 20n)).toEqual(
      [...(await repo.activityOfAddresses([ALICE, BOB]))].sort((a, b) => a.address.localeCompare(b.address)),
    );
  });

  it('at an earlier block it leaves out what came later', async () => {
    const [alice] = await repo.activityAsOfBlock(1, [ALICE], 5n);
    expect(alice).toMatchObject({ transactionCount: 2, borrow: { count: 1 }, repay: { count: 1 }, liquidation: { count: 0 } });
    expect(alice!.lastTransaction.blockNumber).toBe(5n);
    expect(await repo.activityAsOfBlock(1, [BOB], 8n)).toEqual([]);
  });

  it('lending events in chain order, bounded per chain', async () => {
    const all = await repo.lendingEventsOf([1], [ALICE.toUpperCase().replace('0X', '0x')]);
    expect(all.map((e) => [e.kind, e.amount, e.blockNumber])).toEqual([
      ['borrow', 100n, 2n],
      ['repay', 60n, 5n],
      ['liquidation', 40n, 12n],
    ]);
    expect(all[0]).toMatchObject({ chainId: 1, address: ALICE, asset: DAI, timestamp: at(2) });
    expect((await repo.lendingEventsOf([1], [ALICE], new Map([[1, 11n]]))).map((e) => e.kind)).toEqual(['borrow', 'repay']);
    expect(await repo.lendingEventsOf([8453], [ALICE])).toEqual([]);
    expect(await repo.lendingEventsOf([1], [])).toEqual([]);
  });
});
