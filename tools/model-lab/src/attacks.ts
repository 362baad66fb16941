/**
 * The attacks of issue 33 measured by cost (docs/MODEL.md, "Attacks measured by cost"):
 *
 *   node apps/scoring/dist/attacks.js [--write docs/MODEL.md] [--json docs/model-attacks.json]
 *   (`pnpm model:attacks` at the root: build, then both)
 *
 * Runs `runAttacks` (the attack world on an ephemeral devnet, the real indexer, the wallet reader,
 * the identity service with the providers' stubs, the model), prints each attack's points gained and
 * dollars spent, and exits 1 when an attack gains more than 10 points for less than $1,000.
 *
 * Needs NATS (NATS_URL), Redis (REDIS_URL), Postgres (TEST_DATABASE_ADMIN_URL) and anvil.
 */
import { writeFileSync } from 'node:fs';
import { renderAttacks, withAttacks } from './attacks/render-attacks';
import { runAttacks } from './attacks/run-attacks';
import { elapsedLog, option, rewrite, runMain } from './calibration/cli';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

async function main(): Promise<void> {
  const write = option('--write');
  const json = option('--json');
  const report = await runAttacks({ redisUrl: REDIS_URL, natsUrl: NATS_URL, log: elapsedLog() });
  for (const r of report.results) {
    console.log(
      `${r.name.padEnd(30)} ${String(r.scores.control).padStart(4)} → ${String(r.scores.attacker).padStart(4)}  ${(r.pointsGained > 0 ? '+' : '') + r.pointsGained} points for $${r.spent.totalUsd}${r.withinBound ? '' : '  OUT OF BOUND'}`,
    );
  }
  if (json !== undefined) writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  if (write !== undefined) rewrite(write, (text) => withAttacks(text, renderAttacks(report)));
  if (report.results.some((r) => !r.withinBound)) throw new Error('an attack gains more than 10 points for less than $1,000');
}

runMain(main);
