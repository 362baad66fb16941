import { createHash } from 'node:crypto';
import { WORLD_RECIPE_VERSION } from '@credit/devnet/devnet';
import { REFERENCE_WORLD } from '@credit/devnet/seed/reference-world';
import type { WorldParams } from '@credit/devnet/seed/world-params';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { seededRandom } from './seeded-random';

/**
 * The frozen evaluation protocol of andromeda_1.0 (docs/MODEL.md, "Evaluation"): which worlds the
 * table may be tuned on and which it is judged on. Every world is seeded on a devnet from the same
 * generator (packages/devnet/src/seed/population.ts) at the reference anchor; features are read at
 * the features moment T, the outcome is a liquidation in (T, T + 90 days].
 *
 * The held-out worlds draw their parameters from ranges the training worlds never see: deeper
 * price jumps, more of them, a collateral mix further from the reference, a different spread of
 * loan-to-value. A table that only fits the training worlds' market shows it here.
 */
export interface EvaluationWorld {
  name: string;
  role: 'training' | 'held-out';
  seed: string;
  populationSize: number;
  params: Partial<WorldParams>;
}

/** Bump when the feature mapping changes: the cached world datasets are then read again. 2: windowed balances, dealings, trust evidence (issue 33). */
export const EVALUATION_DATA_VERSION = 2;

export const TRAINING_WORLDS = 8;
export const HELD_OUT_WORLDS = 24;
export const WORLD_POPULATION = 150;

type Range = readonly [number, number];
interface ParamRanges {
  jumpsPerYear: Range;
  jumpDepthMax: Range;
  wethShare: readonly Range[];
  loanShareMax: readonly Range[];
}

/** Training: around the reference market (4 jumps a year of 8–25 %, 70 % WETH, loans up to 94 % of power). */
export const TRAINING_RANGES: ParamRanges = {
  jumpsPerYear: [3, 5],
  jumpDepthMax: [0.18, 0.28],
  wethShare: [[0.6, 0.8]],
  loanShareMax: [[8_800, 9_400]],
};

/** Held out: rougher markets and other books, none of it inside the training ranges. */
export const HELD_OUT_RANGES: ParamRanges = {
  jumpsPerYear: [5.5, 9],
  jumpDepthMax: [0.3, 0.42],
  wethShare: [
    [0.3, 0.55],
    [0.85, 0.95],
  ],
  loanShareMax: [
    [7_600, 8_600],
    [9_420, 9_500],
  ],
};

function drawParams(name: string, ranges: ParamRanges): Partial<WorldParams> {
  const random = seededRandom(`evaluation:${name}`);
  const within = ([lo, hi]: Range) => lo + (hi - lo) * random();
  const among = (options: readonly Range[]) => within(options[Math.floor(random() * options.length)]!);
  const jumpDepthMax = Math.round(within(ranges.jumpDepthMax) * 1000) / 1000;
  const loanShareMax = Math.round(among(ranges.loanShareMax));
  return {
    jumpsPerYear: Math.round(within(ranges.jumpsPerYear) * 100) / 100,
    jumpDepth: [Math.round(jumpDepthMax * 0.35 * 1000) / 1000, jumpDepthMax],
    wethShare: Math.round(among(ranges.wethShare) * 1000) / 1000,
    loanShare: [Math.min(3_500, loanShareMax - 1_000), loanShareMax],
  };
}

/** `count` worlds named `<prefix>-1…`, each with parameters drawn from `ranges` by its name. */
function drawnWorlds(prefix: string, role: EvaluationWorld['role'], count: number, ranges: ParamRanges): EvaluationWorld[] {
  return Array.from({ length: count }, (_, i): EvaluationWorld => {
    const name = `${prefix}-${i + 1}`;
    return { name, role, seed: `andromeda-${name}`, populationSize: WORLD_POPULATION, params: drawParams(name, ranges) };
  });
}

/** The protocol's worlds: the reference world and seven more for training, 24 held out. */
export function evaluationWorlds(): EvaluationWorld[] {
  return [
    { name: 'reference', role: 'training', seed: REFERENCE_WORLD.seed, populationSize: REFERENCE_WORLD.populationSize, params: {} },
    ...drawnWorlds('train', 'training', TRAINING_WORLDS - 1, TRAINING_RANGES),
    ...drawnWorlds('heldout', 'held-out', HELD_OUT_WORLDS, HELD_OUT_RANGES),
  ];
}

/** A world's identity for the dataset cache: its definition, the generator's recipe, the data version. */
export function worldKey(world: EvaluationWorld): string {
  const text = JSON.stringify({ world, recipe: WORLD_RECIPE_VERSION, data: EVALUATION_DATA_VERSION });
  return `${world.name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

/** The frozen table's fingerprint: an evaluation belongs to exactly one table. */
export function tableHash(): string {
  return createHash('sha256').update(JSON.stringify(ANDROMEDA_1_0)).digest('hex').slice(0, 16);
}
