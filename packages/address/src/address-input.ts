import { getAddress, isAddress } from 'viem';
import { normalize } from 'viem/ens';
import { boundedMemo } from './bounded-memo';

/**
 * What a caller's address parameter turned out to be. Every service reads its input through
 * `classifyAddress`, so the rules are the same everywhere:
 * - a 0x-prefixed 40-hex-digit string (any case, or a valid EIP-55 checksum) → its checksummed form;
 * - a name-service name (`vitalik.eth`, normalised per ENSIP-15) → the name, resolved later;
 * - anything else → invalid (404 `detail` for a single address, skipped in aggregates).
 */
export type AddressInput =
  | { kind: 'hex'; input: string; address: `0x${string}` }
  | { kind: 'name'; input: string; name: string }
  | { kind: 'invalid'; input: string; reason: string };

const HEX = /^0x[0-9a-fA-F]{40}$/;
/** A dotted name of at least two labels whose last label is alphabetic (a TLD). */
const NAME_SHAPE = /^[^\s.]+(\.[^\s.]+)*\.[a-z]{2,}$/u;

/** Inputs longer than a name may be are classified afresh: they are never kept. */
const MEMO_MAX_LENGTH = 256;
const classifyKept = boundedMemo((raw) => Object.freeze(classify(raw)), 50_000);

/**
 * The same input always classifies the same way, and callers repeat the same addresses, so the
 * answers are kept (up to 50,000 inputs of a name's length at most, frozen: they are shared).
 */
export function classifyAddress(raw: string): AddressInput {
  return raw.length <= MEMO_MAX_LENGTH ? classifyKept(raw) : classify(raw);
}

function classify(raw: string): AddressInput {
  const input = raw.trim();
  if (input.startsWith('0x') || input.startsWith('0X')) {
    const hex = `0x${input.slice(2)}`;
    if (!HEX.test(hex)) return { kind: 'invalid', input, reason: 'not a 20-byte hex address' };
    // A mixed-case address must carry a valid EIP-55 checksum; all-lower or all-upper is accepted.
    const body = hex.slice(2);
    const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
    if (mixed && !isAddress(hex, { strict: true })) {
      return { kind: 'invalid', input, reason: 'bad EIP-55 checksum' };
    }
    return { kind: 'hex', input, address: getAddress(hex) };
  }
  let name: string;
  try {
    name = normalize(input);
  } catch {
    return { kind: 'invalid', input, reason: 'not a valid name' };
  }
  if (!NAME_SHAPE.test(name) || name.length > 255) {
    return { kind: 'invalid', input, reason: 'not an address or a name-service name' };
  }
  return { kind: 'name', input, name };
}

/** Splits a comma-separated `address` query value; blanks are dropped, order is kept. */
export function splitAddressList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Builds ENSIP-15's tables now: the first name normalised in a process builds them (about 200 ms of
 * CPU, once), which would otherwise fall on the first request that carries a name (or the first
 * owned name identity checks), stalling every request beside it. Each app that reads names calls it
 * at boot, before it listens.
 */
export function warmNameNormalisation(): void {
  normalize('warm.eth');
}

export function invalidAddressMessage(input: string): string {
  return `Address not found or invalid: ${input.length > 100 ? `${input.slice(0, 100)}…` : input}`;
}
