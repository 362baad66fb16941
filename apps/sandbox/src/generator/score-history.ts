import { clampScore } from '@credit/score-model/score-bands';
import { rngFor } from './prng';
import { DAY, isoDate } from './time-bounds';

/**
 * The sandbox's daily score history: a walk that ends at the wallet's sandbox score and goes back
 * one UTC day at a time. Each calendar day has its own change, drawn from its own stream
 * (`history <YYYY-MM-DD>` of the key), so the walk depends only on the key, the score and the days
 * it covers: a shorter history is the tail of a longer one, and the same clock gives the same
 * answer in every process (prng.ts). Most days are quiet (the score stays); the others move it a
 * few points (a few dozen at most), part of the move pulling back towards the wallet's score so
 * that a year's walk stays near it. Clamped to 300..1000 like every score.
 */

/** Share of days on which the score moves at all. */
const CHANGE_SHARE = 0.3;
/** Spread of a day's move, in points (an approximate normal bounded by ±6 sd). */
const CHANGE_SD = 10;
/** Fraction of the distance to the wallet's score a moving day takes back (going back in time). */
const PULL_BACK = 0.15;

/** A UTC day as the whole days since 1970-01-01 of a Unix time (seconds). */
export function utcDayOf(timestamp: number): number {
  return Math.floor(timestamp / DAY);
}

/** YYYY-MM-DD of a UTC day number. */
export function isoDateOfDay(day: number): string {
  return isoDate(day * DAY);
}

/** The random part of the score's change on `day` (from the day before to it), an integer; null on a quiet day. */
export function dailyChange(key: string, day: number): number | null {
  const rng = rngFor(key, `history ${isoDateOfDay(day)}`);
  return rng.chance(CHANGE_SHARE) ? Math.round(CHANGE_SD * rng.normal()) : null;
}

export interface DailyScore {
  /** UTC day number (`utcDayOf`). */
  readonly day: number;
  readonly score: number;
}

/**
 * One score per UTC day from `from` to `to` (both inclusive, oldest first), the one of `to` being
 * `score`; empty when `from` is after `to`.
 */
export function scoreWalk(key: string, score: number, from: number, to: number): DailyScore[] {
  const walk: DailyScore[] = [];
  let current = score;
  for (let day = to; day >= from; day--) {
    walk.push({ day, score: current });
    const change = dailyChange(key, day);
    if (change !== null) current = clampScore(current - change + PULL_BACK * (score - current));
  }
  return walk.reverse();
}
