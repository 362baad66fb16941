import { castEthDip } from '../src/seed/cast';
import { clearOfDip } from '../src/seed/population-history';
import { DAY } from '../src/seed/time';

describe("a scarred loan and the cast's ETH dip", () => {
  const anchor = 1_780_000_000;
  const dip = castEthDip(anchor);

  it('is the cast’s day of ETH at 2,400, 600 days before the anchor', () => {
    expect(dip).toEqual({ from: anchor - 600 * DAY, to: anchor - 599 * DAY });
  });

  it('keeps a loan whose life (borrowing, liquidation, buy-back) stays a day clear of the dip where it was asked', () => {
    expect(clearOfDip(dip.from - 40 * DAY, 20 * DAY, dip)).toBe(dip.from - 40 * DAY); // ends 19 days before
    expect(clearOfDip(dip.to + DAY, 30 * DAY, dip)).toBe(dip.to + DAY); // starts a day after
  });

  it('moves a loan borrowed, liquidated or bought back in the dip (or a day either side) to a day after it', () => {
    for (const [at, duration] of [
      [dip.from - 30 * DAY, 29 * DAY], // liquidated the day before the dip
      [dip.from - 10 * DAY, 10 * DAY], // liquidated as the dip starts
      [dip.from - 10 * DAY, 9 * DAY + 1], // bought back in the dip
      [dip.from + 3600, 20 * DAY], // borrowed in the dip
      [dip.to, 20 * DAY], // borrowed as the price comes back
    ] as const) {
      expect(clearOfDip(at, duration, dip)).toBe(dip.to + DAY);
    }
  });
});
