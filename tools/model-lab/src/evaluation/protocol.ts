import { createHash } from 'node:crypto';
import { WORLD_RECIPE_VERSION } from '@credit/devnet/devnet';
import { REFERENCE_WORLD } from '@credit/devnet/seed/reference-world';
import type { WorldParams } from '@credit/devnet/seed/world-params';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { seededRandom } from './seeded-random';

/**
 * The evaluation protocol of andromeda_1.0 (docs/MODEL.md, "Evaluation"): which worlds the table
 * is fitted on and which it is judged on. Every world is seeded on a devnet from the same
 * generator (packages/devnet/src/seed/population.ts) at the reference anchor; features are read at
 * the features moment T, the outcome is a liquidation in (T, T + 90 days].
 *
 * Training draws every generator setting from one broad prior. Each held-out family pushes one
 * setting outside it (or sets several at fixed values, registered before the fit): diffusion-driven
 * markets, deeper crashes with lower floors, calm markets, high rates, a reckless population, a
 * careful and holder-heavy one, one scarred by liquidations before T, and a fixed-parameter family.
 */
export interface EvaluationWorld {
  name: string;
  role: 'training' | 'held-out';
  /** The held-out family (training worlds: 'training'). */
  family: string;
  seed: string;
  populationSize: number;
  params: Partial<WorldParams>;
}

/**
 * Bump when the feature mapping or a dataset's fields change: the cached world datasets are then
 * read again. 2: windowed balances, dealings, trust evidence (issue 33). 3: the market-blind ceiling.
 */
export const EVALUATION_DATA_VERSION = 3;

export const WORLD_POPULATION = 150;
export const TRAINING_WORLDS = 12;
export const WORLDS_PER_FAMILY = 4;

type Range = readonly [number, number];
/** A range per generator setting (jump depth: its maximum; the minimum is 35 % of it; loan share: its maximum in bps). */
type Prior = Record<
  | 'jumpsPerYear'
  | 'jumpDepthMax'
  | 'dailyVol'
  | 'priceFloor'
  | 'interestApr'
  | 'wethShare'
  | 'loanShareMax'
  | 'holderShare'
  | 'disciplineSkew'
  | 'scarredShare',
  Range
>;

/** Training: one broad prior over every setting the generator has. */
export const TRAINING_PRIOR: Prior = {
  jumpsPerYear: [2, 7],
  jumpDepthMax: [0.15, 0.38],
  dailyVol: [0.01, 0.026],
  priceFloor: [0.42, 0.7],
  interestApr: [0.02, 0.14],
  wethShare: [0.45, 0.85],
  loanShareMax: [8_400, 9_450],
  holderShare: [0.1, 0.35],
  disciplineSkew: [0.75, 1.4],
  scarredShare: [0, 0.15],
};

/** The held-out families: each overrides part of the prior with ranges it never reaches. */
export const HELD_OUT_FAMILIES: Record<string, Partial<Prior>> = {
  volatile: { dailyVol: [0.032, 0.045], jumpsPerYear: [0.5, 1.5] },
  crash: { jumpDepthMax: [0.45, 0.55], priceFloor: [0.35, 0.4] },
  calm: { jumpsPerYear: [0, 1], dailyVol: [0.004, 0.008], priceFloor: [0.75, 0.9] },
  rates: { interestApr: [0.2, 0.35] },
  reckless: { disciplineSkew: [1.7, 2.5], holderShare: [0.02, 0.07] },
  careful: { disciplineSkew: [0.35, 0.6], holderShare: [0.45, 0.65] },
  scarred: { scarredShare: [0.3, 0.45] },
};

/**
 * A family whose generator settings were fixed, one world each, before the model was fitted
 * (registered in docs/model-registration.json with the protocol's hash).
 */
export const FIXED_FAMILY: readonly Partial<WorldParams>[] = [
  {
    jumpsPerYear: 3,
    jumpDepth: [0.2, 0.5],
    dailyVol: 0.02,
    priceFloor: 0.4,
    interestApr: 0.1,
    wethShare: 0.5,
    loanShare: [4_000, 9_500],
    holderShare: 0.3,
    disciplineSkew: 1.2,
    scarredShare: 0.2,
  },
  {
    jumpsPerYear: 8,
    jumpDepth: [0.05, 0.15],
    dailyVol: 0.012,
    priceFloor: 0.6,
    interestApr: 0.04,
    wethShare: 0.95,
    loanShare: [3_000, 9_000],
    holderShare: 0.15,
    disciplineSkew: 0.9,
    scarredShare: 0.05,
  },
  {
    jumpsPerYear: 1,
    jumpDepth: [0.3, 0.6],
    dailyVol: 0.03,
    priceFloor: 0.36,
    interestApr: 0.25,
    wethShare: 0.2,
    loanShare: [5_000, 9_500],
    holderShare: 0.05,
    disciplineSkew: 2,
    scarredShare: 0.3,
  },
  {
    jumpsPerYear: 5,
    jumpDepth: [0.1, 0.3],
    dailyVol: 0.008,
    priceFloor: 0.8,
    interestApr: 0.02,
    wethShare: 0.7,
    loanShare: [2_000, 8_000],
    holderShare: 0.6,
    disciplineSkew: 0.5,
    scarredShare: 0,
  },
];

/**
 * A second fixed family, written down after revision 2026-11-26's held-out run (which read every
 * family above) and before revision 2026-11-26.2 was fitted: the only worlds no revision's choices
 * could have seen when 2026-11-26.2 was registered.
 */
export const FIXED_FAMILY_2: readonly Partial<WorldParams>[] = [
  {
    jumpsPerYear: 6,
    jumpDepth: [0.15, 0.45],
    dailyVol: 0.025,
    priceFloor: 0.38,
    interestApr: 0.08,
    wethShare: 0.35,
    loanShare: [3_500, 9_300],
    holderShare: 0.25,
    disciplineSkew: 1.6,
    scarredShare: 0.25,
  },
  {
    jumpsPerYear: 2,
    jumpDepth: [0.1, 0.25],
    dailyVol: 0.014,
    priceFloor: 0.65,
    interestApr: 0.18,
    wethShare: 0.8,
    loanShare: [2_500, 9_450],
    holderShare: 0.4,
    disciplineSkew: 0.7,
    scarredShare: 0.1,
  },
  {
    jumpsPerYear: 10,
    jumpDepth: [0.05, 0.2],
    dailyVol: 0.018,
    priceFloor: 0.5,
    interestApr: 0.05,
    wethShare: 0.6,
    loanShare: [4_000, 9_000],
    holderShare: 0.1,
    disciplineSkew: 1.1,
    scarredShare: 0.35,
  },
  {
    jumpsPerYear: 0.5,
    jumpDepth: [0.35, 0.6],
    dailyVol: 0.035,
    priceFloor: 0.36,
    interestApr: 0.12,
    wethShare: 0.5,
    loanShare: [3_000, 9_500],
    holderShare: 0.2,
    disciplineSkew: 1.3,
    scarredShare: 0.15,
  },
];

/**
 * A third fixed family, written down in docs/model-tuning-log.md (2026-11-27) before any fit that
 * could read it: unseen by revision 2026-11-26.2, which was fitted the day before.
 */
export const FIXED_FAMILY_3: readonly Partial<WorldParams>[] = [
  {
    jumpsPerYear: 4,
    jumpDepth: [0.25, 0.55],
    dailyVol: 0.03,
    priceFloor: 0.45,
    interestApr: 0.15,
    wethShare: 0.65,
    loanShare: [3_000, 9_200],
    holderShare: 0.2,
    disciplineSkew: 1.8,
    scarredShare: 0.2,
  },
  {
    jumpsPerYear: 1.5,
    jumpDepth: [0.1, 0.2],
    dailyVol: 0.006,
    priceFloor: 0.7,
    interestApr: 0.3,
    wethShare: 0.3,
    loanShare: [4_500, 9_400],
    holderShare: 0.5,
    disciplineSkew: 0.6,
    scarredShare: 0.05,
  },
  {
    jumpsPerYear: 7,
    jumpDepth: [0.2, 0.4],
    dailyVol: 0.02,
    priceFloor: 0.42,
    interestApr: 0.06,
    wethShare: 0.9,
    loanShare: [2_000, 9_000],
    holderShare: 0.08,
    disciplineSkew: 1.4,
    scarredShare: 0.4,
  },
  {
    jumpsPerYear: 3,
    jumpDepth: [0.3, 0.5],
    dailyVol: 0.045,
    priceFloor: 0.35,
    interestApr: 0.1,
    wethShare: 0.5,
    loanShare: [3_500, 9_450],
    holderShare: 0.3,
    disciplineSkew: 1.0,
    scarredShare: 0.1,
  },
];

/** A world's generator settings drawn from `prior`, by a generator of its own (`evaluation:<name>`). */
export function drawParams(name: string, prior: Prior): Partial<WorldParams> {
  const random = seededRandom(`evaluation:${name}`);
  const within = ([lo, hi]: Range, digits = 3) => Math.round((lo + (hi - lo) * random()) * 10 ** digits) / 10 ** digits;
  const jumpDepthMax = within(prior.jumpDepthMax);
  const loanShareMax = Math.round(within(prior.loanShareMax, 0));
  return {
    jumpsPerYear: within(prior.jumpsPerYear, 2),
    jumpDepth: [Math.round(jumpDepthMax * 0.35 * 1000) / 1000, jumpDepthMax],
    dailyVol: within(prior.dailyVol, 4),
    priceFloor: within(prior.priceFloor),
    interestApr: within(prior.interestApr),
    wethShare: within(prior.wethShare),
    loanShare: [Math.min(3_500, loanShareMax - 1_000), loanShareMax],
    holderShare: within(prior.holderShare),
    disciplineSkew: within(prior.disciplineSkew),
    scarredShare: within(prior.scarredShare),
  };
}

function world(name: string, role: EvaluationWorld['role'], family: string, params: Partial<WorldParams>): EvaluationWorld {
  return { name, role, family, seed: `andromeda-${name}`, populationSize: WORLD_POPULATION, params };
}

/** The protocol's worlds: the reference world and 11 more for training; 4 per held-out family. */
export function evaluationWorlds(): EvaluationWorld[] {
  const training = Array.from({ length: TRAINING_WORLDS - 1 }, (_, i) =>
    world(`fit-${i + 1}`, 'training', 'training', drawParams(`fit-${i + 1}`, TRAINING_PRIOR)),
  );
  const families = Object.entries(HELD_OUT_FAMILIES).flatMap(([family, ranges]) =>
    Array.from({ length: WORLDS_PER_FAMILY }, (_, i) => {
      const name = `${family}-${i + 1}`;
      return world(name, 'held-out', family, drawParams(name, { ...TRAINING_PRIOR, ...ranges }));
    }),
  );
  const fixed = FIXED_FAMILY.map((params, i) => world(`fixed-${i + 1}`, 'held-out', 'fixed', params));
  const fixed2 = FIXED_FAMILY_2.map((params, i) => world(`fixed2-${i + 1}`, 'held-out', 'fixed-2', params));
  const fixed3 = FIXED_FAMILY_3.map((params, i) => world(`fixed3-${i + 1}`, 'held-out', 'fixed-3', params));
  return [
    {
      name: 'reference',
      role: 'training',
      family: 'training',
      seed: REFERENCE_WORLD.seed,
      populationSize: REFERENCE_WORLD.populationSize,
      params: {},
    },
    ...training,
    ...families,
    ...fixed,
    ...fixed2,
    ...fixed3,
  ];
}

/** A world's identity for the dataset cache: its definition, the generator's recipe, the data version. */
export function worldKey(world: EvaluationWorld): string {
  const text = JSON.stringify({ world, recipe: WORLD_RECIPE_VERSION, data: EVALUATION_DATA_VERSION });
  return `${world.name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

/** The protocol's fingerprint: every world's definition, the generator's recipe, the data version. */
export function protocolHash(): string {
  const text = JSON.stringify({ worlds: evaluationWorlds(), recipe: WORLD_RECIPE_VERSION, data: EVALUATION_DATA_VERSION });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The table's fingerprint: an evaluation belongs to exactly one table. */
export function tableHash(): string {
  return createHash('sha256').update(JSON.stringify(ANDROMEDA_1_0)).digest('hex').slice(0, 16);
}
