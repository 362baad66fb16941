import { boundedMemo } from '@credit/address/bounded-memo';
import { recover } from 'tiny-secp256k1';
import { getAddress, keccak256, type Address, type Hex } from 'viem';

/** The last recovered signers kept: a settlement verifies its payment again before it sends. */
const KEPT = 10_000;

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const DIGEST = /^0x[0-9a-fA-F]{64}$/;

const recovered = boundedMemo(addressOf, KEPT);

/**
 * The address that signed `hash` with a 65-byte `signature` (r, s, then v as 0, 1, 27 or 28), or a
 * throw: viem's `recoverAddress`, with libsecp256k1 compiled to WebAssembly (`tiny-secp256k1`) doing
 * the curve arithmetic in place of viem's JavaScript one (@noble/curves): about 0.33 ms a recovery
 * against 2.7–2.9 ms here. Each pair's result is kept (the last 10,000), since the x402 facilitator
 * verifies a payment again inside its settlement; the key is the recovery's whole input.
 */
export async function recoverSigner({ hash, signature }: { hash: Hex; signature: Hex }): Promise<Address> {
  if (!DIGEST.test(hash)) throw new Error('the digest is not 32 bytes of hex');
  if (!SIGNATURE.test(signature)) throw new Error('invalid signature length');
  return recovered(`${hash}${signature.slice(2)}`.toLowerCase());
}

/** `key`: the digest (0x and 64 hex digits), then the signature's 130 hex digits. */
function addressOf(key: string): Address {
  const publicKey = recover(
    Buffer.from(key.slice(2, 66), 'hex'),
    Buffer.from(key.slice(66, 194), 'hex'),
    recoveryBitOf(Number.parseInt(key.slice(194), 16)),
    false,
  );
  if (publicKey === null) throw new Error('no public key recovers from this signature');
  return getAddress(`0x${keccak256(publicKey.subarray(1)).slice(-40)}`);
}

/** viem's reading of the last byte: 0 or 27 → 0, 1 or 28 → 1, anything else refused. */
function recoveryBitOf(v: number): 0 | 1 {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  throw new Error('Invalid yParityOrV value');
}
