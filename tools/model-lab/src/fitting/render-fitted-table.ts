import type { Scorecards } from '@credit/score-model/andromeda/characteristics';

export interface FittedTableFile {
  revision: string;
  fittedOn: { protocol: string; worlds: number; wallets: number; liquidated: number; lambda: number };
  cards: Scorecards;
  decileCutPoints: readonly number[];
  decileRates: readonly number[];
}

/** The source of packages/score-model/src/andromeda/fitted-table.ts for a fit. */
export function renderFittedTable(t: FittedTableFile): string {
  const card = (name: string, c: Scorecards[keyof Scorecards]) =>
    [
      `    ${name}: {`,
      `      base: ${c.base},`,
      '      points: {',
      ...Object.entries(c.points).map(([id, points]) => `        ${id}: [${(points ?? []).join(', ')}],`),
      '      },',
      '    },',
    ].join('\n');
  return [
    "// Written by `pnpm model:fit` (tools/model-lab/src/fit.ts) from the protocol's training worlds; do not edit by hand.",
    '// Points per bin of each characteristic (./characteristics.ts), per segment; see docs/MODEL.md.',
    'export const FITTED_TABLE = {',
    `  revision: '${t.revision}',`,
    `  fittedOn: { protocol: '${t.fittedOn.protocol}', worlds: ${t.fittedOn.worlds}, wallets: ${t.fittedOn.wallets}, liquidated: ${t.fittedOn.liquidated}, lambda: ${t.fittedOn.lambda} },`,
    '  segments: {',
    card('debt', t.cards.debt),
    card('noDebt', t.cards.noDebt),
    '  },',
    '  /** The nine scores that split the training population at T into tenths. */',
    `  decileCutPoints: [${t.decileCutPoints.join(', ')}] as readonly number[],`,
    "  /** Each decile's stated probability of a liquidation within 90 days (mean over the training population at T). */",
    `  decileRates: [${t.decileRates.join(', ')}] as readonly number[],`,
    '} as const;',
    '',
  ].join('\n');
}
