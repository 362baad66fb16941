import { parsePrometheusText, sampleSum } from './prometheus-text';

it('reads families, typed histograms and escaped label values', () => {
  const families = parsePrometheusText(
    [
      '# HELP a_total Some \\\\ help.',
      '# TYPE a_total counter',
      'a_total{op="x",why="say \\"hi\\"\\n"} 2',
      'a_total{op="y"} 3',
      '# TYPE d_seconds histogram',
      'd_seconds_bucket{le="0.1"} 1',
      'd_seconds_bucket{le="+Inf"} 4',
      'd_seconds_sum 1.5',
      'd_seconds_count 4',
      '',
    ].join('\n'),
  );
  expect(families.get('a_total')?.type).toBe('counter');
  expect(families.get('a_total')?.samples[0]?.labels).toEqual({ op: 'x', why: 'say "hi"\n' });
  expect(sampleSum(families, 'a_total')).toBe(5);
  expect(sampleSum(families, 'a_total', { op: 'y' })).toBe(3);
  expect(sampleSum(families, 'd_seconds', {}, 'd_seconds_count')).toBe(4);
});

it.each([
  ['a sample of an undeclared family', 'x 1\n'],
  ['a bad value', '# TYPE x gauge\nx one\n'],
  ['an unquoted label', '# TYPE x gauge\nx{a=b} 1\n'],
  ['a histogram sample under a counter', '# TYPE x counter\nx_bucket{le="1"} 1\n'],
  ['no final newline', '# TYPE x gauge\nx 1'],
])('throws on %s', (_, text) => {
  expect(() => parsePrometheusText(text)).toThrow();
});
