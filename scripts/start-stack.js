#!/usr/bin/env node
// `pnpm start`: the whole stack on this machine. Checks the infrastructure (Postgres, Redis,
// NATS), applies the database migrations, brings up the devnet when no chain is configured (the
// embedded default: CHAINS / CHAINS_FILE unset), then runs every app as a child process, restarts
// one that dies, and stops them all on Ctrl-C / SIGTERM. Requires `pnpm build` first.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { checkServices } = require('./services');

const ROOT = join(__dirname, '..');
const APPS = [
  { name: 'sandbox', main: 'apps/sandbox/dist/main.js', replicas: Number(process.env.SANDBOX_REPLICAS ?? 1) },
  { name: 'scoring', main: 'apps/scoring/dist/main.js', replicas: Number(process.env.SCORING_REPLICAS ?? 1) },
  { name: 'reports', main: 'apps/reports/dist/main.js', replicas: Number(process.env.REPORTS_REPLICAS ?? 1) },
  { name: 'identity', main: 'apps/identity/dist/main.js', replicas: Number(process.env.IDENTITY_REPLICAS ?? 1) },
  // x402 (docs/API.md §5): only when payments are configured (X402_PAY_TO), as on the devnet.
  { name: 'payments', main: 'apps/payments/dist/main.js', replicas: Number(process.env.PAYMENTS_REPLICAS ?? 1), x402: true },
  { name: 'gateway', main: 'apps/gateway/dist/main.js', replicas: 1 },
  { name: 'indexer', main: 'apps/indexer/dist/main.js', replicas: 1 },
  // Webhooks (docs/ARCHITECTURE.md decision 38): delivery of the events the gateway and the detector
  // queue, and score-change detection of the ranges the indexer commits (same Redis, the indexer's
  // default QUEUE_PREFIX; scoring over NATS).
  { name: 'webhooks', main: 'apps/webhooks/dist/main.js', replicas: Number(process.env.WEBHOOKS_REPLICAS ?? 1) },
];
// Each app's probe port (`/health`, `/ready`, `/metrics`; docs/OPERATIONS.md): fixed, so a
// Prometheus or a person finds it (from HEALTH_PORT_BASE, 9100: gateway 9100, sandbox 9101, …);
// replica n (from 0) of an app gets its port + 10 n.
const HEALTH_PORT_BASE = Number(process.env.HEALTH_PORT_BASE ?? 9100);
const HEALTH_PORT_OFFSETS = { gateway: 0, sandbox: 1, scoring: 2, reports: 3, identity: 4, payments: 5, indexer: 6, webhooks: 7 };
const healthPortOf = (app, index) => HEALTH_PORT_BASE + HEALTH_PORT_OFFSETS[app.name] + 10 * index;
const COLORS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'];

/** Given to the payments service only: the self-hosted facilitator's signers. */
const paymentsEnv = {};
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/credit',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

const children = new Set();
let stopping = false;

function log(name, color, line) {
  process.stdout.write(`${color}${name.padEnd(10)}\x1b[0m ${readable(line)}\n`);
}

// The apps write JSON lines (docs/OPERATIONS.md, "Logs"); for a person: time, level, message, then
// the other fields. `LOG_FORMAT=json` keeps the lines as they are.
const LOG_FIELDS_SHOWN = new Set(['time', 'level', 'service', 'msg', 'context']);
function readable(line) {
  if (process.env.LOG_FORMAT === 'json' || !line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const rest = Object.entries(entry).filter(([key]) => !LOG_FIELDS_SHOWN.has(key));
  const extra =
    rest.length > 0
      ? ` ${rest.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ')}`
      : '';
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = String(entry.level ?? '').toUpperCase();
  const context = entry.context ? `[${entry.context}] ` : '';
  return `${time} ${level.padEnd(5)} ${context}${entry.msg ?? ''}${extra}`;
}

/**
 * The embedded default: start the seeded devnet (a cold start deploys and seeds; later starts
 * load the saved chains in about a second), wait until it reports ready, and point every app at
 * its scoring chains through CHAINS_FILE.
 */
function startDevnet() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'packages/devnet/dist/main.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const timer = setTimeout(() => reject(new Error('the devnet did not come up within 180 s')), 180_000);
    let buffer = '';
    const onLine = (line) => {
      log('devnet', '\x1b[34m', line);
      if (/^devnet (loaded|deployed)/.test(line)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk) => String(chunk).split('\n').filter(Boolean).forEach(onLine));
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      if (!stopping) {
        log('devnet', '\x1b[34m', `exited (${code}); stopping the stack`);
        stop();
      }
      reject(new Error(`the devnet exited (${code})`));
    });
  });
}

const PROVIDER_URLS = ['PASSPORT_API_URL', 'POAP_API_URL', 'NEYNAR_API_URL', 'LENS_API_URL'];

/**
 * With the devnet and no identity provider configured: the providers' local stubs, answering in
 * the providers' documented shapes about the devnet's cast (packages/provider-stubs), and the
 * identity service pointed at them. Resolves once the stubs print their ready line.
 */
function startProviderStubs(stateFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'packages/provider-stubs/dist/main.js'), '--devnet', stateFile], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) {
        try {
          const ready = JSON.parse(line);
          if (ready.ready) resolve(ready);
        } catch {
          log('stubs', '\x1b[34m', line);
        }
      }
    });
    child.stderr.on('data', (chunk) =>
      String(chunk)
        .split('\n')
        .filter(Boolean)
        .forEach((line) => log('stubs', '\x1b[34m', line)),
    );
    child.on('exit', (code) => {
      children.delete(child);
      if (!stopping) {
        log('stubs', '\x1b[34m', `exited (${code}); stopping the stack`);
        stop();
      }
      reject(new Error(`the provider stubs exited (${code})`));
    });
  });
}

function writeDevnetRegistry() {
  const { registryFromDevnetState } = require(join(ROOT, 'packages/chain/dist/devnet-registry.js'));
  const stateFile = join(ROOT, '.devnet/state.json');
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  const scoring = state.chains.filter((c) => c.role !== 'payment').map((c) => c.id);
  const registry = registryFromDevnetState(state, { chainIds: scoring });
  const file = join(ROOT, '.devnet/chains.json');
  writeFileSync(file, JSON.stringify(registry, null, 2));
  return file;
}

/**
 * x402 on the devnet: payments go to the devnet's receiver on its payment chain (chain id 84532,
 * its own EIP-3009 USDC), verified and settled by the self-hosted facilitator with the devnet's
 * four signers. Real networks are configuration (X402_PAY_TO, X402_NETWORKS_FILE, and the signer key or
 * an external facilitator in the payments service's environment).
 */
function configureDevnetPayments() {
  const state = JSON.parse(readFileSync(join(ROOT, '.devnet/state.json'), 'utf8'));
  const { devnetX402Env } = require(join(ROOT, 'packages/x402/dist/devnet-x402.js'));
  const { X402_FACILITATOR_PRIVATE_KEYS, ...shared } = devnetX402Env(state.payments, join(ROOT, '.devnet/x402-networks.json'));
  Object.assign(env, shared);
  paymentsEnv.X402_FACILITATOR_PRIVATE_KEYS = X402_FACILITATOR_PRIVATE_KEYS;
  console.log(
    `x402: payments to ${state.payments.payTo} on the devnet's payment chain (${state.payments.network}); ` +
      `a devnet payer funded with USDC is state.json's cast.payer`,
  );
}

function run(app, index, color, attempt = 0) {
  const name = app.replicas > 1 ? `${app.name}#${index + 1}` : app.name;
  const child = spawn(process.execPath, [join(ROOT, app.main)], {
    cwd: ROOT,
    env: { ...env, ...(app.x402 ? paymentsEnv : {}), HEALTH_PORT: String(healthPortOf(app, index)) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const started = Date.now();
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) log(name, color, line);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (stopping) return;
    // Back off when an app keeps failing at boot (bad config), up to 30 s between tries.
    const next = Date.now() - started > 30_000 ? 0 : attempt + 1;
    const delay = Math.min(30_000, 500 * 2 ** next);
    log(name, color, `exited (${signal ?? code}); restarting in ${delay} ms`);
    setTimeout(() => run(app, index, color, next), delay).unref();
  });
}

/**
 * Prints `stack ready: production scores answer` once every replica's `/ready` is 200 together:
 * the gateway's needs a ready replica of each service it forwards to, scoring's and reports' the
 * index caught up on every chain, so the first production score after the line is served.
 */
async function announceReady(probes) {
  const ready = async (url) => (await fetch(url, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined))?.status === 200;
  while (!stopping) {
    if ((await Promise.all(probes.map(ready))).every(Boolean)) {
      console.log('stack ready: production scores answer');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  const force = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(0);
  }, 10_000);
  force.unref();
  const wait = setInterval(() => {
    if (children.size === 0) {
      clearInterval(wait);
      process.exit(0);
    }
  }, 100);
}

async function main() {
  for (const app of APPS) {
    if (!existsSync(join(ROOT, app.main))) {
      console.error(`${app.main} is missing: run \`pnpm build\` first.`);
      process.exit(1);
    }
  }
  const missing = await checkServices(env);
  if (missing.length > 0) {
    console.error(`Not reachable: ${missing.join(', ')}. Start them (README "Requirements") and try again.`);
    process.exit(1);
  }
  const { migrate } = require(join(ROOT, 'packages/db/dist/migrate.js'));
  const { applied } = await migrate(env.DATABASE_URL);
  console.log(`database ready (${applied.length} migration(s) applied)`);

  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (!env.CHAINS && !env.CHAINS_FILE) {
    await startDevnet();
    env.CHAINS_FILE = writeDevnetRegistry();
    // The devnet mines a block per transaction: two blocks of depth are plenty there.
    env.CONFIRMATIONS ??= '2';
    console.log(`chains: the devnet (${env.CHAINS_FILE})`);
    if (PROVIDER_URLS.every((name) => !env[name])) {
      const stubs = await startProviderStubs(join(ROOT, '.devnet/state.json'));
      Object.assign(env, require(join(ROOT, 'packages/provider-stubs/dist/provider-env.js')).stubProviderEnv(stubs));
      console.log(
        `identity providers: none configured, so the LOCAL STUBS of Passport, POAP, Neynar and Lens answer (made-up data about the devnet's cast; set ${PROVIDER_URLS.join(', ')} for real ones)`,
      );
    }
    if (!env.X402_PAY_TO) configureDevnetPayments();
    // A development stack has no mail server: the dashboard's sign-up and reset links are read in
    // the gateway's log. Only here; a deployment opts in itself, since a logged link is a password.
    env.MAIL_LOG_LINKS ??= '1';
    // Webhook receivers on this machine (http://127.0.0.1:…): allowed on the devnet only, never
    // in a deployment, where a target must be https and resolve to public addresses.
    env.WEBHOOK_ALLOW_PRIVATE ??= '1';
  }
  let c = 0;
  const probes = [];
  for (const app of APPS) {
    if (app.x402 && !env.X402_PAY_TO) continue;
    for (let i = 0; i < app.replicas; i++) {
      run(app, i, COLORS[c++ % COLORS.length]);
      const base = `http://localhost:${healthPortOf(app, i)}`;
      console.log(`metrics: ${(app.replicas > 1 ? `${app.name}#${i + 1}` : app.name).padEnd(11)} ${base}/metrics`);
      probes.push(`${base}/ready`);
    }
  }
  void announceReady(probes);
  const port = process.env.PORT ?? '8080';
  console.log(
    `\nGateway: http://localhost:${port}  (reference: /docs, OpenAPI: /openapi.json)\n` +
      `Account dashboard: http://localhost:${port}/dashboard/  (sign up; on the devnet with no SMTP_URL the emailed link is in the gateway's log, MAIL_LOG_LINKS=1)\n` +
      'Or make a key: pnpm cli keys:create --email you@example.com --plan free --name dev\n',
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stop();
  process.exit(1);
});
