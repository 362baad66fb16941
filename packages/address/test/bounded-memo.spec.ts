import { boundedMemo } from '../src/bounded-memo';

describe('boundedMemo', () => {
  it('computes a key once, returns the same result, and keeps at most `capacity` keys', () => {
    const calls: string[] = [];
    const memo = boundedMemo((key: string) => {
      calls.push(key);
      return { key };
    }, 2);
    const a = memo('a');
    expect(memo('a')).toBe(a);
    memo('b');
    memo('c'); // evicts 'a', the oldest
    memo('b');
    expect(memo('a')).toEqual({ key: 'a' });
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('remembers undefined results too', () => {
    let n = 0;
    const memo = boundedMemo(() => {
      n++;
      return undefined;
    }, 10);
    memo('x');
    memo('x');
    expect(n).toBe(1);
  });
});
