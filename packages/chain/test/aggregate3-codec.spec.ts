import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, getAddress, keccak256, toHex, type Hex } from 'viem';
import { multicall3Abi } from '../src/abis';
import { Aggregate3DecodeError, decodeAggregate3Result, encodeAggregate3, type Call3, type Result3 } from '../src/aggregate3-codec';

/** Deterministic bytes: `length` of them from a seed. */
function bytesOf(seed: string, length: number): Hex {
  let out = '';
  for (let i = 0; out.length < length * 2; i++) out += keccak256(toHex(`${seed}:${i}`)).slice(2);
  return `0x${out.slice(0, length * 2)}`;
}

/** Sizes around the word boundaries, and a large one. */
const SIZES = [0, 1, 4, 31, 32, 33, 36, 63, 64, 65, 100, 1000];

function callsOf(seed: string, count: number): Call3[] {
  return Array.from({ length: count }, (_, i) => ({
    target: getAddress(bytesOf(`${seed}:target:${i}`, 20)),
    allowFailure: i % 3 !== 0,
    callData: bytesOf(`${seed}:data:${i}`, SIZES[i % SIZES.length]!),
  }));
}

const resultAbi = multicall3Abi.find((item) => item.type === 'function' && item.name === 'aggregate3')!.outputs;

/** What a node answers for these results (the ABI encoding of `(bool,bytes)[]`, by viem). */
function answerOf(results: readonly Result3[]): Hex {
  return encodeAbiParameters(resultAbi, [results]);
}

describe('the aggregate3 codec', () => {
  it('writes the calldata viem writes, for calls of every size around a word', () => {
    for (const count of [0, 1, 2, 7, 40]) {
      const calls = callsOf(`calls-${count}`, count);
      expect(encodeAggregate3(calls)).toBe(encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }));
    }
  });

  it('reads the results viem reads, successes and failures of every size', () => {
    for (const count of [0, 1, 3, 12, 40]) {
      const results = Array.from({ length: count }, (_, i) => ({
        success: i % 4 !== 1,
        returnData: bytesOf(`results-${count}:${i}`, SIZES[(i * 5) % SIZES.length]!),
      }));
      const answer = answerOf(results);
      const viem = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: answer });
      expect(decodeAggregate3Result(answer)).toEqual(viem);
      expect(decodeAggregate3Result(answer)).toEqual(results);
    }
  });

  it('reads an answer in capitals as viem does, in lower case', () => {
    const results = [{ success: true, returnData: bytesOf('upper', 32) }];
    const answer = `0x${answerOf(results).slice(2).toUpperCase()}` as Hex;
    expect(decodeAggregate3Result(answer)).toEqual([{ success: true, returnData: results[0]!.returnData.toLowerCase() }]);
  });

  it('refuses an answer that is not the encoding of (bool, bytes)[]', () => {
    const good = answerOf([
      { success: true, returnData: bytesOf('a', 40) },
      { success: false, returnData: '0x' },
    ]).slice(2);
    const wordAt = (hex: string, byte: number, value: string) =>
      hex.slice(0, byte * 2) + value.padStart(64, '0') + hex.slice(byte * 2 + 64);
    const refused: [string, string][] = [
      ['no data', ''],
      ['an odd number of digits', `${good}0`],
      ['cut short', good.slice(0, good.length - 64)],
      ['more results than fit', wordAt(good, 32, 'ffff')],
      ['an array offset past the end', wordAt(good, 0, 'ffff')],
      ['a length past 2^48', wordAt(good, 32, '1'.padEnd(20, '0'))],
      ['a bool that is 2', wordAt(good, 128, '2')],
      ['a returned size past the end', wordAt(good, 192, 'ffff')],
      ['a word that is not hex', wordAt(good, 32, 'zz')],
    ];
    for (const [, hex] of refused) expect(() => decodeAggregate3Result(`0x${hex}`)).toThrow(Aggregate3DecodeError);
    expect(decodeAggregate3Result(`0x${good}`)).toHaveLength(2);
  });
});
