#!/usr/bin/env node
// Computes the nine decile cut-points of src/generator/decile-cut-points.ts from the sandbox generator's score
// distribution. Run after `pnpm --filter @credit/sandbox build`:
//   node apps/sandbox/scripts/calibrate-deciles.js [sampleSize]
// The sample keys are fixed (`calibration:<i>`), so the output is reproducible; paste it into
// SANDBOX_DECILE_CUT_POINTS.
'use strict';
const { sandboxScore } = require('../dist/generator/profile');

const size = Number(process.argv[2] ?? 50_000);
const counts = new Map();
for (let i = 0; i < size; i++) {
  const score = sandboxScore(`calibration:${i}`);
  counts.set(score, (counts.get(score) ?? 0) + 1);
}
const scores = [...counts.keys()].sort((a, b) => a - b);
// below[s] = how many sampled scores are < s
const cuts = [];
for (let k = 1; k <= 9; k++) {
  const target = (k * size) / 10;
  let below = 0;
  let best = { cut: scores[0], error: Infinity };
  for (const s of scores) {
    const error = Math.abs(below - target);
    if (error < best.error) best = { cut: s, error };
    below += counts.get(s);
  }
  cuts.push(best.cut);
}
const share = (lo, hi) => [...counts].filter(([s]) => s >= lo && s < hi).reduce((n, [, c]) => n + c, 0) / size;
const bounds = [-Infinity, ...cuts, Infinity];
console.log(JSON.stringify(cuts));
console.log(
  bounds
    .slice(0, -1)
    .map((lo, i) => (share(lo, bounds[i + 1]) * 100).toFixed(2) + '%')
    .join(' '),
);
