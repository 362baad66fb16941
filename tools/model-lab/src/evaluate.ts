/**
 * The registered evaluation of andromeda_1.0 (docs/MODEL.md, "Evaluation"):
 *
 *   node tools/model-lab/dist/evaluate.js [--write docs/MODEL.md] [--json docs/model-evaluation.json]
 *   (`pnpm model:evaluate` at the root: build, then both)
 *
 * Refuses to run unless docs/model-registration.json names the current table and protocol and is
 * committed (`pnpm model:fit` writes the table, `pnpm model:register` the registration). Seeds
 * every world of the protocol (`evaluationWorlds`) on an ephemeral devnet and reads it through the
 * real pipeline (datasets are kept under `.cache/model-evaluation/` and reused while the world,
 * the generator's recipe and the data version are the same), then scores the table and the
 * baselines and renders the report.
 *
 * Needs what `pnpm model:card` needs: NATS, Redis, Postgres and anvil.
 */
import { writeFileSync } from 'node:fs';
import { elapsedLog, option, rewrite, runMain } from './calibration/cli';
import { evaluationReport } from './evaluation/evaluation-report';
import { evaluationWorlds } from './evaluation/protocol';
import { renderEvaluation, verdict, withEvaluation } from './evaluation/render-evaluation';
import { checkRegistration } from './evaluation/registration';
import { collectOptions, collectWorld, type WorldDataset } from './evaluation/world-dataset';

async function main(): Promise<void> {
  const write = option('--write');
  const json = option('--json');
  const log = elapsedLog();
  // the held-out worlds are read only for a table and a protocol registered (and committed) before
  const registrationCommit = checkRegistration(option('--registration') ?? 'docs/model-registration.json');
  log(`registration committed in ${registrationCommit}`);
  const datasets: WorldDataset[] = [];
  for (const world of evaluationWorlds()) {
    const dataset = await collectWorld(world, collectOptions(log));
    const liquidated = dataset.members.filter((m) => m.liquidated).length;
    log(`${world.name} (${world.role}): ${dataset.members.length} wallets, ${liquidated} liquidated`);
    datasets.push(dataset);
  }
  const report = { ...evaluationReport(datasets), registrationCommit };
  for (const [name, p] of Object.entries(report.populations)) {
    console.log(`\n== ${name} ==`);
    for (const r of p.rankings) {
      console.log(
        `${r.name.padEnd(20)} training ${r.training.auc.auc.toFixed(3)}  held-out ${r.heldOut.auc.auc.toFixed(3)} (${r.heldOut.auc.low.toFixed(3)}–${r.heldOut.auc.high.toFixed(3)})  per world median ${r.heldOut.perWorld.median.toFixed(3)} [${r.heldOut.perWorld.p5.toFixed(3)}, ${r.heldOut.perWorld.p95.toFixed(3)}]  KS ${r.heldOut.ks.toFixed(3)}`,
      );
    }
    console.log(`train-test gap ${p.trainTestGap.toFixed(3)}; Brier ${p.calibration.brier?.toFixed(4)}`);
    for (const a of p.ablations) console.log(`without ${a.factor}: ${a.heldOutAuc.toFixed(3)} (${a.change.toFixed(3)})`);
    console.log(verdict(p));
  }
  if (json !== undefined) {
    writeFileSync(json, `${JSON.stringify(report, null, 1)}\n`);
    log(`report written to ${json}`);
  }
  if (write !== undefined) {
    rewrite(write, (text) => withEvaluation(text, renderEvaluation(report)));
    log(`evaluation section of ${write} rewritten`);
  }
}

runMain(main);
