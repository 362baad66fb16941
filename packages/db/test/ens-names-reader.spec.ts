import { ChainActivityRepository, type HexString, type IndexedEnsEvent } from '../src/chain-activity-repository';
import { EnsNamesReader } from '../src/ens-names-reader';
import type { Db } from '../src/prisma-client';
import { addr, hash } from './hex-fixtures';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

const ALICE = addr(0xa11ce);
const BOB = addr(0xb0b);
const CAROL = addr(0xca501);
const REGISTRY = addr(0xe45);
const CONTROLLER = addr(0xc0de);
const node = (n: number) => hash(0x10000 + n);

let sequence = 0;
/** One event at `block`, in a transaction of its own unless `tx` is given; log indexes grow as on a chain. */
function event(
  block: number,
  kind: IndexedEnsEvent['kind'],
  nodeId: number,
  owner: HexString,
  name: string | null = null,
  tx = sequence + 1,
): IndexedEnsEvent {
  sequence += 1;
  return {
    txHash: hash(tx),
    logIndex: sequence,
    blockNumber: BigInt(block),
    timestamp: 1_600_000_000 + block * 12,
    kind,
    contract: kind === 'name_registered' ? CONTROLLER : REGISTRY,
    node: node(nodeId),
    name,
    owner,
  };
}

/** A registration as the controller makes it: the registry gives the node to the controller, then to the owner; then NameRegistered. */
function registration(block: number, nodeId: number, owner: HexString, name: string): IndexedEnsEvent[] {
  const tx = sequence + 1;
  return [
    event(block, 'new_owner', nodeId, CONTROLLER, null, tx),
    event(block, 'transfer', nodeId, owner, null, tx),
    event(block, 'name_registered', nodeId, owner, name, tx),
  ];
}

describe('EnsNamesReader.ownedNames', () => {
  let db: Db;
  let repo: ChainActivityRepository;
  let reader: EnsNamesReader;
  const early = [
    ...registration(10, 1, ALICE, 'ada.eth'),
    ...registration(11, 2, ALICE, 'lovelace.eth'),
    ...registration(12, 3, ALICE, 'gift.eth'),
    ...registration(13, 4, BOB, 'bob.eth'),
    // a subnode made in the registry only: no label was ever carried, so no name to show
    event(14, 'new_owner', 5, BOB),
  ];
  const late = [
    // Alice gives gift.eth to Carol; Bob gives bob.eth to Alice and takes it back
    event(21, 'transfer', 3, CAROL),
    event(22, 'transfer', 4, ALICE),
    event(23, 'transfer', 4, BOB),
  ];

  useMigratedDatabase(async (client) => {
    db = client;
    repo = new ChainActivityRepository(db);
    reader = new EnsNamesReader(db);
    await repo.writeRange({ chainId: 1, fromBlock: 10n, toBlock: 19n, transactions: [], logs: [], ensEvents: early });
    await repo.writeRange({ chainId: 1, fromBlock: 20n, toBlock: 29n, transactions: [], logs: [], ensEvents: late });
  });

  it('lists the registered names whose latest owner event names the address, sorted, in one query for many', async () => {
    const owned = await reader.ownedNames(1, [ALICE, BOB, CAROL, addr(0xdead)]);
    expect(Object.fromEntries(owned)).toEqual({
      [ALICE]: ['ada.eth', 'lovelace.eth'],
      [BOB]: ['bob.eth'],
      [CAROL]: ['gift.eth'],
      [addr(0xdead)]: [],
    });
    // any case; another chain has none of it
    expect((await reader.ownedNames(1, [ALICE.toUpperCase().replace('0X', '0x')])).get(ALICE)).toEqual(['ada.eth', 'lovelace.eth']);
    expect((await reader.ownedNames(8453, [ALICE])).get(ALICE)).toEqual([]);
  });

  it('a replayed range adds nothing; a rollback forgets the events after the block', async () => {
    await repo.writeRange({ chainId: 1, fromBlock: 20n, toBlock: 29n, transactions: [], logs: [], ensEvents: late });
    const [row] = await db.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) FROM ens_name_events WHERE chain_id = 1`);
    expect(Number(row!.count)).toBe(early.length + late.length);

    await repo.rollbackTo(1, 20n);
    const owned = await reader.ownedNames(1, [ALICE, CAROL]);
    expect(owned.get(ALICE)).toEqual(['ada.eth', 'gift.eth', 'lovelace.eth']);
    expect(owned.get(CAROL)).toEqual([]);
  });
});
