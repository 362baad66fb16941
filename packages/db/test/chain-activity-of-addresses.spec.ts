import { ChainActivityRepository, type HexString, type IndexedTransaction } from '../src/chain-activity-repository';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

const ALICE = addr(0xa11ce);
const BOB = addr(0xb0b);
const CAROL = addr(0xca501);
const MIXED = '0x00000000000000000000000000000000000aBcDe' as HexString;
const NOBODY = addr(0xdead);

function tx(n: number, chainBlock: number, from: HexString, to: HexString): IndexedTransaction {
  return { txHash: hash(n), blockNumber: BigInt(chainBlock), txIndex: 0, timestamp: 1_600_000_000 + chainBlock * 12, from, to };
}

describe('ChainActivityRepository.activityOfAddresses', () => {
  let db: Db;
  let repo: ChainActivityRepository;
  useMigratedDatabase(async (client) => {
    db = client;
    repo = new ChainActivityRepository(db);
    // chain 1: Alice → Bob, Carol → the mixed-case address; chain 8453: Bob → Alice
    await repo.writeRange({
      chainId: 1,
      fromBlock: 1n,
      toBlock: 9n,
      transactions: [tx(1, 2, ALICE, BOB), tx(2, 3, CAROL, MIXED.toLowerCase() as HexString)],
      logs: [],
    });
    await repo.writeRange({ chainId: 8453, fromBlock: 1n, toBlock: 9n, transactions: [tx(3, 4, BOB, ALICE)], logs: [] });
  });

  it('returns every chain row of every address asked for, ordered by address then chain, in any case', async () => {
    const rows = await repo.activityOfAddresses([BOB.toUpperCase().replace('0X', '0x'), ALICE, MIXED, NOBODY]);
    expect(rows.map((r) => [r.address, r.chainId])).toEqual([
      [BOB, 1],
      [BOB, 8453],
      [ALICE, 1],
      [ALICE, 8453],
      [MIXED.toLowerCase(), 1],
    ]);
    const aliceOnBase = rows.find((r) => r.address === ALICE && r.chainId === 8453)!;
    expect(aliceOnBase).toMatchObject({ transactionCount: 0, firstTransaction: { hash: hash(3), blockNumber: 4n } });
  });

  it('matches activityAcrossChains for each address, and counts a repeated address once', async () => {
    const rows = await repo.activityOfAddresses([ALICE, ALICE, CAROL]);
    expect(rows).toEqual([...(await repo.activityAcrossChains(ALICE)), ...(await repo.activityAcrossChains(CAROL))]);
  });

  it('answers an empty list, and a list of unknown addresses, with no rows', async () => {
    expect(await repo.activityOfAddresses([])).toEqual([]);
    expect(await repo.activityOfAddresses([NOBODY])).toEqual([]);
  });
});
