import { ChainActivityRepository, type HexString, type IndexedLog, type IndexedTransaction } from '../src/chain-activity-repository';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

const ALICE = addr(0xa11ce);
const BOB = addr(0xb0b);
const CAROL = addr(0xca201);
const ZERO = addr(0);
const POOL = addr(0x9001);
const USDC = addr(0x05dc);
const DAY = 86_400;
/** Block n is n days after the epoch of this history: block 100 is the last indexed, day 100. */
const T0 = 1_700_000_000;
const at = (block: number) => T0 + block * DAY;

const tx = (n: number, block: number, from: HexString, to: HexString, value = 0n): IndexedTransaction => ({
  txHash: hash(n),
  blockNumber: BigInt(block),
  txIndex: 0,
  timestamp: at(block),
  from,
  to,
  value,
});
const log = (
  n: number,
  logIndex: number,
  block: number,
  kind: IndexedLog['kind'],
  party: HexString,
  counterparty: HexString,
  amount: bigint,
): IndexedLog => ({
  txHash: hash(n),
  logIndex,
  blockNumber: BigInt(block),
  txIndex: 0,
  timestamp: at(block),
  kind,
  contract: kind === 'transfer' ? USDC : POOL,
  party,
  counterparty,
  asset: kind === 'transfer' ? null : USDC,
  amount,
});

/** What the model reads of a wallet's history: its balances' movements over the window, its dealings with others. */
describe('ChainActivityReader: balance flows and dealings', () => {
  let repo: ChainActivityRepository;
  useMigratedDatabase(async (client: Db) => {
    repo = new ChainActivityRepository(client);
    await repo.writeRange({
      chainId: 1,
      fromBlock: 1n,
      toBlock: 100n,
      toBlockTimestamp: at(100),
      transactions: [
        tx(1, 10, BOB, ALICE, 5n), // long before the window
        tx(2, 80, BOB, ALICE, 7n),
        tx(3, 85, ALICE, ALICE, 9n), // a self-send: no flow, no dealing
        tx(4, 90, ALICE, CAROL, 2n),
        tx(5, 95, ALICE, POOL),
      ],
      logs: [
        log(2, 0, 80, 'transfer', BOB, ALICE, 1_000n),
        log(3, 0, 85, 'transfer', ALICE, ALICE, 50n), // self-transfer
        log(4, 0, 90, 'transfer', ALICE, CAROL, 300n),
        log(4, 1, 90, 'transfer', CAROL, ALICE, 100n), // netted with the one before: −200 in that transaction
        log(5, 0, 95, 'supply', ALICE, ALICE, 400n),
        log(6, 0, 96, 'transfer', ZERO, ALICE, 1n), // a mint: the zero address is nobody
      ],
    });
  });

  it('reads the window before the last indexed block, self-sends out, netted per transaction, in chain order', async () => {
    const flows = await repo.balanceFlowsOf([1], [ALICE]);
    expect(flows.map((f) => [f.asset, f.amount, Number(f.blockNumber)])).toEqual([
      [USDC, 1_000n, 80],
      [USDC, -200n, 90],
      [USDC, 1n, 96],
      [`collateral:${USDC}`, 400n, 95],
      ['native', 7n, 80],
      ['native', -2n, 90],
    ]);
    expect(flows.every((f) => f.timestamp > at(100) - 31 * DAY)).toBe(true);
  });

  it('bounded by a block, the window ends there', async () => {
    const flows = await repo.balanceFlowsOf([1], [ALICE], new Map([[1, 85n]]));
    expect(flows.every((f) => f.blockNumber <= 85n)).toBe(true);
    expect(flows.map((f) => f.amount)).toEqual([1_000n, 7n]);
  });

  it('counts dealings with other addresses only, the months they fell in and the latest', async () => {
    const [alice] = await repo.interactionsOf([1], [ALICE]);
    const month = (block: number) => new Date(at(block) * 1000).getUTCFullYear() * 12 + new Date(at(block) * 1000).getUTCMonth();
    expect(alice).toEqual({
      chainId: 1,
      address: ALICE,
      sentToOthers: 1, // to the pool; not the self-send, nor the one that moved tokens (its transfers count)
      transfersWithOthers: 4, // Bob's, two with Carol, the mint; not the self-transfer
      counterparties: 3, // Bob, Carol, the pool
      activeMonths: [...new Set([10, 80, 90, 95, 96].map(month))].sort((a, b) => a - b),
      lastAt: at(96),
    });
    expect(await repo.interactionsOf([1], [addr(0xdead)])).toEqual([]);
  });
});
