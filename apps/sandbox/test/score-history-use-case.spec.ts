import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { SANDBOX_DECILE_CUT_POINTS } from '../src/generator/decile-cut-points';
import { sandboxProfile } from '../src/generator/profile';
import { dailyChange, scoreWalk } from '../src/generator/score-history';
import { sandboxAddressOfName } from '../src/domain/resolve';
import { scoreAddress } from '../src/use-cases/score-address';
import { scoreHistory } from '../src/use-cases/score-history';
import { A, INVALID, NAME, NOW, codeOf, req, valid } from './support/use-case-calls';

const SUBJECT = 'credit.sandbox.score.history.v1';
/** A young wallet: its first transaction (2025-02-13T12:18:10Z) is 336 days before NOW (2026-01-15). */
const YOUNG = '0x000000000000000000000000000000000000000E';
const DAY_MS = 86_400_000;

const history = (request: { address: string; days?: number }, now = NOW) => valid(SUBJECT, scoreHistory(req(SUBJECT, request), now));
const sandboxScore = (address: string, now = NOW) => scoreAddress(req('credit.sandbox.score.address.v1', { address }), now).score;
/** `count` consecutive UTC dates ending at `last`'s. */
const datesEndingAt = (last: Date, count: number) =>
  Array.from({ length: count }, (_, i) => new Date(last.getTime() - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));

describe('score history use case (sandbox)', () => {
  it('is deterministic: the same address and clock give the same points, whatever the written form', () => {
    const reply = history({ address: A, days: 120 });
    expect(history({ address: A, days: 120 })).toEqual(reply);
    expect(history({ address: A.toLowerCase(), days: 120 })).toEqual(reply);
    expect(reply.address).toBe(A);
    expect(reply.model_version).toBe('andromeda_1.0');
    // The walk depends on the calendar days it covers, not on when it was asked during the day.
    expect(history({ address: A, days: 120 }, new Date('2026-01-15T00:00:00.000Z'))).toEqual(reply);
    expect(history({ address: A, days: 120 }, new Date('2026-01-15T23:59:59.999Z'))).toEqual(reply);
    // Another address walks differently.
    expect(history({ address: YOUNG, days: 120 }).points.map((p) => p.score)).not.toEqual(reply.points.map((p) => p.score));
  });

  it('answers `days` points (90 by default), a shorter history being the tail of a longer one', () => {
    const year = history({ address: A, days: 365 }).points;
    expect(year).toHaveLength(365);
    expect(history({ address: A }).points).toEqual(year.slice(-90));
    expect(history({ address: A, days: 1 }).points).toEqual(year.slice(-1));
    expect(history({ address: A, days: 7 }).points).toEqual(year.slice(-7));
  });

  it('refuses days outside 1..365 and a non-integer with invalid_parameter, an invalid address with address_not_found', () => {
    for (const days of [0, -1, 366, 1.5])
      expect([days, codeOf(() => req(SUBJECT, { address: A, days }))]).toEqual([days, 'invalid_parameter']);
    expect(codeOf(() => scoreHistory(req(SUBJECT, { address: INVALID }), NOW))).toBe('address_not_found');
  });

  it('ends at the score the sandbox answers for the address at the same clock', () => {
    for (const address of [A, YOUNG, NAME, A.toLowerCase()]) {
      const points = history({ address, days: 30 }).points;
      expect([address, points.at(-1)?.score]).toEqual([address, sandboxScore(address)]);
    }
    const later = new Date('2026-11-26T08:00:00.000Z');
    expect(history({ address: A, days: 5 }, later).points.at(-1)?.score).toBe(sandboxScore(A, later));
    expect(history({ address: NAME }).address).toBe(sandboxAddressOfName(NAME));
  });

  it('dates are consecutive UTC days, oldest first, ending on the clock UTC day', () => {
    const points = history({ address: A, days: 60 }).points;
    expect(points.map((p) => p.date)).toEqual(datesEndingAt(NOW, 60));
    expect(points.at(-1)?.date).toBe('2026-01-15');
    // Just before midnight UTC, "today" is still that UTC day, whatever the local time zone says.
    const lateEvening = new Date('2026-03-01T23:30:00.000Z');
    expect(history({ address: A, days: 3 }, lateEvening).points.map((p) => p.date)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('leaves out the days before the first transaction of the sandbox profile', () => {
    const first = new Date(sandboxProfile(YOUNG).firstTransaction.timestamp * 1000);
    expect(first.toISOString().slice(0, 10)).toBe('2025-02-13');
    const points = history({ address: YOUNG, days: 365 }).points;
    // 2025-02-13 to 2026-01-15 inclusive: 337 days of the 365 asked for, the first one the first activity's.
    expect(points).toHaveLength(337);
    expect(points.map((p) => p.date)).toEqual(datesEndingAt(NOW, 337));
    expect(points[0]!.date).toBe('2025-02-13');
    expect(points.at(-1)!.score).toBe(sandboxScore(YOUNG));
    // Fewer days than the wallet's age: all present.
    expect(history({ address: YOUNG, days: 300 }).points).toEqual(points.slice(-300));
    // A clock before the first transaction: no points at all; on its day, one.
    expect(history({ address: YOUNG, days: 365 }, new Date('2025-02-12T23:59:59.000Z')).points).toEqual([]);
    expect(history({ address: YOUNG, days: 365 }, new Date('2025-02-13T00:00:00.000Z')).points).toEqual([
      expect.objectContaining({ date: '2025-02-13', score: sandboxScore(YOUNG) }),
    ]);
  });

  it('walks plausibly within 300..1000, decile and range as the sandbox maps a score', () => {
    const probes = Array.from({ length: 40 }, (_, i) => `0x${(i * 7919 + 1).toString(16).padStart(40, '0')}`);
    for (const address of [A, YOUNG, NAME, ...probes]) {
      const points = history({ address, days: 365 }).points;
      const last = points.at(-1)!.score;
      const odd = points.filter(
        (p) =>
          !Number.isInteger(p.score) ||
          p.score < 300 ||
          p.score > 1000 ||
          p.decile !== decileOf(p.score, SANDBOX_DECILE_CUT_POINTS) ||
          p.range !== rangeOf(p.score) ||
          // The pull back towards the wallet's score keeps a year's walk near it.
          Math.abs(p.score - last) >= 200,
      );
      expect([address, odd]).toEqual([address, []]);
      // Most days are quiet, yet a year is not flat.
      const moves = points.slice(1).filter((p, i) => p.score !== points[i]!.score).length;
      expect(moves).toBeGreaterThan(0);
      expect(moves).toBeLessThan(points.length * 0.5);
    }
  });

  it('the walk is a pure function of the key and the days it covers', () => {
    const key = sandboxProfile(A).key;
    const day = Math.floor(NOW.getTime() / DAY_MS);
    expect(scoreWalk(key, 700, day - 9, day)).toEqual(scoreWalk(key, 700, day - 9, day));
    expect(scoreWalk(key, 700, day - 9, day).slice(-3)).toEqual(scoreWalk(key, 700, day - 2, day));
    expect(scoreWalk(key, 700, day + 1, day)).toEqual([]);
    const changes = Array.from({ length: 100 }, (_, i) => dailyChange(key, day - i));
    expect(changes.every((c) => c === null || Number.isInteger(c))).toBe(true);
    expect(changes.filter((c) => c === null).length).toBeGreaterThan(50);
  });
});
