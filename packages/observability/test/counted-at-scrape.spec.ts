import { Registry } from 'prom-client';
import { countedAtScrape } from '../src/counted-at-scrape';
import { METRICS } from '../src/process-registry';
import { timeRequest } from '../src/request-metrics';

/**
 * Counts kept as numbers on the request path and added to the counter when it is read: every
 * read gives the exact total, however many reads (a scrape, the JSON form, two registries), and a
 * series counted zero times is not exported.
 */

async function valuesOf(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { labels: Record<string, string | number>; value: number }[];
  return Object.fromEntries(values.map((v) => [Object.values(v.labels).join('/'), v.value]));
}

it('every read gives the exact total: nothing lost between reads, nothing counted twice', async () => {
  const registry = new Registry();
  const calls = countedAtScrape({ name: 'test_calls_total', help: 'calls', labelNames: ['kind'] as const, registers: [registry] });
  const a = calls.series({ kind: 'a' });
  const b = calls.series({ kind: 'b' });
  calls.series({ kind: 'never' });

  a.count += 3;
  b.count += 1;
  expect(await valuesOf(registry, 'test_calls_total')).toEqual({ a: 3, b: 1 });
  // read again with nothing counted since: the same totals
  expect(await valuesOf(registry, 'test_calls_total')).toEqual({ a: 3, b: 1 });
  expect(await registry.metrics()).toContain('test_calls_total{kind="a"} 3');

  a.count += 2;
  expect(await registry.metrics()).toContain('test_calls_total{kind="a"} 5');
  expect(await valuesOf(registry, 'test_calls_total')).toEqual({ a: 5, b: 1 });
});

it("a request's outcome and the in-flight gauge are exact at the read after it", async () => {
  const total = () => valuesOf(METRICS, 'credit_requests_total');
  const inFlight = async () => (await METRICS.getSingleMetric('credit_requests_in_flight')!.get()).values[0]!.value;
  const before = (await total())['test.op/ok'] ?? 0;

  const first = timeRequest('test.op');
  const second = timeRequest('test.op');
  expect(await inFlight()).toBe(2);
  first('ok');
  first('ok'); // a recorder records once
  second('client_error');
  expect(await inFlight()).toBe(0);
  const after = await total();
  expect(after['test.op/ok']).toBe(before + 1);
  expect(after['test.op/client_error']).toBe(1);
  expect(after['test.op/server_error']).toBeUndefined();
});
