import { formatTraceparent, parseTraceparent } from '../src/trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent (W3C Trace Context)', () => {
  it('reads a valid header and writes it back the same', () => {
    const parsed = parseTraceparent(`00-${TRACE}-${SPAN}-01`);
    expect(parsed).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(formatTraceparent(parsed!)).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
  });

  it('accepts a later version with extra fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-extra`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });

  it.each([
    ['absent', undefined],
    ['not a string', ['a']],
    ['garbage', 'hello'],
    ['upper case', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['extra fields on version 00', `00-${TRACE}-${SPAN}-01-x`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
  ])('ignores a header that is %s', (_, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});
