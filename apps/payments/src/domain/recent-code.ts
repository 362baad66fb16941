import type { Address, Hex } from 'viem';

/** viem's `getCode`: an address's code, `undefined` or `0x` for none. */
export type CodeReader = (args: { address: Address }) => Promise<Hex | undefined>;

/** How many addresses' code is kept at most (the oldest entry is dropped past it). */
const CAPACITY = 10_000;

/**
 * `getCode` for the x402 facilitator's signer, each address's answer kept `ttlMs`. The exact
 * scheme asks for the payer's code four times per payment (twice when it verifies, twice again
 * when it settles, to choose between an ECDSA and an ERC-1271 signature check): one read now
 * serves them all. Calls for an address already being read join that read; a failed read is not
 * kept. A kept answer can only be as old as `ttlMs`: a payer that gained code since is checked the
 * ECDSA way for that long, and the token contract checks the signature again when the transfer is
 * sent, so a stale answer can make a settlement fail, never pay one that was not.
 */
export function recentCode(getCode: CodeReader, ttlMs: number, now: () => number = Date.now): CodeReader {
  const kept = new Map<string, { at: number; code: Promise<Hex | undefined> }>();
  return ({ address }) => {
    const key = address.toLowerCase();
    const t = now();
    const hit = kept.get(key);
    if (hit !== undefined && t - hit.at < ttlMs) return hit.code;
    kept.delete(key);
    if (kept.size >= CAPACITY) kept.delete(kept.keys().next().value as string);
    const code = getCode({ address });
    const entry = { at: t, code };
    kept.set(key, entry);
    code.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    return code;
  };
}
