import type { RangeLabel } from '@credit/contracts/schemas/common';

/** docs/API.md §2.1: every score is an integer from 300 to 1000. */
export const SCORE_MIN = 300;
export const SCORE_MAX = 1000;

export interface ScoreBand {
  readonly range: RangeLabel;
  readonly min: number;
  readonly max: number;
}

/** docs/MODEL.md: the bands the reference API publishes (inclusive bounds, lowest first). */
export const SCORE_BANDS: readonly ScoreBand[] = [
  { range: 'low', min: 300, max: 639 },
  { range: 'fair', min: 640, max: 749 },
  { range: 'good', min: 750, max: 839 },
  { range: 'very_good', min: 840, max: 919 },
  { range: 'excellent', min: 920, max: 1000 },
];

export function isScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= SCORE_MIN && value <= SCORE_MAX;
}

/** Returns the score unchanged, or throws a RangeError when it is not an integer in 300..1000. */
export function assertScore(value: number): number {
  if (!isScore(value)) throw new RangeError(`score must be an integer from ${SCORE_MIN} to ${SCORE_MAX}, got ${String(value)}`);
  return value;
}

/** Rounds to the nearest integer and clamps into 300..1000. NaN is a bug upstream: RangeError. */
export function clampScore(value: number): number {
  if (Number.isNaN(value)) throw new RangeError('score is NaN');
  return Math.min(SCORE_MAX, Math.max(SCORE_MIN, Math.round(value)));
}

/** The range label of a valid score (docs/API.md §2.1, docs/MODEL.md). */
export function rangeOf(score: number): RangeLabel {
  assertScore(score);
  for (const band of SCORE_BANDS) if (score <= band.max) return band.range;
  /* istanbul ignore next: assertScore bounds the score by the last band's max */
  throw new RangeError(`no band for score ${score}`);
}
