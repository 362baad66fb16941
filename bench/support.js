'use strict';
// What both benches share: a throwaway database, the machine line, the process wrapper.
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

module.exports = { throwawayDatabase, machineLine, runMain, waitForHttp };
