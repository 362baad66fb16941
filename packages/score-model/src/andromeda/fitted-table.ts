// Written by `pnpm model:fit` (tools/model-lab/src/fit.ts) from the protocol's training worlds; do not edit by hand.
// Points per bin of each characteristic (./characteristics.ts), per segment; see docs/MODEL.md.
export const FITTED_TABLE = {
  revision: '2026-11-27',
  fittedOn: { protocol: 'a087b4e757bc1752', worlds: 12, wallets: 1950, liquidated: 221, lambda: 0.01 },
  segments: {
    debt: {
      base: 548.7,
      points: {
        coveredHealthFactor: [0, 0, 0, 0, 8, 18.1, 36.5, 48.9, 74.6, 96.5, 112.8, 121.7],
        freeShare: [0, 0, 0, 0, 7, 17.8, 35.3, 35.3, 35.3],
        netWorthUsd: [0, 0, 0, 4.9, 15.2, 22.8, 22.8, 22.8],
        stablecoinShare: [0, 0, 0, 0, 0],
        repaidUsdDays: [0, 0.9, 13, 29.2, 33.5, 33.5, 33.5],
        daysSinceLiquidation: [0, 0, 0, 0, 0],
        activeMonths: [0, 0, 6.3, 6.3, 6.3, 6.3],
        counterparties: [0, 0, 0, 0, 0],
        passport: [0, 0],
        ensHeldDays: [0, 0, 0],
        poapsAged: [0, 0, 0],
        walletAgeDays: [0, 0, 0, 0, 0, 9.2],
      },
    },
    noDebt: {
      base: 903,
      points: {
        netWorthUsd: [0, 0, 0, 4.9, 15.2, 22.8, 22.8, 22.8],
        stablecoinShare: [0, 0, 0, 0, 0],
        repaidUsdDays: [0, 0.9, 13, 29.2, 33.5, 33.5, 33.5],
        daysSinceLiquidation: [0, 0, 0, 0, 0],
        activeMonths: [0, 0, 6.3, 6.3, 6.3, 6.3],
        counterparties: [0, 0, 0, 0, 0],
        passport: [0, 0],
        ensHeldDays: [0, 0, 0],
        poapsAged: [0, 0, 0],
        walletAgeDays: [0, 0, 0, 0, 0, 9.2],
      },
    },
  },
  /** The nine scores that split the training population at T into tenths. */
  decileCutPoints: [625, 653, 687, 711, 734, 767, 908, 914, 931] as readonly number[],
  /** Each decile's stated probability of a liquidation within 90 days (mean over the training population at T). */
  decileRates: [0.4977, 0.2897, 0.1653, 0.0935, 0.0564, 0.0318, 0.0021, 0.0008, 0.0006, 0.0004] as readonly number[],
} as const;
