import { keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverSigner } from '../src/domain/signature-recovery';

/**
 * The payments service recovers a payer's signature with libsecp256k1 compiled to WebAssembly in
 * place of viem's @noble/curves (issue 37, item 4). Every signature must come out as viem's does:
 * the same address, or refused where viem throws, since the x402 facilitator takes a throw as an
 * invalid signature.
 */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

async function outcome(recover: () => Promise<string>): Promise<string> {
  try {
    return (await recover()).toLowerCase();
  } catch {
    return 'refused';
  }
}

async function bothOf(hash: Hex, signature: Hex): Promise<[string, string]> {
  return [await outcome(() => recoverSigner({ hash, signature })), await outcome(() => recoverAddress({ hash, signature }))];
}

const word = (n: bigint) => n.toString(16).padStart(64, '0');

describe('recoverSigner', () => {
  it("recovers each of 100 random keys' signatures as viem does, with v as 27/28 and as 0/1", async () => {
    for (let i = 0; i < 100; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const hash = keccak256(toHex(`payment ${i} ${Math.random()}`));
      const signature = await account.sign({ hash });
      const [ours, viems] = await bothOf(hash, signature);
      expect(ours).toBe(account.address.toLowerCase());
      expect(viems).toBe(ours);
      const yParity = (Number.parseInt(signature.slice(130), 16) - 27).toString(16).padStart(2, '0');
      expect(await bothOf(hash, `${signature.slice(0, 130)}${yParity}` as Hex)).toEqual([ours, ours]);
    }
  });

  it("treats a malleated signature (s → n − s, v flipped), another signature's edits and bad input as viem does", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256(toHex('a payment'));
    const signature = await account.sign({ hash });
    const r = signature.slice(2, 66);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = Number.parseInt(signature.slice(130), 16);
    const cases: Hex[] = [
      `0x${r}${word(N - s)}${(v === 27 ? 28 : 27).toString(16)}`,
      `0x${r}${word(s)}${(v === 27 ? 28 : 27).toString(16)}`,
      `0x${r}${word(s)}1d`,
      `0x${r}${word(s)}02`,
      `0x${word(0n)}${word(s)}1b`,
      `0x${r}${word(0n)}1b`,
      `0x${r}${word(N)}1b`,
      `0x${word(N + 5n)}${word(s)}1b`,
      `0x${word(5n)}${word(s)}1b`,
      `0x${r}${word(s + 1n)}${v.toString(16)}`,
      signature.slice(2) as Hex,
      signature.slice(0, 128) as Hex,
      `${signature}00`,
    ];
    for (const edited of cases) {
      const [ours, viems] = await bothOf(hash, edited);
      expect({ edited, ours }).toEqual({ edited, ours: viems });
    }
    // The malleated copy signs for the same key (the token contract refuses it for its high s).
    expect((await bothOf(hash, cases[0]!))[0]).toBe(account.address.toLowerCase());
  });

  it('keeps nothing that answers another digest or signature: each edit is recovered afresh', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256(toHex('kept'));
    const signature = await account.sign({ hash });
    expect(await recoverSigner({ hash, signature })).toBe(account.address);
    const other = keccak256(toHex('another'));
    expect(await bothOf(other, signature)).toEqual(await bothOf(other, signature).then(([, viems]) => [viems, viems]));
    expect((await bothOf(other, signature))[0]).not.toBe(account.address.toLowerCase());
    const upper = `0x${signature.slice(2).toUpperCase()}` as Hex;
    expect(await recoverSigner({ hash, signature: upper })).toBe(account.address);
  });
});
