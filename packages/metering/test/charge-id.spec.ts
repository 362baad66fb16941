import { chargeId } from '../src/charge-id';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it('is a UUID version 7 whose first 48 bits are the time in ms', () => {
  const now = Date.UTC(2026, 10, 24, 16, 45, 12, 345);
  const id = chargeId(now);
  expect(id).toMatch(V7);
  expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  expect(
    parseInt(
      chargeId(2 ** 48 - 1)
        .replace(/-/g, '')
        .slice(0, 12),
      16,
    ),
  ).toBe(2 ** 48 - 1);
});

it('never repeats (100,000 in the same millisecond, across refills of the random pool), and later ids sort later', () => {
  const now = Date.now();
  const ids = Array.from({ length: 100_000 }, () => chargeId(now));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids.slice(0, 1000)) expect(id).toMatch(V7);
  const times = [now, now + 1, now + 1_000, now + 86_400_000];
  const ordered = times.map((t) => chargeId(t));
  expect([...ordered].sort()).toEqual(ordered);
});
