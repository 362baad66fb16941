import type { Address, Hex } from 'viem';

/**
 * Multicall3's `aggregate3((address,bool,bytes)[])` calldata and its `(bool,bytes)[]` result,
 * written and read as hex text. viem's generic ABI coder turns the whole result into bytes and
 * each piece back into hex; for a read of a hundred wallets that was a large share of the
 * service's CPU (docs/BENCHMARKS.md). Equal to viem's `encodeFunctionData` and
 * `decodeFunctionResult` for this function (packages/chain/test/aggregate3-codec.spec.ts).
 */

/** One call of an aggregate3. */
export interface Call3 {
  target: Address;
  allowFailure: boolean;
  callData: Hex;
}

/** One call's outcome: whether it succeeded, and what it returned (or reverted with). */
export interface Result3 {
  success: boolean;
  returnData: Hex;
}

/** `aggregate3((address,bool,bytes)[])`'s selector. */
const AGGREGATE3_SELECTOR = '82ad56cb';
/** One ABI word as hex digits. */
const WORD = 64;
/** A word's leading digits when it holds a number below 2^48. */
const ZERO_HIGH = '0'.repeat(WORD - 12);
const HEX_12 = /^[0-9a-f]{12}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A malformed aggregate3 result: what the node answered is not the ABI encoding of `(bool,bytes)[]`. */
export class Aggregate3DecodeError extends Error {
  override readonly name = 'Aggregate3DecodeError';
}

function word(value: number): string {
  return value.toString(16).padStart(WORD, '0');
}

/** The calldata of `aggregate3(calls)`. */
export function encodeAggregate3(calls: readonly Call3[]): Hex {
  const heads: string[] = [];
  const tails: string[] = [];
  let offset = calls.length * 32; // the elements follow their offsets
  for (const call of calls) {
    const data = call.callData.slice(2);
    if (data.length % 2 !== 0 || !ADDRESS.test(call.target)) {
      throw new TypeError(`not an aggregate3 call: ${call.target} ${call.callData.slice(0, 10)}…`);
    }
    const padded = data.length % WORD === 0 ? data : data + '0'.repeat(WORD - (data.length % WORD));
    heads.push(word(offset));
    const element =
      call.target.slice(2).toLowerCase().padStart(WORD, '0') +
      word(call.allowFailure ? 1 : 0) +
      word(0x60) +
      word(data.length / 2) +
      padded;
    tails.push(element);
    offset += element.length / 2;
  }
  return `0x${AGGREGATE3_SELECTOR}${word(0x20)}${word(calls.length)}${heads.join('')}${tails.join('')}`;
}

/** The results of an aggregate3 call, from what `eth_call` returned. */
export function decodeAggregate3Result(data: Hex): Result3[] {
  // lower case, as viem gives it back (a node answers so anyway)
  const hex = data.slice(2).toLowerCase();
  if (hex.length === 0) throw new Aggregate3DecodeError('returned no data ("0x")');
  if (hex.length % 2 !== 0) throw new Aggregate3DecodeError('returned an odd number of hex digits');
  const at = (position: number): number => readWord(hex, position);
  const arrayAt = at(0) * 2;
  const length = at(arrayAt);
  const elements = arrayAt + WORD; // offsets are counted from here
  if (elements + length * WORD > hex.length) throw new Aggregate3DecodeError(`${length} results do not fit in ${hex.length / 2} bytes`);
  const results: Result3[] = new Array(length);
  for (let i = 0; i < length; i++) {
    const element = elements + at(elements + i * WORD) * 2;
    const success = at(element);
    if (success > 1) throw new Aggregate3DecodeError(`result ${i}: ${success} is not a bool`);
    const bytesAt = element + at(element + WORD) * 2;
    const size = at(bytesAt) * 2;
    const start = bytesAt + WORD;
    if (start + size > hex.length) throw new Aggregate3DecodeError(`result ${i}: ${size / 2} bytes past the end of the data`);
    results[i] = { success: success === 1, returnData: `0x${hex.slice(start, start + size)}` };
  }
  return results;
}

/** The word at a hex position, as a number: a value past 2^48 is no offset, length or bool this data can hold. */
function readWord(hex: string, position: number): number {
  if (position < 0 || position + WORD > hex.length) {
    throw new Aggregate3DecodeError(`a word at byte ${position / 2} is past the end of the data (${hex.length / 2} bytes)`);
  }
  if (hex.slice(position, position + WORD - 12) !== ZERO_HIGH) {
    throw new Aggregate3DecodeError(`the word at byte ${position / 2} is too large for an offset, a length or a bool`);
  }
  const low = hex.slice(position + WORD - 12, position + WORD);
  if (!HEX_12.test(low)) throw new Aggregate3DecodeError(`the word at byte ${position / 2} is not hex`);
  return Number.parseInt(low, 16);
}
