import { createPublicClient, createWalletClient, getAddress, http, keccak256, toHex, type Address } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { artifact } from '@credit/devnet/compile';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import type { AddressActivityRecord } from '@credit/db/chain-activity-repository';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { rpc } from '@credit/devnet/json-rpc';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startIndexer, type RunningIndexer } from '../src/indexer';
import { silentLogger } from '../src/logger';
import { processRange } from '../src/range-processor';
import { createChainClients } from '@credit/chain/clients';
import { Queue } from 'bullmq';
import { DETECT_QUEUE, type DetectJob } from '@credit/webhook-delivery/detect-queue';
import { redisConnection } from '../src/redis-connection';
import { chainTruth, type ChainTruth } from './chain-oracle';
import { obliterateQueues, REDIS_URL, testConfig, waitUntilIndexed } from './indexer-harness';

jest.setTimeout(120_000);

const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;
const ROLES: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'ens_holder', 'empty'];

describe('indexer on the seeded devnet', () => {
  let devnet: Devnet;
  let chainsJson: string;
  /** Per chain: the highest block the indexer may index (head − confirmations). */
  const targets = new Map<number, bigint>();
  const truths = new Map<number, ChainTruth>();
  const databases: TestDatabase[] = [];
  const prefixes: string[] = [];
  const running: RunningIndexer[] = [];
  let uninterrupted: TestDatabase;

  const cast = (role: CastRole): Address => getAddress(devnet.state.cast[role]!.address);
  const scoringChains = () => devnet.chains.filter((c) => c.spec.role === 'scoring');

  async function run(env: Record<string, string>, db: TestDatabase, prefix: string): Promise<RunningIndexer> {
    const indexer = await startIndexer(
      testConfig({ DATABASE_URL: db.url, CHAINS: chainsJson, CONFIRMATIONS: String(CONFIRMATIONS), QUEUE_PREFIX: prefix, ...env }),
      { logger: silentLogger },
    );
    running.push(indexer);
    return indexer;
  }

  async function allActivity(indexer: RunningIndexer): Promise<AddressActivityRecord[]> {
    const rows = await Promise.all([...targets.keys()].map((id) => indexer.repository.chainActivity(id)));
    return rows.flat();
  }

  beforeAll(async () => {
    devnet = await startDevnet(seededDevnetOptions({ seed: 'indexer-test', anchorTimestamp: ANCHOR, populationSize: 20 }));
    // bury the seeded history under the confirmation depth
    for (const c of devnet.chains) {
      await rpc(c.rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
      const head = BigInt((await rpc(c.rpcUrl, 'eth_blockNumber', [])) as string);
      targets.set(c.spec.id, head - BigInt(CONFIRMATIONS));
    }
    chainsJson = JSON.stringify(registryFromDevnetState(devnet.state));
    for (const c of scoringChains()) {
      truths.set(c.spec.id, await chainTruth(c.chain, c.rpcUrl, devnet.contracts[c.spec.id]!, targets.get(c.spec.id)!));
    }
    uninterrupted = await createTestDatabase();
    databases.push(uninterrupted);
  });

  afterAll(async () => {
    await Promise.all(running.map((r) => r.kill().catch(() => undefined)));
    for (const prefix of prefixes) await obliterateQueues(prefix).catch(() => undefined);
    await Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
    await devnet?.stop();
  });

  it('indexes every chain up to head − confirmations and records what the seeding did for the cast', async () => {
    const prefix = uniquePrefix('idx');
    prefixes.push(prefix);
    const indexer = await run({ RANGE_SIZE: '100', CONCURRENCY: '4' }, uninterrupted, prefix);
    await waitUntilIndexed(indexer, targets);
    for (const [chainId, target] of targets) expect((await indexer.repository.checkpoint(chainId))?.indexedTo).toBe(target);

    for (const [chainId, truth] of truths) {
      for (const role of ROLES) {
        const address = cast(role);
        const expected = truth.activity(address);
        const actual = await indexer.repository.activity(chainId, address);
        expect({ role, chainId, activity: actual }).toEqual({
          role,
          chainId,
          activity: expected === null ? null : { chainId, address: address.toLowerCase(), ...expected },
        });
        if (actual !== null) {
          // transactions sent = the account's nonce at the confirmed block
          const nonce = await truth.client.getTransactionCount({ address, blockNumber: truth.confirmed });
          expect(actual.transactionCount).toBe(nonce);
        }
      }
    }

    // the seeding's own story (packages/devnet/src/seed/cast.ts)
    const [ethereum, base] = [1, 8453];
    const healthy = await indexer.repository.activity(ethereum, cast('healthy_borrower'));
    expect(healthy).toMatchObject({ borrow: { count: 13 }, repay: { count: 12 }, liquidation: { count: 0 }, supply: { count: 1 } });
    expect(healthy!.firstTransaction.timestamp.getTime()).toBe((ANCHOR - 4 * 365 * DAY) * 1000);
    expect(await indexer.repository.activity(ethereum, cast('liquidated'))).toMatchObject({
      liquidation: { count: 1, first: new Date((ANCHOR - 600 * DAY + 3600) * 1000) },
      withdraw: { count: 1 },
    });
    const fresh = await indexer.repository.activity(base, cast('new_wallet'));
    expect(fresh).toMatchObject({ transactionCount: 1, transferCount: 0 });
    expect(fresh!.firstTransaction).toEqual(fresh!.lastTransaction);
    expect(fresh!.firstTransaction.timestamp.getTime()).toBe((ANCHOR - 2 * DAY) * 1000);
    expect(await indexer.repository.activityAcrossChains(cast('new_wallet'))).toHaveLength(1);
    expect(
      (await indexer.repository.activityAcrossChains(cast('multichain'))).map((r) => [
        r.chainId,
        r.supply.count,
        r.borrow.count,
        r.repay.count,
      ]),
    ).toEqual([
      [1, 1, 1, 1],
      [8453, 1, 1, 1],
    ]);
    expect(await indexer.repository.activityAcrossChains(cast('empty'))).toEqual([]);

    // generated wallets: every one is there, on its own chain
    for (const member of devnet.state.population as { address: Address; chainId: number }[]) {
      const expected = truths.get(member.chainId)!.activity(member.address);
      expect(await indexer.repository.activity(member.chainId, member.address)).toEqual({
        chainId: member.chainId,
        address: member.address.toLowerCase(),
        ...expected,
      });
    }
    await indexer.close();
  });

  it('a replayed block range changes nothing', async () => {
    const prefix = uniquePrefix('idx');
    prefixes.push(prefix);
    // a running indexer (caught up already) reads the database; the replay goes through the range processor
    const indexer = await run({ RANGE_SIZE: '100', CONCURRENCY: '1' }, uninterrupted, prefix);
    await waitUntilIndexed(indexer, targets);
    const before = await allActivity(indexer);
    const clients = createChainClients(registryFromDevnetState(devnet.state));
    const deps = { clients, repository: indexer.repository, blockConcurrency: 4 };
    for (const [chainId, target] of targets) {
      const middle = target / 2n;
      const end = middle + 37n < target ? middle + 37n : target;
      for (const [from, to] of [
        [middle, end],
        [0n, target],
      ] as const) {
        const result = await processRange(deps, { chainId, fromBlock: String(from), toBlock: String(to) });
        expect(result).toMatchObject({ insertedTransactions: 0, insertedLogs: 0, addresses: 0, indexedTo: target });
      }
    }
    expect(await allActivity(indexer)).toEqual(before);
    await indexer.close();
  });

  it('an indexer killed in the middle of a backfill and restarted ends with the same rows', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const prefix = uniquePrefix('idx');
    prefixes.push(prefix);
    const env = { RANGE_SIZE: '10', CONCURRENCY: '2' };

    const first = await run(env, db, prefix);
    const ethereumTarget = targets.get(1)!;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const cp = await first.repository.checkpoint(1);
      if (cp && cp.indexedTo >= 30n) break;
      if (Date.now() > deadline) throw new Error(`no progress before the kill (chain 1 at ${cp?.indexedTo ?? 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.kill();

    const second = await run(env, db, prefix);
    const resumedFrom = await second.repository.checkpoint(1);
    expect(resumedFrom!.indexedTo).toBeLessThan(ethereumTarget); // the kill really was mid-backfill
    await waitUntilIndexed(second, targets);

    const reference = await run({ RANGE_SIZE: '100', CONCURRENCY: '1' }, uninterrupted, `${prefix}r`);
    prefixes.push(`${prefix}r`);
    expect(await allActivity(second)).toEqual(await allActivity(reference));
    await Promise.all([second.close(), reference.close()]);
  });

  // last: it moves the chain past the head the other tests compare against
  it('follows new blocks as they are confirmed, never indexing past head − confirmations', async () => {
    const prefix = uniquePrefix('idx');
    prefixes.push(prefix);
    const indexer = await run({ RANGE_SIZE: '100', CONCURRENCY: '2' }, uninterrupted, prefix);
    await waitUntilIndexed(indexer, targets);
    const base = devnet.chains.find((c) => c.spec.id === 8453)!;
    const account = privateKeyToAccount(keccak256(toHex('indexer-live-sender')));
    await rpc(base.rpcUrl, 'anvil_setBalance', [account.address, `0x${(10n ** 18n).toString(16)}`]);
    const wallet = createWalletClient({ account, chain: base.chain, transport: http(base.rpcUrl) });
    const reader = createPublicClient({ chain: base.chain, transport: http(base.rpcUrl) });
    const hash = await wallet.sendTransaction({ to: cast('new_wallet'), value: 1n });
    const { blockNumber } = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    // the transaction's block is the head: the follower goes up to head − 2 and stops there
    await waitUntilIndexed(indexer, new Map([[8453, blockNumber - BigInt(CONFIRMATIONS)]]));
    expect((await indexer.repository.checkpoint(8453))!.indexedTo).toBe(blockNumber - BigInt(CONFIRMATIONS));
    expect(await indexer.repository.activity(8453, account.address)).toBeNull();

    await rpc(base.rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
    await waitUntilIndexed(indexer, new Map([[8453, blockNumber]]));
    expect(await indexer.repository.activity(8453, account.address)).toMatchObject({
      transactionCount: 1,
      transferCount: 0,
      firstTransaction: { hash, blockNumber },
      lastTransaction: { hash, blockNumber },
    });
    // its range is queued for score-change detection (webhooks), no price feed having moved in it
    const detections = new Queue<DetectJob>(DETECT_QUEUE, { connection: redisConnection(REDIS_URL), prefix });
    const queued = (await detections.getJobs(['waiting', 'prioritized', 'delayed'])).map((j) => j.data);
    await detections.close();
    expect(queued).toContainEqual(expect.objectContaining({ chainId: 8453, priceFeedUpdated: false }));
    expect(queued.some((d) => d.chainId === 8453 && BigInt(d.fromBlock) <= blockNumber && BigInt(d.toBlock) >= blockNumber)).toBe(true);
    // the recipient's last transaction moved; what it sent did not
    expect(await indexer.repository.activity(8453, cast('new_wallet'))).toMatchObject({
      transactionCount: 1,
      lastTransaction: { hash, blockNumber },
    });

    // a token outside the registry: its Transfer events name a wallet that never did anything
    const rogue = artifact('DevToken');
    const victim = getAddress(privateKeyToAddress(keccak256(toHex('indexer-rogue-victim'))));
    const deployed = await reader.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: rogue.abi, bytecode: rogue.bytecode, args: ['Fake USD', 'FUSD', 18, account.address] }),
      pollingInterval: 50,
    });
    const minted = await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: deployed.contractAddress!,
        abi: rogue.abi,
        functionName: 'mint',
        args: [victim, 10n ** 24n],
      }),
      pollingInterval: 50,
    });
    expect(minted.logs.length).toBeGreaterThan(0); // the fake Transfer is on the chain…
    await rpc(base.rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
    await waitUntilIndexed(indexer, new Map([[8453, minted.blockNumber]]));
    expect(await indexer.repository.activity(8453, victim)).toBeNull(); // …and not in the index
    expect(await indexer.repository.activity(8453, account.address)).toMatchObject({ transactionCount: 3, transferCount: 0 });
    await indexer.close();
  });
});
