#!/usr/bin/env node
// Starts the seeded devnet and keeps it running: `node packages/devnet/dist/main.js [options]`.
//   --fresh              deploy and seed again even when .devnet/ holds a matching world
//   --state-dir <dir>    where state.json and the saved chains live (default: <repo>/.devnet)
//   --port-base <n>      RPC ports n, n+1, n+2 for chains 1, 8453, 84532 (default: free ports)
//   --seed <s>           seeding randomness (default: credit-devnet)
//   --anchor <unix s>    "now" of the seeded history (default: start of today, UTC)
//   --population <n>     generated wallets (default: 300)
//   --once               exit after start (the saved state stays; for CI and scripts)
import { DEFAULT_CHAINS } from './chains';
import { startDevnet } from './devnet';
import { seededDevnetOptions } from './seed/seed-world';
import { defaultStateDir, readStateFile, stateFilePath } from './state-file';

/** Real feeds answer at least daily; the readers' default staleness bound is 25 h. */
const HEARTBEAT_MS = 60 * 60 * 1000;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The anchor of the world saved in `stateDir`, if there is one. */
function savedAnchor(stateDir: string): string | undefined {
  const key = readStateFile(stateFilePath(stateDir))?.worldKey;
  if (key === undefined) return undefined;
  try {
    const anchor = (JSON.parse(key) as { anchorTimestamp?: unknown }).anchorTimestamp;
    return typeof anchor === 'number' ? String(anchor) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const stateDir = flag('state-dir') ?? defaultStateDir();
  const portBase = flag('port-base');
  // A saved world keeps its anchor: later starts reuse it (and take a second) on any day;
  // `--fresh` or `--anchor` seed a new one.
  const anchor = flag('anchor') ?? (process.argv.includes('--fresh') ? undefined : savedAnchor(stateDir));
  const population = flag('population');
  const devnet = await startDevnet({
    chains: DEFAULT_CHAINS.map((c, i) => ({ ...c, port: portBase ? Number(portBase) + i : 0 })),
    stateDir,
    fresh: process.argv.includes('--fresh'),
    ...seededDevnetOptions({
      ...(flag('seed') ? { seed: flag('seed')! } : {}),
      ...(anchor ? { anchorTimestamp: Number(anchor) } : {}),
      ...(population ? { populationSize: Number(population) } : {}),
    }),
  });
  // What the start mined (the feeds' heartbeat) is kept: the next start continues from here, and an
  // indexer that indexed these blocks finds them again.
  await devnet.save();
  const took = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `devnet ${devnet.reused ? 'loaded from saved state' : 'deployed and seeded'} in ${took} s; state: ${stateFilePath(stateDir)}`,
  );
  for (const c of devnet.state.chains) console.log(`  ${c.id} ${c.name} (${c.role}): ${c.rpcUrl}`);
  const { payer, ...scoringCast } = devnet.state.cast;
  for (const [role, member] of Object.entries(scoringCast))
    console.log(`  ${role}: ${member.address}${member.ens ? ` (${member.ens})` : ''}`);
  const { payments } = devnet.state;
  console.log(
    `  payments (${payments.network}, ${payments.tokenName} ${payments.token}): payer ${payer.address} (devnet-only key in state.json), ` +
      `payTo ${payments.payTo}, facilitator signers ${payments.facilitators.map((f) => f.address).join(', ')}`,
  );
  if (process.argv.includes('--once')) {
    await devnet.stop();
    return;
  }
  // Keep the feeds' heartbeat while the devnet runs, so prices never read as stale.
  const { refreshFeeds } = await import('./feed-heartbeat');
  const { deployerAccount } = await import('./deploy');
  const heartbeat = setInterval(() => {
    refreshFeeds(devnet.chains, devnet.contracts, deployerAccount())
      .then(() => devnet.save())
      .catch((error: unknown) => console.error(`feed heartbeat failed: ${(error as Error).message}`));
  }, HEARTBEAT_MS);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return; // Ctrl-C sends SIGINT, and the stack's supervisor then SIGTERM
    stopping = true;
    clearInterval(heartbeat);
    console.log(`${signal}: saving and stopping the devnet`);
    // Whatever was mined since the last save (by other programs) is kept too, when anvil is still
    // up; a Ctrl-C in a terminal reaches anvil at the same moment, and then the last save stands
    // (an indexer rolls back the blocks it saw after it: apps/indexer/src/chain-reconciler.ts).
    devnet
      .save()
      .catch(() => console.log('the chains had stopped already: the save after the last heartbeat stands'))
      .then(() => devnet.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
