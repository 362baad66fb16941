import { withSection } from '../calibration/model-card';
import type { EvaluationReport, PopulationFigures, SideFigures } from './evaluation-report';

export const EVALUATION_BEGIN = '<!-- evaluation:begin -->';
export const EVALUATION_END = '<!-- evaluation:end -->';

const f3 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);
const auc = (s: SideFigures) => `${f3(s.auc.auc)} (${f3(s.auc.low)}–${f3(s.auc.high)})`;
const spread = (s: SideFigures) => `${f3(s.perWorld.median)} [${f3(s.perWorld.p5)}, ${f3(s.perWorld.p95)}]`;

/** The verdict the card must state plainly: does the model beat the health factor alone on held-out worlds? */
export function verdict(figures: PopulationFigures): string {
  const model = figures.rankings[0]!.heldOut.auc;
  const hf = figures.rankings.find((r) => r.name === 'health factor only')!.heldOut.auc;
  const ceiling = figures.rankings.find((r) => r.name === 'ceiling')?.heldOut.auc;
  const d = figures.versusHealthFactor;
  const diff = `the difference is ${d.difference >= 0 ? '+' : ''}${f3(d.difference)} (95 % paired cluster-bootstrap interval ${f3(d.low)} to ${f3(d.high)})`;
  const ceilingText = ceiling ? ` The ceiling on the same wallets is ${f3(ceiling.auc)}.` : '';
  if (d.low > 0) {
    return `andromeda_1.0 beats the health factor alone on the held-out worlds: ${f3(model.auc)} against ${f3(hf.auc)}; ${diff}, above zero.${ceilingText}`;
  }
  if (d.difference > 0) {
    return `andromeda_1.0 ranks the held-out worlds' liquidations better than the health factor alone (${f3(model.auc)} against ${f3(hf.auc)}), but ${diff} includes zero: the lead is not established.${ceilingText}`;
  }
  return `andromeda_1.0 does NOT beat the health factor alone on the held-out worlds: ${f3(model.auc)} against ${f3(hf.auc)}; ${diff}.${ceilingText}`;
}

/**
 * The share of each ceiling's lift. The criterion (≥ 90 %) is read against the market-blind
 * ceiling: the seeding's ceiling also knows each world's market in the window, which nothing on
 * chain shows at T (docs/model-tuning-log.md, 2026-11-27). Both are stated.
 */
function ceilingLiftLines(lift: PopulationFigures['ceilingLift']): string[] {
  if (!lift) return ['No ceiling for this population.'];
  const share = (x: { model: number; challenger: number }) => `model ${pct(x.model)}, challenger ${pct(x.challenger)}`;
  const lines = [
    `Share of the ceiling's lift over chance, (AUC − 0.5) / (ceiling − 0.5), against the ceiling that knows the world's market in the window: ${share(lift)}.`,
  ];
  if (lift.marketBlind) {
    lines.push(
      '',
      `Against the market-blind ceiling (the same traits and positions, the market ahead drawn from the training prior: the most a model can know at T): ${share(lift.marketBlind)} (criterion ≥ 90 %, read against this ceiling: ${lift.marketBlind.model >= 0.9 ? 'met' : 'NOT met'}).`,
    );
  }
  return lines;
}

const POPULATIONS: { key: keyof EvaluationReport['populations']; title: string; about: string }[] = [
  {
    key: 'atRisk',
    title: 'Wallets at risk (debt at T)',
    about:
      'Only a debt can be liquidated, so this is the ranking of credit skill: among the wallets that owe something at T, who is liquidated in the next 90 days.',
  },
  {
    key: 'all',
    title: 'Every wallet',
    about:
      'Holders and debt-free wallets included. Without a loan nothing can be liquidated in the window, so "has debt" is strong here; the model scores them on their own scorecard (docs/MODEL.md), above the borrowers.',
  },
];

function populationLines(title: string, about: string, p: PopulationFigures): string[] {
  return [
    `### ${title}`,
    '',
    about,
    '',
    `Training: ${p.counts.training.wallets} wallets, ${p.counts.training.liquidated} liquidated in the window. Held out: ${p.counts.heldOut.wallets} wallets, ${p.counts.heldOut.liquidated} liquidated.`,
    '',
    `**Verdict.** ${verdict(p)}`,
    '',
    'Pooled AUC with a 95 % cluster-bootstrap interval (whole worlds resampled, 1,000 times); per world: median [5th, 95th percentile]; KS on the pooled wallets.',
    '',
    '| Ranking | Training AUC | Held-out AUC | Held-out per world | Held-out KS |',
    '|---|---|---|---|---:|',
    ...p.rankings.map(
      (r) => `| ${r.name} — ${r.description} | ${auc(r.training)} | ${auc(r.heldOut)} | ${spread(r.heldOut)} | ${f3(r.heldOut.ks)} |`,
    ),
    '',
    `Train–test gap of the model (pooled training AUC − pooled held-out AUC): ${f3(p.trainTestGap)}.`,
    '',
    `Against the challenger (model − logistic regression, paired cluster bootstrap): ${f3(p.versusChallenger.difference)} (${f3(p.versusChallenger.low)} to ${f3(p.versusChallenger.high)}); the criterion is a lower bound above −0.01: ${p.versusChallenger.low > -0.01 ? 'met' : 'NOT met'}.`,
    '',
    ...ceilingLiftLines(p.ceilingLift),
    '',
    "Calibration: each decile's stated probability (measured at T on the training population by `pnpm model:fit`) beside the held-out rate and its Wilson 95 % interval; deciles with fewer than 50 held-out wallets are shown, not judged.",
    '',
    '| Decile | Stated | Held-out wallets | Observed | 95 % interval | Within | Share held out | Share training |',
    '|---:|---:|---:|---:|---|---|---:|---:|',
    ...p.calibration.rows.map(
      (row) =>
        `| ${row.decile} | ${pct(row.stated)} | ${row.count} | ${pct(row.observed)} | ${row.low === null ? '—' : `${pct(row.low)}–${pct(row.high)}`} | ${row.within === null ? 'not judged' : row.within ? 'yes' : 'NO'} | ${pct(row.share)} | ${pct(row.trainingShare)} |`,
    ),
    '',
    `Every judged decile within its interval: ${p.calibration.allWithin ? 'yes' : 'NO'}. Observed rates monotone in decile: ${p.calibration.monotone ? 'yes' : 'NO'}. Brier ${p.calibration.brier.toFixed(4)} against ${p.calibration.brierBaseRate.toFixed(4)} for the base rate: skill ${f3(p.calibration.brierSkill)}. PSI of decile occupancy against training at T: ${f3(p.calibration.psi)} (criterion < 0.1: ${p.calibration.psi < 0.1 ? 'met' : 'NOT met'}).`,
    '',
    'Per held-out family (pooled over its worlds):',
    '',
    '| Family | Wallets | Liquidated | Model AUC | Health factor AUC |',
    '|---|---:|---:|---:|---:|',
    ...Object.entries(p.byFamily).map(
      ([family, x]) => `| ${family} | ${x.wallets} | ${x.liquidated} | ${f3(x.modelAuc)} | ${f3(x.healthFactorAuc)} |`,
    ),
    '',
    "Ablations: each factor's points left out of the score, the held-out pooled AUC:",
    '',
    '| Factor left out | Held-out AUC | Change |',
    '|---|---:|---:|',
    ...p.ablations.map((a) => `| ${a.factor} | ${f3(a.heldOutAuc)} | ${a.change >= 0 ? '+' : ''}${f3(a.change)} |`),
    '',
  ];
}

/** The evaluation section of docs/MODEL.md, rendered from a report (`pnpm model:evaluate`). */
export function renderEvaluation(report: EvaluationReport): string {
  const atRisk = report.populations.atRisk;
  const lines: string[] = [
    EVALUATION_BEGIN,
    '<!-- Written by `pnpm model:evaluate` from the registered protocol. Do not edit by hand. -->',
    '',
    `Table revision ${report.revision}, fingerprint \`${report.tableHash}\`; protocol fingerprint \`${report.protocolHash}\` (both registered in docs/model-registration.json${report.registrationCommit ? `, commit ${report.registrationCommit.slice(0, 10)},` : ''} before this run). ${report.worlds.training.length} training worlds, ${report.worlds.heldOut.length} held-out worlds. Features at T, outcome a liquidation in (T, T + 90 days].`,
    '',
    ...POPULATIONS.flatMap((p) => populationLines(p.title, p.about, report.populations[p.key])),
    '### Worlds',
    '',
    '| World | Family | Jumps / yr | Jump depth | Daily vol | Floor | APR | WETH | Loan share (bps) | Holders | Skew | Scarred | Model AUC (at risk) |',
    '|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|',
    ...[...report.worlds.training, ...report.worlds.heldOut].map((w) => {
      const p = w.params;
      const a = w.role === 'held-out' ? f3(atRisk.heldOutByWorld[w.name] ?? null) : '—';
      const v = (x: unknown) => (x === undefined ? 'ref.' : Array.isArray(x) ? x.join('–') : String(x));
      return `| ${w.name} | ${w.family} | ${v(p.jumpsPerYear)} | ${v(p.jumpDepth)} | ${v(p.dailyVol)} | ${v(p.priceFloor)} | ${v(p.interestApr)} | ${v(p.wethShare)} | ${v(p.loanShare)} | ${v(p.holderShare)} | ${v(p.disciplineSkew)} | ${v(p.scarredShare)} | ${a} |`;
    }),
    '',
    `CI guard: the held-out world \`${report.guard.world}\` is seeded again in CI; the model's AUC on its wallets at risk (${f3(report.guard.worldAuc)} here) must stay at or above ${f3(report.guard.minWorldAuc)}, the 5th percentile of the held-out worlds' AUCs, and the table's fingerprint must match this evaluation's.`,
    EVALUATION_END,
  ];
  return lines.join('\n');
}

export const withEvaluation = (markdown: string, section: string): string =>
  withSection(markdown, section, EVALUATION_BEGIN, EVALUATION_END);
