import { duration, indexFreshness, type IndexProgress } from '../src/index-freshness';

const T = 1_780_000_000;
const at = (seconds: number) => new Date(seconds * 1000);
const head = (number: number, timestamp: number) => ({ number: BigInt(number), timestamp: BigInt(timestamp) });
const progress = (indexedTo: number, indexedAt: number | null, confirmations = 2): IndexProgress => ({
  indexedTo: BigInt(indexedTo),
  indexedToAt: indexedAt === null ? null : at(indexedAt),
  confirmations,
});

describe('indexFreshness', () => {
  it('is not fresh before the first range of a backfill completed (or without a checkpoint)', () => {
    for (const p of [undefined, progress(-1, null)]) {
      const verdict = indexFreshness(8453, head(100, T), p, 600);
      expect(verdict).toEqual({ fresh: false, reason: expect.stringContaining('chain 8453 is still being built') });
    }
  });

  it('is fresh when only the confirmation tail is unindexed, however old it is (a quiet chain)', () => {
    expect(indexFreshness(1, head(100, T), progress(98, T - 86_400 * 30), 600)).toEqual({ fresh: true });
    expect(indexFreshness(1, head(100, T), progress(100, T), 600)).toEqual({ fresh: true });
  });

  it('tolerates missing history up to the lag it is given, in time rather than blocks', () => {
    expect(indexFreshness(1, head(1_000, T), progress(900, T - 600), 600)).toEqual({ fresh: true });
    const late = indexFreshness(1, head(1_000, T), progress(900, T - 601), 600);
    expect(late).toEqual({ fresh: false, reason: expect.stringContaining('chain 1 is 100 blocks (10 min) behind its head') });
    // a backfill years behind: the devnet, where a block is a day
    const backfill = indexFreshness(1, head(1_943, T), progress(700, T - 86_400 * 900), 600);
    expect(backfill).toEqual({ fresh: false, reason: expect.stringContaining('1243 blocks (900 days)') });
  });

  it('is never fresh when the head is behind the indexed history, in number or in time', () => {
    const earlier = indexFreshness(1, head(1_945, Date.UTC(2020, 10, 23) / 1000), progress(1_940, T), 600);
    expect(earlier).toEqual({
      fresh: false,
      reason: expect.stringMatching(/Chain 1's head \(block 1945, 2020-11-23T00:00:00.000Z\) is behind its indexed history \(block 1940, /),
    });
    expect(indexFreshness(1, head(1_930, T + 10), progress(1_940, T), 600)).toMatchObject({ fresh: false });
  });

  it('says a lag in a unit read at a glance', () => {
    expect([45, 600, 7_200, 200_000].map(duration)).toEqual(['45 s', '10 min', '2 h', '2 days']);
  });
});
