/**
 * Fits andromeda_1.0's scorecards on the protocol's training worlds (never the held-out ones):
 *
 *   node tools/model-lab/dist/fit.js [--write packages/score-model/src/andromeda/fitted-table.ts] [--log docs/model-tuning-log.md]
 *   (`pnpm model:fit` at the root: build, then both)
 *
 * Chooses the L2 penalty by leave-one-training-world-out log-loss, fits the debt segment's monotone
 * binned logistic regression and the no-debt segment's base, measures the decile cut-points and
 * their stated probabilities at T on the training population, writes the table and appends the
 * run's figures to the tuning log. Needs what `pnpm model:evaluate` needs (NATS, Redis, Postgres, anvil).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { elapsedLog, option, runMain } from './calibration/cli';
import { evaluationWorlds, protocolHash } from './evaluation/protocol';
import { collectOptions, collectWorld } from './evaluation/world-dataset';
import { decilesOf, fitScorecards, leaveOneWorldOut, type TrainingRow } from './fitting/fit-scorecard';
import { renderFittedTable } from './fitting/render-fitted-table';

/** The penalties tried (per row, on the cumulative-bin coefficients). */
const LAMBDAS = [0.0003, 0.001, 0.003, 0.01, 0.03];

async function main(): Promise<void> {
  const write = option('--write');
  const logFile = option('--log');
  const log = elapsedLog();
  const rows: TrainingRow[] = [];
  const worlds = evaluationWorlds().filter((w) => w.role === 'training');
  for (const world of worlds) {
    const dataset = await collectWorld(world, collectOptions(log));
    for (const m of dataset.members) rows.push({ world: world.name, features: m.features, liquidated: m.liquidated });
  }
  const tried = LAMBDAS.map((lambda) => ({ lambda, loss: leaveOneWorldOut(rows, lambda) }));
  for (const t of tried) log(`lambda ${t.lambda}: leave-one-world-out log-loss ${t.loss.toFixed(5)}`);
  const best = tried.reduce((a, b) => (b.loss < a.loss ? b : a));
  const cards = fitScorecards(rows, best.lambda);
  const deciles = decilesOf(rows, cards);
  const fittedOn = {
    protocol: protocolHash(),
    worlds: worlds.length,
    wallets: rows.length,
    liquidated: rows.filter((r) => r.liquidated).length,
    lambda: best.lambda,
  };
  const revision = option('--revision') ?? new Date().toISOString().slice(0, 10);
  const text = renderFittedTable({ revision, fittedOn, cards, ...deciles });
  if (write !== undefined) {
    writeFileSync(write, text);
    log(`table written to ${write}`);
  } else {
    console.log(text);
  }
  if (logFile !== undefined) {
    appendFileSync(
      logFile,
      [
        `\n## ${new Date().toISOString()}: fit on protocol ${fittedOn.protocol}`,
        '',
        `Training worlds ${fittedOn.worlds}, wallets ${fittedOn.wallets}, liquidated ${fittedOn.liquidated}. Held-out worlds not read.`,
        '',
        '| L2 penalty | leave-one-world-out log-loss (debt segment) |',
        '|---|---|',
        ...tried.map((t) => `| ${t.lambda} | ${t.loss.toFixed(5)}${t === best ? ' (chosen)' : ''} |`),
        '',
        `Bases: debt ${cards.debt.base}, no debt ${cards.noDebt.base}. Decile cut-points ${deciles.decileCutPoints.join(', ')}; stated rates ${deciles.decileRates.join(', ')}.`,
        '',
      ].join('\n'),
    );
    log(`tuning log appended to ${logFile}`);
  }
}

runMain(main);
