'use strict';
// What the score and report benches share: the reference world indexed into a throwaway
// database, an enterprise key, and stacks (gateway + wallet-reading services as processes) under
// their own subject and cache prefixes, one reading through counting proxies, one straight.
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { cpuProfileArgs, stopChildren, throwawayDatabase, waitForHttp } = require('./support');

const ROOT = join(__dirname, '..');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const dist = (path) => require(join(ROOT, path));

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), min: sorted[0], max: sorted[sorted.length - 1] };
}

/**
 * A world (by default the reference world; `options.devnet`, a start of another, e.g. the scale
 * world's) indexed into a throwaway database (`credit_bench_<name>_<pid>`), an
 * enterprise key and the providers' local stubs. `stackEnv(prefix, chains, port)` is the
 * environment of a stack's processes under `prefix` (its Redis keys are deleted on close), and
 * `startApp(app, env, execArgv, quiet)` forks `apps/<app>/dist/main.js` (identity reads the name service
 * straight from the chains). `close()` stops the processes, the world and the stubs, deletes the prefixes'
 * Redis keys and drops the database; `onClose(fn)` runs `fn` after the processes have stopped.
 * `indexSeconds`: from the loaded (or seeded) world to the indexer caught up with its head, from an
 * empty database (`options.indexTimeoutMs` bounds it).
 */
async function startReferenceWorld(name, options = {}) {
  const { startReferenceDevnet } = dist('packages/test-world/dist/reference-devnet.js');
  const { startIndexedDevnet } = dist('packages/test-world/dist/indexed-devnet.js');
  const { deleteKeysWithPrefix } = dist('packages/test-world/dist/redis-cleanup.js');
  const { migrate } = dist('packages/db/dist/migrate.js');
  const { createPrismaClient } = dist('packages/db/dist/prisma-client.js');
  const { AccountRepository } = dist('packages/db/dist/account-repository.js');
  const { ApiKeyRepository } = dist('packages/db/dist/api-key-repository.js');

  const database = await throwawayDatabase(`credit_bench_${name}_${process.pid}`);
  const children = [];
  const prefixes = [];
  const closers = [];
  let world;
  let stubs;
  const close = async () => {
    // a gateway moves its ledger outbox on the way out: keys are deleted once every process is gone
    await stopChildren(children);
    for (const closer of closers) await closer();
    await stubs?.close();
    await world?.close();
    for (const prefix of prefixes) await deleteKeysWithPrefix(REDIS_URL, prefix);
    await database.drop();
  };
  try {
    await migrate(database.url);
    const prisma = createPrismaClient(database.url);
    const { account } = await new AccountRepository(prisma).findOrCreateByEmail('bench@example.com', 'enterprise');
    const { key } = await new ApiKeyRepository(prisma).create({ accountId: account.id, name: 'bench' });
    await prisma.$disconnect();

    const started = Date.now();
    const startWorld = options.devnet ?? startReferenceDevnet;
    let indexFrom;
    world = await startIndexedDevnet({
      devnet: async () => {
        const devnet = await startWorld();
        indexFrom = process.hrtime.bigint();
        return devnet;
      },
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      ...(options.indexTimeoutMs !== undefined ? { timeoutMs: options.indexTimeoutMs } : {}),
    });
    const indexSeconds = Number(process.hrtime.bigint() - indexFrom) / 1e9;
    console.error(
      `${name}: world up and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s (indexing ${indexSeconds.toFixed(1)} s)`,
    );
    const population = world.devnet.state.population.map((m) => m.address);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // identity asks the providers' local stubs (the devnet cast's fixtures), as `pnpm start` does
    const { startProviderStubs } = dist('packages/provider-stubs/dist/provider-stubs.js');
    const { devnetFixtures } = dist('packages/provider-stubs/dist/devnet-fixtures.js');
    const { stubProviderEnv } = dist('packages/provider-stubs/dist/provider-env.js');
    stubs = await startProviderStubs(devnetFixtures(world.devnet.state.cast));
    const providerEnv = stubProviderEnv(stubs);

    const stackEnv = (prefix, chains, port) => {
      prefixes.push(prefix);
      const { CHAINS_FILE: _unused, ...inherited } = process.env;
      return {
        ...inherited,
        ...providerEnv,
        NATS_URL,
        REDIS_URL,
        NATS_SUBJECT_PREFIX: prefix,
        DATABASE_URL: database.url,
        CHAINS: JSON.stringify(chains),
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        HEALTH_PORT: '0',
        // the gateway meters every request: an enterprise rate limit no bench reaches (the
        // default, 1,000 a minute, would turn a bench's later requests into 429s)
        RATE_LIMIT_ENTERPRISE_PER_MIN: '100000000',
      };
    };
    // `quiet`: standard output dropped (an app writing a line per request), standard error shown;
    // `root`: the checkout whose build runs (another one: BENCH_BASELINE)
    const startApp = (app, env, execArgv = [], quiet = false, root = ROOT) => {
      // identity reads the name service straight from the chains: the counted trips are the wallet reading's
      const own = app === 'identity' ? { CHAINS: JSON.stringify(world.registry) } : {};
      const child = fork(join(root, `apps/${app}/dist/main.js`), [], {
        env: { ...env, ...own },
        execArgv,
        stdio: quiet ? ['ignore', 'ignore', 'inherit', 'ipc'] : 'inherit',
      });
      children.push(child);
      return child;
    };
    return { database, key, headers, world, population, indexSeconds, stackEnv, startApp, onClose: (fn) => closers.push(fn), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `apps`: the services to run beside the gateway (e.g. ['scoring'], ['reports']; identity always
 * runs, with the providers' stubs: every wallet reading asks it); `readyPath(population)`
 * is a route that answers 200 once they are up. Returns the world,
 * the population, the counting registry, two stacks (`counting`, `direct`) each with
 * `get(path, init)` → {ms, body}, `flush()` (empties its wallet, identity and history caches) and `pids` (its apps'), and `close()`;
 * with `options.tracedTo` (an OTLP/HTTP endpoint), a third stack `traced` exporting its spans there;
 * with `options.baseline` (a checkout, built), a stack `baseline` of that checkout's apps;
 * `options.devnet` / `options.indexTimeoutMs`: another world (startReferenceWorld); `options.counting`
 * false: no counting stack (`counting` undefined); `options.portOffset`: added to the stacks' ports
 * (two benches in one process).
 */
async function startReferenceBench(name, apps, readyPath, options = {}) {
  const { countingRegistry } = dist('packages/test-world/dist/counting-rpc-proxy.js');
  const { deleteKeysWithPrefix } = dist('packages/test-world/dist/redis-cleanup.js');
  const reference = await startReferenceWorld(name, options);
  const { world, population, headers, close } = reference;
  try {
    const counted = options.counting === false ? undefined : await countingRegistry(world.registry);
    if (counted) reference.onClose(() => counted.close());

    const stack = async (label, chains, port, extraEnv = {}, root = undefined) => {
      const prefix = `bench${name}${label}${process.pid}`;
      const env = { ...reference.stackEnv(prefix, chains, port), ...extraEnv };
      // BENCH_CPU_PROF=<dir>: every app of the stack writes a CPU profile of its run there when it exits
      const profile = cpuProfileArgs();
      const pids = {};
      for (const app of new Set(['identity', ...apps, 'gateway'])) pids[app] = reference.startApp(app, env, profile, false, root).pid;
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}${readyPath(population)}`, headers);
      const get = async (path, init = {}) => {
        const t0 = process.hrtime.bigint();
        const res = await fetch(`${url}${path}`, { headers, ...init });
        const body = await res.json();
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (res.status !== 200) throw new Error(`${path.slice(0, 80)}…: ${res.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      // the caches' keys: `<prefix>:wallet:v5:…`, `<prefix>:identity:v1:…` and the score history's
      // `<prefix>:history:v1:…` (deleteKeysWithPrefix adds the ':')
      const flush = () => Promise.all(['wallet', 'identity', 'history'].map((c) => deleteKeysWithPrefix(REDIS_URL, `${prefix}:${c}`)));
      return { get, flush, url, headers, pids };
    };
    const base = 19000 + (process.pid % 500) * 2 + (options.portOffset ?? 0);
    const counting = counted ? await stack('count', counted.registry, base) : undefined;
    const direct = await stack('direct', world.registry, base + 1);
    // `options.tracedTo`: a third stack exporting every span there (OTLP/HTTP), for breakdowns only
    const traced =
      options.tracedTo === undefined
        ? undefined
        : await stack('traced', world.registry, base + 1000, {
            OTEL_EXPORTER_OTLP_ENDPOINT: options.tracedTo,
            OTEL_BSP_SCHEDULE_DELAY: '50',
          });
    // `options.baseline`: another checkout, built, whose apps run a fourth stack on the same world
    const baseline = options.baseline === undefined ? undefined : await stack('base', world.registry, base + 1001, {}, options.baseline);
    return {
      world,
      counted,
      population,
      counting,
      direct,
      traced,
      baseline,
      database: reference.database,
      indexSeconds: reference.indexSeconds,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `| label | cold … | warm … |` rows with p50 / p99 / max. */
function latencyTable(rows) {
  const f = (x) => (x === undefined ? '–' : x.toFixed(1));
  const lines = [
    '| request | cold p50 ms | cold p99 ms | cold max ms | warm p50 ms | warm p99 ms | warm max ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.label} | ${f(r.cold.p50)} | ${f(r.cold.p99)} | ${f(r.cold.max)} | ${f(r.warm?.p50)} | ${f(r.warm?.p99)} | ${f(r.warm?.max)} |`,
    );
  return lines.join('\n');
}

/** `- label: chain 1: n (methods); …` lines of round trips per chain. */
function tripLines(trips) {
  return Object.entries(trips)
    .map(([label, t]) => {
      const per = Object.entries(t.counts)
        .map(([id, n]) => `chain ${id}: ${n} (${[...new Set(t.methods[id])].join(', ')})`)
        .join('; ');
      return `- ${label}${t.note ? ` (${t.note})` : ''}: ${per}`;
    })
    .join('\n');
}

module.exports = { startReferenceBench, startReferenceWorld, stats, latencyTable, tripLines };
