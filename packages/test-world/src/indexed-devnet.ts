import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { startDevnet, type Devnet, type StartDevnetOptions } from '@credit/devnet/devnet';
import { rpc } from '@credit/devnet/json-rpc';
import { indexerConfig } from '@credit/indexer/config';
import { startIndexer, type RunningIndexer } from '@credit/indexer/indexer';

/** The indexer as the harness runs it (in-process). */
export type { RunningIndexer };
import { silentLogger } from '@credit/indexer/logger';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from './redis-cleanup';

/** Polls the indexer's checkpoints until every chain is indexed up to its target block. */
export async function waitUntilIndexed(indexer: RunningIndexer, targets: ReadonlyMap<number, bigint>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await Promise.all(
      [...targets].map(async ([chainId, target]) => ({ chainId, target, cp: await indexer.repository.checkpoint(chainId) })),
    );
    if (status.every((s) => s.cp !== null && s.cp.indexedTo >= s.target)) return;
    if (Date.now() > deadline)
      throw new Error(
        `not caught up: ${status.map((s) => `chain ${s.chainId} at ${s.cp?.indexedTo ?? 'none'} of ${s.target}`).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Mines `confirmations` blocks on each scoring chain, so that everything seeded is final, and
 * returns the block each chain must then be indexed to (head − confirmations).
 */
export async function finaliseScoringChains(devnet: Devnet, confirmations: number): Promise<Map<number, bigint>> {
  const targets = new Map<number, bigint>();
  for (const c of devnet.chains.filter((x) => x.spec.role === 'scoring')) {
    await rpc(c.rpcUrl, 'anvil_mine', [`0x${confirmations.toString(16)}`]);
    targets.set(c.spec.id, BigInt(await rpc<string>(c.rpcUrl, 'eth_blockNumber', [])) - BigInt(confirmations));
  }
  return targets;
}

/**
 * The real indexer over `registry` into `databaseUrl`, under a BullMQ prefix of its own.
 * `confirmations` is the indexer's CONFIRMATIONS setting (a number, or per chain `id=n,id=n`).
 * `close` also removes the queues' Redis keys.
 */
export async function startDevnetIndexer(options: {
  registry: ChainRegistry;
  databaseUrl: string;
  redisUrl: string;
  confirmations: string;
  /** More indexer settings (RANGE_SIZE, CONCURRENCY…). */
  env?: Record<string, string>;
}): Promise<{ indexer: RunningIndexer; queuePrefix: string; close(): Promise<void> }> {
  const prefix = uniquePrefix('indexed');
  const indexer = await startIndexer(
    indexerConfig({
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      HEALTH_PORT: '0',
      POLL_INTERVAL_MS: '200',
      CHAINS: JSON.stringify(options.registry),
      CONFIRMATIONS: options.confirmations,
      QUEUE_PREFIX: prefix,
      ...options.env,
    }),
    { logger: silentLogger },
  );
  return {
    indexer,
    queuePrefix: prefix,
    close: async () => {
      await indexer.close().catch(() => undefined);
      await deleteKeysWithPrefix(options.redisUrl, prefix).catch(() => undefined);
    },
  };
}

export interface IndexedDevnet {
  devnet: Devnet;
  /** The scoring chains (the payment chain left out), as CHAINS for the apps. */
  registry: ChainRegistry;
  indexer: RunningIndexer;
  /** The indexer's BullMQ prefix (its QUEUE_PREFIX): the score-change detection queue is under it. */
  queuePrefix: string;
  close(): Promise<void>;
}

/**
 * A devnet whose scoring chains the real indexer has caught up with (tests, benches): starts the
 * devnet, finalises the seeded history, starts the indexer into `databaseUrl` (migrated by the
 * caller) and waits until every scoring chain is indexed to the head.
 */
export async function startIndexedDevnet(options: {
  /** The devnet's options, or a start of its own (`startReferenceDevnet`). */
  devnet: StartDevnetOptions | (() => Promise<Devnet>);
  databaseUrl: string;
  redisUrl: string;
  confirmations?: number;
  timeoutMs?: number;
}): Promise<IndexedDevnet> {
  const confirmations = options.confirmations ?? 2;
  const devnet = typeof options.devnet === 'function' ? await options.devnet() : await startDevnet(options.devnet);
  let running: { indexer: RunningIndexer; queuePrefix: string; close(): Promise<void> } | undefined;
  const close = async () => {
    await running?.close();
    await devnet.stop().catch(() => undefined);
  };
  try {
    const targets = await finaliseScoringChains(devnet, confirmations);
    const registry = registryFromDevnetState(devnet.state, { chainIds: [...targets.keys()] });
    running = await startDevnetIndexer({
      registry,
      databaseUrl: options.databaseUrl,
      redisUrl: options.redisUrl,
      confirmations: String(confirmations),
    });
    await waitUntilIndexed(running.indexer, targets, options.timeoutMs ?? 5 * 60_000);
    return { devnet, registry, indexer: running.indexer, queuePrefix: running.queuePrefix, close };
  } catch (error) {
    await close();
    throw error;
  }
}
