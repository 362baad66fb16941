import { decodeFunctionResult, keccak256, parseAbi, toHex, type Abi, type Hex } from 'viem';
import { aggregatorV3Abi, multicall3Abi } from '../src/abis';
import { decodeResult } from '../src/static-result-decoder';

/** Deterministic words from a seed, some of them small numbers, zero, one or all ones. */
function wordsOf(seed: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const h = keccak256(toHex(`${seed}:${i}`)).slice(2);
    switch (i % 5) {
      case 0:
        return '0'.repeat(64);
      case 1:
        return h.slice(0, 2).padStart(64, '0'); // a byte
      case 2:
        return 'f'.repeat(64); // -1 signed
      case 3:
        return h.slice(0, 12).padStart(64, '0'); // 48 bits
      default:
        return h;
    }
  });
}

const abi = parseAbi([
  'function u8() view returns (uint8)',
  'function u48() view returns (uint48)',
  'function u56() view returns (uint56)',
  'function i8() view returns (int8)',
  'function i256() view returns (int256)',
  'function plain() view returns (uint)',
  'function who() view returns (address)',
  'function flag() view returns (bool)',
  'function hash() view returns (bytes32)',
  'function many() view returns (bool, uint16, address, int24, uint256, bytes32)',
  'function none() view returns ()',
  'function text() view returns (string)',
  'function pair() view returns (uint256, bytes)',
  'function over(uint256) view returns (uint256)',
  'function over(address) view returns (address)',
]);

/** The outcome of a decoding, a value or the error's name, for comparing with viem's. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

function expectAsViem(a: Abi, functionName: string, data: Hex): void {
  expect(outcome(() => decodeResult(a, functionName, data))).toEqual(
    outcome(() => decodeFunctionResult({ abi: a, functionName, data } as never)),
  );
}

describe('decodeResult', () => {
  it("gives viem's values for every static output type, from many words", () => {
    const names = ['u8', 'u48', 'u56', 'i8', 'i256', 'plain', 'who', 'hash'];
    for (const [n, word] of wordsOf('single', 40).entries()) {
      for (const name of names) expectAsViem(abi, name, `0x${word}`);
      expectAsViem(abi, 'flag', `0x${n % 2 === 0 ? '0'.repeat(64) : '1'.padStart(64, '0')}`);
    }
    for (let i = 0; i < 20; i++) {
      const words = wordsOf(`many-${i}`, 6);
      words[0] = i % 2 === 0 ? '0'.repeat(64) : '1'.padStart(64, '0');
      expectAsViem(abi, 'many', `0x${words.join('')}`);
    }
  });

  it('reads the readers’ own ABIs as viem does (a price feed’s round, a block number)', () => {
    const round = `0x${wordsOf('round', 5).join('')}` as Hex;
    expectAsViem(aggregatorV3Abi, 'latestRoundData', round);
    expectAsViem(multicall3Abi, 'getBlockNumber', `0x${'1234'.padStart(64, '0')}`);
  });

  it('leaves to viem, and its errors, what is not exactly static words', () => {
    const word = wordsOf('w', 5)[4]!;
    expectAsViem(abi, 'flag', `0x${'2'.padStart(64, '0')}`); // neither true nor false
    expectAsViem(abi, 'u8', `0x${word}`); // a uint8 word past 2^53
    expectAsViem(abi, 'many', `0x${word}`); // too short
    expectAsViem(abi, 'u8', '0x12'); // shorter than a word
    expectAsViem(abi, 'u8', `0x${word}0`); // an odd number of digits
    expectAsViem(abi, 'none', '0x');
    expectAsViem(abi, 'text', `0x${'20'.padStart(64, '0')}${'3'.padStart(64, '0')}${'616263'.padEnd(64, '0')}`);
    expectAsViem(abi, 'pair', `0x${'1'.padStart(64, '0')}${'40'.padStart(64, '0')}${'0'.padStart(64, '0')}`);
    expectAsViem(abi, 'over', `0x${word}`);
  });

  it('reads capitals as lower case, as viem does', () => {
    expectAsViem(abi, 'hash', `0x${wordsOf('caps', 5)[4]!.toUpperCase()}`);
    expectAsViem(abi, 'who', `0x${wordsOf('caps', 5)[4]!.toUpperCase()}`);
  });
});
