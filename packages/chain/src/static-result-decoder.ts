import { checksumAddress, decodeFunctionResult, type Abi, type AbiParameter, type Hex } from 'viem';

/**
 * A contract read's result as viem's `decodeFunctionResult` gives it, read straight from the hex
 * text when every output is a static word (uint, int, address, bool, bytes32): viem's generic coder
 * turns the data into bytes first, a share of a cold reading's CPU that this takes back
 * (docs/BENCHMARKS.md, "the multicall coded by hand"). Anything else, and any data that is not
 * exactly such words (too short, a bool that is neither 0 nor 1), goes to viem, so its errors are
 * viem's.
 */
export function decodeResult(abi: Abi, functionName: string, data: Hex): unknown {
  const outputs = staticOutputsOf(abi, functionName);
  const values = outputs === null ? undefined : readWords(outputs, data);
  if (values === undefined) return decodeFunctionResult({ abi, functionName, data } as never);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
}

/** How one output is read from its word (hex digits, lower case). */
type WordReader = (word: string) => unknown;

const outputReaders = new WeakMap<Abi, Map<string, WordReader[] | null>>();

/** The readers of a function's outputs, or null when one is not a static word (or the name is overloaded). */
function staticOutputsOf(abi: Abi, functionName: string): WordReader[] | null {
  let byName = outputReaders.get(abi);
  if (byName === undefined) {
    byName = new Map();
    outputReaders.set(abi, byName);
  }
  let found = byName.get(functionName);
  if (found === undefined) {
    const items = abi.filter((item) => item.type === 'function' && item.name === functionName);
    const outputs = items.length === 1 && items[0]!.type === 'function' ? items[0]!.outputs : undefined;
    const list = outputs?.map(wordReaderOf);
    found = list === undefined || list.some((r) => r === undefined) ? null : (list as WordReader[]);
    byName.set(functionName, found);
  }
  return found;
}

/** A word no reader can take: the whole result goes to viem. */
const INVALID = Symbol('invalid');

const WORD = 64;
const HEX = /^[0-9a-f]*$/;
/** Words read as a bool: anything else goes to viem (which throws). */
const FALSE = '0'.repeat(WORD);
const TRUE = `${'0'.repeat(WORD - 1)}1`;

function wordReaderOf(output: AbiParameter): WordReader | undefined {
  const { type } = output;
  const number = /^(u?)int(\d*)$/.exec(type);
  if (number) {
    const bits = number[2] === '' ? 256 : Number(number[2]);
    const signed = number[1] === '';
    // viem: a number up to 48 bits, a bigint above; a signed word is two's complement over its 32 bytes
    const value = (word: string) => (signed ? BigInt.asIntN(256, BigInt(`0x${word}`)) : BigInt(`0x${word}`));
    if (bits > 48) return value;
    return (word) => {
      const n = Number(value(word));
      return Number.isSafeInteger(n) ? n : INVALID; // viem throws: let it
    };
  }
  if (type === 'address') return (word) => checksumAddress(`0x${word.slice(WORD - 40)}`);
  if (type === 'bool') return (word) => (word === TRUE ? true : word === FALSE ? false : INVALID);
  if (type === 'bytes32') return (word) => `0x${word}`;
  return undefined;
}

function readWords(outputs: readonly WordReader[], data: Hex): unknown[] | undefined {
  const hex = data.slice(2).toLowerCase();
  if (hex.length < outputs.length * WORD || hex.length % 2 !== 0 || !HEX.test(hex)) return undefined;
  const values = new Array<unknown>(outputs.length);
  for (let i = 0; i < outputs.length; i++) {
    const value = outputs[i]!(hex.slice(i * WORD, (i + 1) * WORD));
    if (value === INVALID) return undefined;
    values[i] = value;
  }
  return values;
}
