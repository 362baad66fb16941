/**
 * andromeda_1.0 on the devnet's reference world (docs/MODEL.md):
 *
 *   node apps/scoring/dist/calibrate.js [--write docs/MODEL.md] [--dump features.json]
 *   (`pnpm model:card` at the root: build, then --write docs/MODEL.md)
 *
 * Runs `runReferenceCalibration` (an ephemeral reference devnet, the indexer into throwaway
 * databases, the chain readers, the model), prints the decile cut-points, the AUC and each factor's
 * own AUC, and with `--write` replaces the measured section of the model card. `--dump` writes
 * every population member's features and outcome (both feature sets) as JSON, to study the model
 * offline.
 *
 * Needs NATS (NATS_URL, default nats://127.0.0.1:4222: the identity service runs on it under a
 * prefix of its own), Redis (REDIS_URL, default redis://127.0.0.1:6379), Postgres (TEST_DATABASE_ADMIN_URL, see
 * @credit/testing/test-database) and anvil.
 */
import { writeFileSync } from 'node:fs';
import { elapsedLog, option, rewrite, runMain } from './calibration/cli';
import { renderMeasured, replaySummary, withMeasured } from './calibration/model-card';
import type { CalibrationResult } from './calibration/population';
import { runReferenceCalibration } from './calibration/reference-run';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function printResult(label: string, result: CalibrationResult): void {
  const fmt = (x: number | null, digits: number) => (x === null ? 'n/a' : x.toFixed(digits));
  console.log(`\n== ${label} ==`);
  console.log(`population ${result.population}, liquidated in the window ${result.liquidated}`);
  console.log(`decile cut-points: [${result.cutPoints.join(', ')}]`);
  console.log(`AUC of (1000 - score) vs liquidated (Mann-Whitney): ${fmt(result.auc, 4)}`);
  console.log(`mean score: liquidated ${fmt(result.meanScoreLiquidated, 1)}, others ${fmt(result.meanScoreOthers, 1)}`);
  console.log(
    `AUC of each factor alone: ${Object.entries(result.factorAuc)
      .map(([label, auc]) => `${label} ${fmt(auc, 3)}`)
      .join(', ')}`,
  );
}

async function main(): Promise<void> {
  const write = option('--write');
  const dump = option('--dump');
  const log = elapsedLog();
  const run = await runReferenceCalibration({ redisUrl: REDIS_URL, natsUrl: NATS_URL, replay: true, log });
  console.log(
    `andromeda_1.0 on the reference world: chains ${run.chainIds.join(', ')}; head ${new Date(run.asOfNow * 1000).toISOString()}; features moment T ${new Date(run.shockAt * 1000).toISOString()}`,
  );
  printResult("scored at the head (cut-points; LEAKS the outcome: the window's liquidations are in the features)", run.now);
  printResult('scored at T, the features moment (in sample: the reference world is a training world)', run.preShock);
  const replay = replaySummary(run);
  console.log(
    `\nreplay: ${replay.liquidations} liquidations (${replay.raised} raised a score, ${replay.liquidationsLowered} lowered one); ${replay.repayments} repayments (${replay.lowered} lowered a score, ${replay.repaymentsRaised} raised one)`,
  );
  console.log('\ncast:');
  for (const c of run.cast) console.log(`  ${c.role.padEnd(17)} ${c.address} ${c.result === null ? 'no activity (404)' : c.result.score}`);
  if (dump !== undefined) {
    writeFileSync(
      dump,
      JSON.stringify({ shockAt: run.shockAt, asOfNow: run.asOfNow, now: run.members.now, before: run.members.preShock }, null, 1),
    );
    log(`features written to ${dump}`);
  }
  if (write !== undefined) {
    rewrite(write, (text) => withMeasured(text, renderMeasured(run)));
    log(`measured section of ${write} rewritten`);
  }
}

runMain(main);
