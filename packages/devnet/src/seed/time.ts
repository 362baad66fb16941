export const DAY = 86_400;

/** History starts five years and ten days before the anchor; the chains' genesis is a year earlier still. */
export const GENESIS_YEARS_BEFORE_ANCHOR = 6;

/** The anchor by default: the start of the current UTC day (so a day's cold starts agree). */
export function defaultAnchor(now = Date.now()): number {
  return Math.floor(now / 1000 / DAY) * DAY;
}
