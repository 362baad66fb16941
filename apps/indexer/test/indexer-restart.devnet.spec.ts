import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, type Address } from 'viem';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { rpc } from '@credit/devnet/json-rpc';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import type { ReconcileOptions } from '../src/chain-reconciler';
import { startIndexer, type RunningIndexer } from '../src/indexer';
import { silentLogger } from '../src/logger';
import { chainTruth } from './chain-oracle';
import { obliterateQueues, testConfig, waitUntilIndexed } from './indexer-harness';

jest.setTimeout(180_000);

const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;
const SCORING = [1, 8453];
/** An address that only the lost blocks ever touched. */
const LOST: Address = getAddress('0x000000000000000000000000000000000000105e');

/**
 * The indexer's second day: its chains (a saved devnet world) are stopped and started again.
 * When the chain still has what was indexed, the indexer resumes from its checkpoint; when the
 * chain lost its last blocks (a devnet stopped before it saved them), only what was indexed after
 * the fork is rolled back; a node that errs at start deletes nothing.
 */
describe('the indexer across restarts of its chains', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'indexer-restart-'));
  const options = { ...seededDevnetOptions({ seed: 'indexer-restart', anchorTimestamp: ANCHOR, populationSize: 6 }), stateDir };
  const prefix = uniquePrefix('irs');
  let database: TestDatabase;
  let devnet: Devnet | undefined;
  let indexer: RunningIndexer | undefined;
  const servers: Server[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await indexer?.kill().catch(() => undefined);
    await obliterateQueues(prefix).catch(() => undefined);
    await devnet?.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await database?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function startChains(): Promise<ChainRegistry> {
    devnet = await startDevnet(options);
    return registryFromDevnetState(devnet.state, { chainIds: SCORING });
  }

  async function targets(): Promise<Map<number, bigint>> {
    const found = new Map<number, bigint>();
    for (const c of devnet!.chains.filter((x) => SCORING.includes(x.spec.id))) {
      found.set(c.spec.id, BigInt(await rpc<string>(c.rpcUrl, 'eth_blockNumber', [])) - BigInt(CONFIRMATIONS));
    }
    return found;
  }

  async function runIndexer(registry: ChainRegistry, reconcile?: ReconcileOptions): Promise<RunningIndexer> {
    indexer = await startIndexer(
      testConfig({
        DATABASE_URL: database.url,
        CHAINS: JSON.stringify(registry),
        CONFIRMATIONS: String(CONFIRMATIONS),
        RANGE_SIZE: '20',
        QUEUE_PREFIX: prefix,
      }),
      { logger: silentLogger, ...(reconcile ? { reconcile } : {}) },
    );
    return indexer;
  }

  async function stopIndexer(): Promise<void> {
    await indexer!.close();
    indexer = undefined;
  }

  /** Every row the indexer holds equals what a straight scan of the chain finds. */
  async function expectChainTruth(running: RunningIndexer, upTo: Map<number, bigint>): Promise<void> {
    for (const c of devnet!.chains.filter((x) => upTo.has(x.spec.id))) {
      const truth = await chainTruth(c.chain, c.rpcUrl, devnet!.contracts[c.spec.id]!, upTo.get(c.spec.id)!);
      const rows = await running.repository.chainActivity(c.spec.id);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).toEqual({ chainId: c.spec.id, address: row.address, ...truth.activity(getAddress(row.address))! });
      }
      expect(await running.repository.activity(c.spec.id, LOST)).toEqual(
        truth.activity(LOST) === null ? null : { chainId: c.spec.id, address: LOST.toLowerCase(), ...truth.activity(LOST)! },
      );
    }
  }

  const rangeRows = (running: RunningIndexer, chainId: number) =>
    running.repository.indexedBlockRefs(chainId).then((refs) => refs.map((r) => `${r.block}:${r.hash}`));

  it('resumes from its checkpoint when the restarted chain still has what it indexed', async () => {
    let registry = await startChains();
    const first = await runIndexer(registry);
    const before = await targets();
    await waitUntilIndexed(first, before);
    const ranges = await rangeRows(first, 1);
    await stopIndexer();
    await devnet!.save();
    await devnet!.stop();

    registry = await startChains(); // the saved world again: new ports, the start's heartbeat mines on
    expect(devnet!.reused).toBe(true);
    const second = await runIndexer(registry);
    expect(Object.fromEntries(second.reconciliations)).toEqual({ 1: { outcome: 'resumed' }, 8453: { outcome: 'resumed' } });
    expect((await rangeRows(second, 1)).slice(-ranges.length)).toEqual(ranges); // nothing indexed was thrown away
    const after = await targets();
    for (const id of SCORING) expect(after.get(id)!).toBeGreaterThan(before.get(id)!);
    await waitUntilIndexed(second, after);
    await expectChainTruth(second, after);
  });

  it('rolls back only what it indexed after the fork when the chain lost its last blocks', async () => {
    await devnet!.save(); // the last save: what follows is lost
    const ethereum = devnet!.chains.find((c) => c.spec.id === 1)!;
    const [sender] = await rpc<Address[]>(ethereum.rpcUrl, 'eth_accounts', []);
    const healthy = devnet!.state.cast.healthy_borrower!.address;
    for (const to of [LOST, healthy, LOST]) {
      await rpc(ethereum.rpcUrl, 'eth_sendTransaction', [{ from: sender, to, value: '0x1' }]);
      await rpc(ethereum.rpcUrl, 'anvil_mine', ['0x8']);
    }
    const lostTargets = await targets();
    await waitUntilIndexed(indexer!, lostTargets);
    expect(await indexer!.repository.activity(1, LOST)).toMatchObject({ transactionCount: 0 });
    const indexedTo = (await indexer!.repository.checkpoint(1))!.indexedTo;
    await stopIndexer();
    await devnet!.stop(); // no save: as a Ctrl-C that reached the chains first

    const registry = await startChains();
    const resumed = await runIndexer(registry);
    const found = resumed.reconciliations.get(1)!;
    expect(found).toMatchObject({ outcome: 'rolled_back', indexedBlock: indexedTo, deletedTransactions: expect.any(Number) });
    if (found.outcome !== 'rolled_back') throw new Error('unreachable');
    expect(found.forkBlock).toBeGreaterThan(0n); // years of history kept…
    expect(found.forkBlock).toBeLessThan(indexedTo); // …and the lost blocks rolled back
    expect(found.deletedTransactions).toBeGreaterThanOrEqual(3);
    expect(resumed.reconciliations.get(8453)).toEqual({ outcome: 'resumed' });
    const now = await targets();
    await waitUntilIndexed(resumed, now);
    await expectChainTruth(resumed, now);
    expect(await resumed.repository.activity(1, LOST)).toBeNull();
    await stopIndexer();
  });

  it('a node that errs or refuses at start fails the start and deletes nothing', async () => {
    const registry = registryFromDevnetState(devnet!.state, { chainIds: SCORING });
    const probe = await runIndexer(registry);
    const rowsBefore = await Promise.all(SCORING.map((id) => probe.repository.chainActivity(id)));
    const checkpointsBefore = await probe.repository.checkpoints(SCORING);
    await stopIndexer();

    // 429 to everything, then a node that closes every connection
    const throttling = await listen((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'rate limited' } }));
    });
    const hangingUp = await listen((req) => req.socket.destroy());
    for (const url of [throttling, hangingUp]) {
      const broken = registry.map((c) => (c.id === 1 ? { ...c, rpcUrl: url } : c));
      await expect(runIndexer(broken, { attempts: 2, retryDelayMs: 20 })).rejects.toThrow(
        /could not read block 0 of chain 1 after 2 attempts.*nothing was deleted/,
      );
      indexer = undefined;
    }

    // a node that fails a while and then answers: the start waits it out and resumes
    let failures = 0;
    const ethereum = devnet!.chains.find((c) => c.spec.id === 1)!;
    const flaky = await listen((req, res) => {
      if (failures++ < 4) {
        res.writeHead(503).end('busy');
        return;
      }
      proxy(ethereum.rpcUrl, req, res);
    });
    const recovered = await runIndexer(
      registry.map((c) => (c.id === 1 ? { ...c, rpcUrl: flaky } : c)),
      { attempts: 5, retryDelayMs: 20 },
    );
    expect(recovered.reconciliations.get(1)).toEqual({ outcome: 'resumed' });
    expect(await Promise.all(SCORING.map((id) => recovered.repository.chainActivity(id)))).toEqual(rowsBefore);
    const checkpointsAfter = await recovered.repository.checkpoints(SCORING);
    for (const id of SCORING) expect(checkpointsAfter.get(id)!.indexedTo).toBeGreaterThanOrEqual(checkpointsBefore.get(id)!.indexedTo);
  });

  async function listen(
    handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
  ): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});

function proxy(target: string, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
      .then(async (upstream) => res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text()))
      .catch(() => res.writeHead(502).end());
  });
}
