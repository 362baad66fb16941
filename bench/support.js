'use strict';
// What the benches share: a throwaway database, the machine line, the process wrapper, stopping
// forked processes, and the CPU time of processes (Linux /proc).
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const os = require('node:os');
const { Client } = require('pg');

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Creates database `name` on the admin URL's server; `drop()` removes it (connections forced out). */
async function throwawayDatabase(name) {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    url: ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Resolves once `url` answers 200 (with `headers`), retrying every 250 ms until `timeoutMs`. */
function waitForHttp(url, headers, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () =>
      fetch(url, { headers })
        .then((res) => (res.status === 200 ? resolve() : retry(`status ${res.status}`)))
        .catch((e) => retry(e.message));
    const retry = (why) => (Date.now() > until ? reject(new Error(`${url}: ${why}`)) : setTimeout(attempt, 250));
    attempt();
  });
}

function machineLine() {
  const cpu = os.cpus();
  return `machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Runs a bench's main and exits with its outcome (child processes and pools never hold it open). */
function runMain(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * SIGTERM to every child, then waits until each has exited (SIGKILL after `timeoutMs`): a gateway
 * moves its ledger outbox on the way out, so Redis keys are deleted only after it is gone.
 */
async function stopChildren(children, timeoutMs = 10_000) {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, timeoutMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** CPU time (user + system) a process has used so far, in clock ticks (10 ms); undefined off Linux. */
function cpuTicks(pid) {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  try {
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined; // the process ended meanwhile
  }
}

/** The pids of the local processes named exactly `name` (e.g. nats-server, redis-server); [] if none. */
function pidsNamed(name) {
  try {
    return execFileSync('pgrep', ['-x', name]).toString().trim().split('\n').map(Number).filter(Boolean);
  } catch {
    return [];
  }
}

/** Busy and total clock ticks of the whole machine so far (/proc/stat); undefined off Linux. */
function machineTicks() {
  if (!existsSync('/proc/stat')) return undefined;
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const t = fields.map(Number);
  const total = t.slice(0, 8).reduce((a, b) => a + b, 0); // user … steal (guest is inside user)
  return { busy: total - t[3] - t[4], total };
}

/** BENCH_CPU_PROF=<dir>: the Node flags that make a forked app write a CPU profile of its run there when it exits. */
function cpuProfileArgs() {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

module.exports = { throwawayDatabase, machineLine, runMain, waitForHttp, stopChildren, cpuTicks, pidsNamed, machineTicks, cpuProfileArgs };
