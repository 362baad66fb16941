import type { RangeLabel } from '@credit/contracts/schemas/common';
import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { decileOf } from '@credit/score-model/deciles';
import { CHARACTERISTICS, type Characteristic, type Segment } from '@credit/score-model/andromeda/characteristics';
import { binText } from '@credit/score-model/andromeda/factors';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { rangeOf } from '@credit/score-model/score-bands';
import type { CalibrationResult } from './population';
import type { ReferenceRun } from './reference-run';

/**
 * The measured parts of docs/MODEL.md, rendered from a reference run (`pnpm model:card` writes
 * them between the `<!-- measured:begin -->` / `<!-- measured:end -->` markers; the prose around
 * them is written by hand). Tests read the same markdown back: the cast table (`parseCastTable`).
 */

export const MEASURED_BEGIN = '<!-- measured:begin -->';
export const MEASURED_END = '<!-- measured:end -->';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const f3 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));

/** One row of the cast table as a reader (and the end-to-end test) sees it. */
export interface CastRow {
  role: string;
  address: string;
  /** null: no on-chain activity (the API answers 404). */
  score: number | null;
  decile: number | null;
  range: RangeLabel | null;
  /** Per factor: points and rating. */
  factors: Partial<Record<FactorLabel, { points: number; rating: RangeLabel }>>;
}

function calibrationLines(title: string, r: CalibrationResult): string[] {
  return [
    `**${title}**: ${r.population} wallets, ${r.liquidated} liquidated in the window; mean score ${r.meanScoreLiquidated?.toFixed(1)} (liquidated) vs ${r.meanScoreOthers?.toFixed(1)} (others).`,
    '',
    `| Factor alone | ${FACTOR_LABELS.join(' | ')} |`,
    `|---|${FACTOR_LABELS.map(() => '---:').join('|')}|`,
    `| AUC | ${FACTOR_LABELS.map((l) => f3(r.factorAuc[l] ?? null)).join(' | ')} |`,
    '',
  ];
}

/** The fitted table (`ANDROMEDA_1_0`) as markdown, point by point, so the card cannot drift from the code. */
export function renderModelTable(): string {
  const M = ANDROMEDA_1_0;
  const f = M.fittedOn;
  const lines: string[] = [
    `### The table (\`ANDROMEDA_1_0\`, revision ${M.revision})`,
    '',
    `Fitted by \`pnpm model:fit\` on protocol \`${f.protocol}\`: ${f.worlds} training worlds, ${f.wallets} wallets, ${f.liquidated} liquidated; L2 penalty ${f.lambda}. Scale: ${M.scale.evenOddsScore} at even odds, ${M.scale.pointsToDoubleOdds} points double the odds. Bases: debt ${M.segments.debt.base}, no debt ${M.segments.noDebt.base}.`,
    '',
    '| Factor | Characteristic | Bins | Points, debt | Points, no debt |',
    '|---|---|---|---|---|',
  ];
  for (const c of CHARACTERISTICS as readonly Characteristic[]) {
    const bins = Array.from({ length: c.edges.length + 1 }, (_, k) => binText(c.edges, k)).join(' · ');
    const points = (segment: Segment) =>
      (M.segments[segment].points as Record<string, readonly number[] | undefined>)[c.id]?.join(' · ') ?? '—';
    lines.push(`| ${c.factor} | ${c.name} | ${bins} | ${points('debt')} | ${points('noDebt')} |`);
  }
  lines.push(
    '',
    `Caps: after a liquidation 300 + 700 × (1 − 2^(−days / ${M.recovery.halfLifeDays})); too little history (under ${M.thin.minAgeDays} days old) at most ${M.thin.maxScore}. No activity at all: ${M.emptyScore}.`,
    '',
  );
  return lines.join('\n');
}

/** The monotonicity replay's counts (`ReferenceRun.replay`). */
export function replaySummary(run: Pick<ReferenceRun, 'replay'>): {
  liquidations: number;
  raised: number;
  liquidationsLowered: number;
  repayments: number;
  lowered: number;
  repaymentsRaised: number;
} {
  const liquidations = run.replay.filter((e) => e.kind === 'liquidation');
  const repayments = run.replay.filter((e) => e.kind === 'repay');
  const moved = (list: typeof liquidations, up: boolean) =>
    list.filter((e) => e.before !== null && e.after !== null && (up ? e.after > e.before : e.after < e.before)).length;
  return {
    liquidations: liquidations.length,
    raised: moved(liquidations, true),
    liquidationsLowered: moved(liquidations, false),
    repayments: repayments.length,
    lowered: moved(repayments, false),
    repaymentsRaised: moved(repayments, true),
  };
}

export function renderMeasured(run: ReferenceRun): string {
  const cut = ANDROMEDA_1_0.decileCutPoints;
  const measuredCut = run.now.cutPoints;
  const lines: string[] = [
    MEASURED_BEGIN,
    '<!-- Written by `pnpm model:card` from a run on the reference world. Do not edit by hand. -->',
    '',
    renderModelTable(),
    `Reference world: seed \`credit-devnet\`, ${run.now.population} population wallets on chains ${run.chainIds.join(' and ')}, head (the moment of scoring) ${iso(run.asOfNow)}, features moment T ${iso(run.shockAt)} (the outcome window runs 90 days from it).`,
    '',
    '### Rank ordering on the reference world (in sample)',
    '',
    `AUC on the reference world: ${run.preShock.auc?.toFixed(4)} (the population scored on what was on chain at the features moment T, against the liquidations of the 90-day window after it; 1 = perfect, 0.5 = chance). The reference world is one of the training worlds; the held-out figures are in "Evaluation" above.`,
    '',
    ...calibrationLines('At T', run.preShock),
    `For comparison only: scored at the head, where the window's liquidations are already in the features, the AUC is ${run.now.auc?.toFixed(4)}; that figure measures the leak, not the model.`,
    '',
    '### Monotonicity replay',
    '',
    (() => {
      const r = replaySummary(run);
      return `Every repayment and every liquidation of the population and the cast, scored through the pipeline one block before and at its block: ${r.liquidations} liquidations, ${r.raised} raised a score (${r.liquidationsLowered} lowered it, the rest left it unchanged); ${r.repayments} repayments, ${r.lowered} lowered a score (${r.repaymentsRaised} raised it).`;
    })(),
    '',
    '### Deciles',
    '',
    `Cut-points and stated probabilities measured at T on the training population (\`pnpm model:fit\`): \`[${cut.join(', ')}]\`. For comparison, the reference world scored at its head splits at \`[${measuredCut.join(', ')}]\`.`,
    '',
    '| Decile | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| Scores | ${Array.from({ length: 10 }, (_, i) => `${i === 0 ? 300 : cut[i - 1]}–${i === 9 ? 1000 : cut[i]! - 1}`).join(' | ')} |`,
    `| P(liquidated within 90 days) | ${ANDROMEDA_1_0.decileRates.map((p) => `${(100 * p).toFixed(1)} %`).join(' | ')} |`,
    '',
    '### The cast',
    '',
    `Each cast wallet as the API scores it at the reference world's head (\`GET /api/v2/score/address/{a}?include_factors=true\`). Factor cells are points (0–100) and rating.`,
    '',
    `| Wallet | Address | Score | Decile | Range | ${FACTOR_LABELS.join(' | ')} |`,
    `|---|---|---:|---:|---|${FACTOR_LABELS.map(() => '---').join('|')}|`,
  ];
  for (const c of run.cast) {
    const r = c.result;
    const cells =
      r === null
        ? ['404', '—', '—', ...FACTOR_LABELS.map(() => '—')]
        : [
            String(r.score),
            String(decileOf(r.score, cut)),
            rangeOf(r.score),
            ...FACTOR_LABELS.map((l) => {
              const factor = r.factors.find((x) => x.label === l)!;
              return `${factor.points} ${factor.rating}`;
            }),
          ];
    lines.push(`| ${c.role}${c.ens ? ` (${c.ens})` : ''} | \`${c.address}\` | ${cells.join(' | ')} |`);
  }
  lines.push('', '### How each cast score is computed', '');
  for (const c of run.cast) {
    lines.push(`#### ${c.role}${c.ens ? ` (${c.ens})` : ''}`, '');
    const f = c.features;
    lines.push(
      `Features: age ${f.walletAgeDays.toFixed(2)} days, last dealing ${f.daysSinceLastActivity.toFixed(2)} days ago, ${f.txCount} transactions and ${f.transferCount} token transfers with others, ${f.counterparties} counterparties, ${f.activeMonths} of the last 12 months active, ${f.activeChains} chain(s); assets held through 30 days ${f.totalAssetUsd.toFixed(2)} USD (${f.stablecoinUsd.toFixed(2)} in stablecoins, ${f.assetCount} asset(s)); collateral ${f.collateralUsd.toFixed(2)} USD, debt ${f.debtUsd.toFixed(2)} USD, health factor ${f.healthFactor === null ? 'none (no debt)' : f.healthFactor.toFixed(4)}; ${f.supplyCount} supplies, ${f.borrowCount} borrows, ${f.repayCount} own repayments, ${f.liquidationCount} liquidation(s)${f.daysSinceLastLiquidation === null ? '' : `, the latest ${f.daysSinceLastLiquidation.toFixed(2)} days ago`}; ${f.identityAttestations} attestations (passport ${f.passportScore ?? 'none'}, a name held ${f.ensHeldDays === null ? 'none' : `${Math.floor(f.ensHeldDays)} days`}, ${f.poapsAged} POAP(s) a year old).`,
      '',
    );
    const r = c.result;
    if (r === null) {
      lines.push('No recorded activity or holding at all: not scored, the API answers 404.', '');
      continue;
    }
    for (const factor of r.factors)
      lines.push(`- ${factor.label}: **+${factor.scorePoints}** (${factor.points}/100, ${factor.rating}) — ${factor.reasons.join('; ')}`);
    const raw = ANDROMEDA_1_0.segments[r.segment].base + r.factors.reduce((s, x) => s + x.scorePoints, 0);
    lines.push(
      '',
      `${r.segment === 'debt' ? 'Debt' : 'No-debt'} scorecard: base ${ANDROMEDA_1_0.segments[r.segment].base} + ${r.factors.map((x) => x.scorePoints).join(' + ')} = ${raw.toFixed(1)} (a ${(100 * r.probability).toFixed(2)} % probability of a liquidation within 90 days) → **${r.score}**${r.score < Math.round(raw) ? ' after the caps' : ''} (decile ${decileOf(r.score, cut)}, ${rangeOf(r.score)}).`,
      '',
    );
  }
  lines.push(MEASURED_END);
  return lines.join('\n');
}

/**
 * `markdown` with the generated section between `beginMarker` and `endMarker` replaced by
 * `section` (which carries the markers itself); appended when there is none.
 */
export function withSection(markdown: string, section: string, beginMarker: string, endMarker: string): string {
  const begin = markdown.indexOf(beginMarker);
  const end = markdown.indexOf(endMarker);
  if (begin < 0 || end < begin) return `${markdown.trimEnd()}\n\n${section}\n`;
  return `${markdown.slice(0, begin)}${section}${markdown.slice(end + endMarker.length)}`;
}

/** `markdown` with its measured section replaced by `measured` (appended when there is none). */
export const withMeasured = (markdown: string, measured: string): string => withSection(markdown, measured, MEASURED_BEGIN, MEASURED_END);

/** The cast table of docs/MODEL.md, row by row. */
export function parseCastTable(markdown: string): CastRow[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| Wallet | Address | Score |'));
  if (header < 0) throw new Error('docs/MODEL.md has no cast table');
  const rows: CastRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const [wallet, address, score, decile, range, ...factorCells] = cells;
    const scored = score !== '404';
    const factors: CastRow['factors'] = {};
    if (scored) {
      FACTOR_LABELS.forEach((label, i) => {
        const [points, rating] = factorCells[i]!.split(' ');
        factors[label] = { points: Number(points), rating: rating as RangeLabel };
      });
    }
    rows.push({
      role: wallet!.split(' ')[0]!,
      address: address!.replace(/`/g, ''),
      score: scored ? Number(score) : null,
      decile: scored ? Number(decile) : null,
      range: scored ? (range as RangeLabel) : null,
      factors,
    });
  }
  return rows;
}
