import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Chain } from 'viem';
import { DEFAULT_MNEMONIC, startAnvil, type AnvilInstance } from './anvil';
import { DEFAULT_CHAINS, devnetChain, viemChainContracts, type DevnetChainSpec } from './chains';
import { loadArtifacts } from './compile';
import { deployerAccount, deployWorld, type ChainContracts } from './deploy';
import { saveAnvilState } from './dump-state';
import { refreshFeeds } from './feed-heartbeat';
import { startMiningWatchdog, type MiningWatchdog } from './mining-watchdog';
import { fundFacilitators, fundPaymentAccounts, paymentAccounts, paymentsState } from './payments';
import { readStateFile, stateFilePath, writeStateFile, type DevnetState, type ScoringCast } from './state-file';
import { defaultWorldSpec } from './world-spec';
import { rpc } from './json-rpc';

/**
 * Bump when deploy.ts changes what it deploys (or the seeding, or the payment chain's funding, what
 * it writes), so saved worlds are rebuilt. 4: the payment chain's payer and facilitator are funded. 5: a borrower's
 * entry keeps its ceiling's input (`outcome.ceilingWallet`). 6: a scarred borrower's loan is kept
 * clear of the cast's ETH dip.
 */
export const WORLD_RECIPE_VERSION = 6;

export interface DevnetChainOptions extends DevnetChainSpec {
  /** Fixed RPC port; 0 or omitted = a free port. */
  port?: number;
}

export interface StartDevnetOptions {
  chains?: readonly DevnetChainOptions[];
  /**
   * Where `state.json` and each chain's saved state (`anvil-<id>.json`) live. Omitted: an
   * ephemeral world (nothing read or written). `defaultStateDir()` is `.devnet/` at the repository root.
   */
  stateDir?: string;
  /** Deploy afresh even when a saved world matches. */
  fresh?: boolean;
  mnemonic?: string;
  /** Genesis timestamp (seconds) of every chain: seeding may only move time forward from here. */
  genesisTimestamp?: number;
  /** Identifies what `seed` writes (seed, anchor…): part of the saved world's hash. */
  worldKey?: string;
  /**
   * Where the scoring chains' clock stands after a start (seconds), cold or warm. Omitted: the wall clock
   * (blocks mined afterwards carry today's time). Set: a world whose "now" is fixed, e.g. its
   * anchor, so that everything measured back from the head (ages, recency, a score) is the same on
   * any day (the reference world of docs/MODEL.md). Either way the clock never goes back: a head
   * later than this moment (a reloaded world that ran on) continues from the head. The payment
   * chain ignores it: its clock is always the wall clock (x402 clients date their authorizations
   * by the wall clock).
   */
  clockAt?: number;
  /** Re-answer every price feed at the current time after start (default true; see feed-heartbeat.ts). */
  heartbeat?: boolean;
  /**
   * More flags for every chain's anvil, e.g. the scale world's cap on the past blocks' states anvil
   * keeps on disk while seeding (seed/scale-world.ts); they take the place of the payment chain's
   * own (PAYMENT_CHAIN_ARGS). Not part of the world's key: they change how anvil runs, not what the
   * world holds.
   */
  anvilArgs?: readonly string[];
  /**
   * Runs after deployment on a cold start, on the scoring chains; returns the cast and the
   * population for state.json (the cast's `payer` is added by the devnet itself).
   */
  seed?: (world: DevnetWorld) => Promise<{ cast: ScoringCast } & Pick<DevnetState, 'population' | 'populationWorld'>>;
}

export interface DevnetChainHandle {
  spec: DevnetChainSpec;
  anvil: AnvilInstance;
  rpcUrl: string;
  /** A viem chain pointing at the devnet RPC, with multicall3 (and ENS where deployed). */
  chain: Chain;
}

export interface DevnetWorld {
  chains: DevnetChainHandle[];
  contracts: Record<number, ChainContracts>;
}

export interface Devnet extends DevnetWorld {
  state: DevnetState;
  /** True when the saved world was loaded instead of deployed. */
  reused: boolean;
  /**
   * Saves every chain as it is now (blocks mined since the start included) over the saved world in
   * `stateDir`, so the next start continues from here. No-op for an ephemeral world.
   */
  save(): Promise<void>;
  stop(): Promise<void>;
}

function bigintJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** What a saved world must match to be reused: contracts' sources, chains, deployer, recipe. */
export function worldHash(chains: readonly DevnetChainSpec[], mnemonic: string, genesisTimestamp?: number, worldKey?: string): string {
  const hash = createHash('sha256');
  hash.update(
    bigintJson({
      recipe: WORLD_RECIPE_VERSION,
      sources: loadArtifacts().sourceHash,
      chains: chains.map((c) => ({ id: c.id, name: c.name, role: c.role, spec: defaultWorldSpec(c.id, c.role) })),
      deployer: deployerAccount(mnemonic).address,
      genesisTimestamp: genesisTimestamp ?? null,
      worldKey: worldKey ?? null,
    }),
  );
  return hash.digest('hex');
}

/**
 * Sets an anvil's clock (no block is mined) to `now`, or to one second past its head when the head
 * is later: the next block is later than every block before it, whatever clock anvil started with.
 * (anvil's clock after `--load-state` is its own start clock — `--timestamp`, or the wall clock —
 * not the loaded head's time, so a reloaded chain must be told where its time stands.)
 */
export async function alignClock(rpcUrl: string, now = Math.floor(Date.now() / 1000)): Promise<void> {
  const block = await rpc<{ timestamp: string }>(rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
  await rpc(rpcUrl, 'evm_setTime', [Math.max(now, Number(block.timestamp) + 1)]);
}

const chainStatePath = (stateDir: string, chainId: number) => join(stateDir, `anvil-${chainId}.json`);

/**
 * The payment chain's anvil keeps no past block's state on disk. Past 500 blocks in memory anvil
 * writes each mined block's whole state to disk as JSON, which cost a quarter of its CPU a
 * settlement once a burst of payments mined a block each (docs/BENCHMARKS.md, 2026-11-29). Nothing
 * reads that chain's state at a past block: the payments service reads the head, its receipts and
 * its logs, and a saved world holds only the head's state.
 */
const PAYMENT_CHAIN_ARGS = ['--max-persisted-states', '0'];

/**
 * Starts the devnet: one anvil per chain, then either the saved world (when `stateDir` holds one
 * matching this code) or a fresh deployment (and the seed step), and writes `state.json`.
 */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const specs: readonly DevnetChainOptions[] = options.chains ?? DEFAULT_CHAINS;
  const mnemonic = options.mnemonic ?? DEFAULT_MNEMONIC;
  const hash = worldHash(specs, mnemonic, options.genesisTimestamp, options.worldKey);
  const stateDir = options.stateDir;
  const paymentSpecs = specs.filter((c) => c.role === 'payment');
  if (paymentSpecs.length !== 1) throw new Error(`the devnet needs exactly one chain of role 'payment', got ${paymentSpecs.length}`);
  const accounts = paymentAccounts(mnemonic);
  const saved = stateDir && !options.fresh ? readStateFile(stateFilePath(stateDir)) : undefined;
  const reuse =
    saved !== undefined &&
    saved.worldHash === hash &&
    specs.every((c) => existsSync(chainStatePath(stateDir!, c.id)) && saved.contracts[String(c.id)]);

  const anvils: AnvilInstance[] = [];
  const watchdogs: MiningWatchdog[] = [];
  const stop = async () => {
    await Promise.all(watchdogs.map((w) => w.stop()));
    await Promise.all(anvils.map((a) => a.stop()));
  };
  try {
    const started = await Promise.all(
      specs.map((spec) =>
        startAnvil({
          chainId: spec.id,
          port: spec.port ?? 0,
          mnemonic,
          // Also on a reload: anvil builds a genesis block of its own before loading the saved
          // blocks, and it must be the saved one (its clock is set below, not by this).
          ...(options.genesisTimestamp !== undefined ? { genesisTimestamp: options.genesisTimestamp } : {}),
          ...(reuse ? { loadStatePath: chainStatePath(stateDir!, spec.id) } : {}),
          // a block of several transactions (the seeding's) holds them in the order sent
          extraArgs: ['--order', 'fifo', ...(options.anvilArgs ?? (spec.role === 'payment' ? PAYMENT_CHAIN_ARGS : []))],
        }).then((anvil) => {
          anvils.push(anvil);
          return anvil;
        }),
      ),
    );
    const chains: DevnetChainHandle[] = specs.map((spec, i) => {
      const anvil = started[i]!;
      const plain: DevnetChainSpec = { id: spec.id, name: spec.name, role: spec.role };
      return { spec: plain, anvil, rpcUrl: anvil.rpcUrl, chain: devnetChain(plain, anvil.rpcUrl) };
    });

    let contracts: Record<number, ChainContracts>;
    let cast: ScoringCast = {};
    let population: DevnetState['population'] = [];
    let populationWorld: DevnetState['populationWorld'];
    if (reuse) {
      contracts = Object.fromEntries(specs.map((c) => [c.id, saved!.contracts[String(c.id)]!]));
      const { payer: _payer, ...savedCast } = saved!.cast;
      cast = savedCast;
      population = saved!.population;
      populationWorld = saved!.populationWorld;
    } else {
      contracts = await deployWorld(
        chains.map((c) => ({ chain: c.spec, rpcUrl: c.rpcUrl })),
        {
          account: deployerAccount(mnemonic),
          ...(options.genesisTimestamp !== undefined ? { firstTimestamp: options.genesisTimestamp + 1 } : {}),
        },
      );
    }
    for (const c of chains) c.chain = devnetChain(c.spec, c.rpcUrl, viemChainContracts(contracts[c.spec.id]!));
    const save = async () => {
      if (stateDir) await Promise.all(chains.map((c) => saveAnvilState(c.rpcUrl, chainStatePath(stateDir, c.spec.id))));
    };
    if (!reuse && options.seed) ({ cast, population, populationWorld } = await options.seed({ chains, contracts }));
    // The seeding (automine off, its own blocks) is over: from here on every chain automines.
    for (const c of chains) watchdogs.push(startMiningWatchdog(c.rpcUrl));
    // History was written in the past (or loaded); from here on, blocks follow the wall clock, or
    // run on from the fixed moment asked for, and never earlier than the head. The payment chain
    // always follows the wall clock: x402 clients set an authorization's validity window from it,
    // and a chain behind it fails their payments.
    await Promise.all(chains.map((c) => alignClock(c.rpcUrl, c.spec.role === 'payment' ? undefined : options.clockAt)));
    const paymentChain = chains.find((c) => c.spec.role === 'payment')!;
    // The payment accounts' funding: its own step, on the payment chain only (after the seeding,
    // which never sees it), so the scoring chains are the same as without it.
    if (!reuse) await fundPaymentAccounts(paymentChain, contracts[paymentChain.spec.id]!, deployerAccount(mnemonic), accounts);
    await fundFacilitators(paymentChain, accounts);
    if (!reuse) await save();

    if (options.heartbeat ?? true) await refreshFeeds(chains, contracts, deployerAccount(mnemonic));

    const state: DevnetState = {
      version: 1,
      worldHash: hash,
      ...(options.worldKey !== undefined ? { worldKey: options.worldKey } : {}),
      chains: chains.map((c) => ({ id: c.spec.id, name: c.spec.name, rpcUrl: c.rpcUrl, role: c.spec.role })),
      contracts: Object.fromEntries(Object.entries(contracts).map(([id, c]) => [id, c])),
      cast: { ...cast, payer: accounts.payer },
      population,
      ...(populationWorld !== undefined ? { populationWorld } : {}),
      payments: paymentsState({ id: paymentChain.spec.id, rpcUrl: paymentChain.rpcUrl }, contracts[paymentChain.spec.id]!, accounts),
    };
    if (stateDir) writeStateFile(state, stateFilePath(stateDir));
    return { chains, contracts, state, reused: reuse, save, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
