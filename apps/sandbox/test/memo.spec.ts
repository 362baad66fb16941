import { deepFreeze } from '../src/domain/memo';

describe('deepFreeze', () => {
  it('freezes nested objects and arrays, so a shared result cannot be changed', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b as unknown[]).push(3);
    }).toThrow(TypeError);
  });
});
