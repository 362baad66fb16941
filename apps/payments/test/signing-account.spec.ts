import { parseGwei, recoverTransactionAddress, serializeTransaction, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signingAccount } from '../src/domain/signing-account';

/**
 * A facilitator signer's transactions are signed in WebAssembly (issue 37, item 4): the signed
 * transaction must be viem's own, byte for byte, for every transaction type the facilitator sends
 * (EIP-1559, and legacy on chains configured for it), with viem's serializer or one passed in.
 */
const TOKEN = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

function transactionsOf(i: number): TransactionSerializable[] {
  const data = `0xe3ee160e${i.toString(16).padStart(64, '0')}` as const;
  return [
    {
      type: 'eip1559',
      chainId: 84532,
      nonce: i,
      to: TOKEN,
      data,
      gas: 90_000n,
      maxFeePerGas: parseGwei('1.5'),
      maxPriorityFeePerGas: parseGwei('0.1'),
    },
    { type: 'legacy', chainId: 31337, nonce: i * 7, to: TOKEN, data, gas: 100_000n, gasPrice: parseGwei(String(1 + i)) },
    { type: 'eip2930', chainId: 1, nonce: 3, to: TOKEN, data, gas: 21_000n, gasPrice: 1n, accessList: [] },
  ];
}

describe('signingAccount', () => {
  it("signs each transaction exactly as viem's account of the same key does", async () => {
    for (let i = 0; i < 40; i++) {
      const key = generatePrivateKey();
      const ours = signingAccount(key);
      const viems = privateKeyToAccount(key);
      expect(ours.address).toBe(viems.address);
      for (const transaction of transactionsOf(i)) {
        const signed = await ours.signTransaction(transaction);
        expect(signed).toBe(await viems.signTransaction(transaction));
        expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(viems.address);
      }
    }
  });

  it('uses the serializer it is given, for the hash it signs and for the signed transaction', async () => {
    const key = generatePrivateKey();
    const calls: number[] = [];
    const serializer = ((transaction: TransactionSerializable, signature?: never) => {
      calls.push(signature === undefined ? 0 : 1);
      return serializeTransaction(transaction, signature);
    }) as typeof serializeTransaction;
    const [transaction] = transactionsOf(1);
    const signed = await signingAccount(key).signTransaction(transaction!, { serializer });
    expect(calls).toEqual([0, 1]);
    expect(signed).toBe(await privateKeyToAccount(key).signTransaction(transaction!));
  });
});
