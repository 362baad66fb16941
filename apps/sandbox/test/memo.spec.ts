import { boundedMemo, deepFreeze } from '../src/domain/memo';

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

describe('deepFreeze', () => {
  it('freezes nested objects and arrays, so a shared result cannot be changed', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b as unknown[]).push(3);
    }).toThrow(TypeError);
  });
});
