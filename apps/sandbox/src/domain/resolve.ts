import { createHash } from 'node:crypto';
import { classifyAddress, invalidAddressMessage } from '@credit/address/address-input';
import { DomainError } from '@credit/contracts/errors';
import { sandboxProfile, sandboxScore } from '../generator/profile';
import type { SandboxProfile } from '../generator/types';
import { boundedMemo } from '@credit/address/bounded-memo';
import { deepFreeze } from './memo';

/**
 * The generator, memoised per key (it is pure: a hit is exactly a fresh computation). Scores are
 * small and cheap to keep; profiles are larger, so fewer are kept. Replies are built fresh from
 * them on every request (the timestamps are the request's).
 */
const scoreOf = boundedMemo(sandboxScore, 50_000);
const profileOf = boundedMemo((key) => deepFreeze(sandboxProfile(key)), 2_000);
const addressOfName = boundedMemo(derivedAddressOfName, 10_000);

/**
 * A sandbox input resolved: the address every reply carries and the generated profile behind it.
 * The profile is generated on first use; a score needs only its own stream (`sandboxScore`), a
 * fraction of the work.
 */
export interface Resolved {
  readonly address: `0x${string}`;
  readonly score: number;
  readonly profile: SandboxProfile;
}

/**
 * Holds its key, never its profile: resolutions are memoised in greater number than profiles, and
 * one that kept its profile would keep it past the profile memo's bound.
 */
function resolved(address: `0x${string}`, key: string): Resolved {
  return {
    address,
    get score() {
      return scoreOf(key);
    },
    get profile() {
      return profileOf(key);
    },
  };
}

/**
 * The sandbox resolves names without a name service: a name's address is the last 20 bytes of
 * sha256(<normalised name>, UTF-8), EIP-55 checksummed. It is stable and different for every name,
 * and the profile is keyed on the normalised name (so the name is its own primary ENS name). That
 * address queried as hex is keyed on the address instead and gets a profile of its own; the sandbox
 * keeps no registry that would tie the two together.
 */
export function sandboxAddressOfName(name: string): `0x${string}` {
  return addressOfName(name) as `0x${string}`;
}

function derivedAddressOfName(name: string): `0x${string}` {
  const hex = `0x${createHash('sha256').update(name, 'utf8').digest('hex').slice(-40)}`;
  const classified = classifyAddress(hex); // all lower-case hex: always valid, returned checksummed
  if (classified.kind !== 'hex') throw new Error(`derived address ${hex} did not classify as hex`);
  return classified.address;
}

/**
 * One input, or undefined when it is neither a hex address nor a name-service name. Memoised on
 * the raw input like the generator (a `Resolved` is immutable and its getters are memoised too):
 * callers repeat the same few addresses, and the checksum and name checks behind an input cost more
 * than everything else a score request does here.
 */
export const tryResolve: (input: string) => Resolved | undefined = boundedMemo(resolveInput, 50_000);

function resolveInput(input: string): Resolved | undefined {
  const classified = classifyAddress(input);
  switch (classified.kind) {
    case 'hex':
      return resolved(classified.address, classified.address);
    case 'name':
      return resolved(sandboxAddressOfName(classified.name), classified.name);
    case 'invalid':
      return undefined;
  }
}

/** A single-address subject: an invalid input is 404 `address_not_found`. */
export function resolveOne(input: string): Resolved {
  const resolved = tryResolve(input);
  if (!resolved) throw new DomainError('address_not_found', invalidAddressMessage(input));
  return resolved;
}

/**
 * An aggregated or batch subject: invalid inputs are skipped, repeats of one address count once
 * (first occurrence kept, order kept); none valid is 400 `no_valid_address`.
 */
export function resolveMany(inputs: readonly string[]): Resolved[] {
  const byAddress = new Map<string, Resolved>();
  for (const input of inputs) {
    const resolved = tryResolve(input);
    if (resolved && !byAddress.has(resolved.address)) byAddress.set(resolved.address, resolved);
  }
  if (byAddress.size === 0) throw new DomainError('no_valid_address', 'No valid address supplied');
  return [...byAddress.values()];
}
