import { parseSignature, parseUnits, toHex, type Address, type Hex } from 'viem';
import { devnetAbi } from '../src/abis';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../src/eip3009';
import { account, startTestChain, type TestChain } from './helpers';

const types = TRANSFER_WITH_AUTHORIZATION_TYPES;

describe('USDC with EIP-3009 on the payment chain (84532)', () => {
  let chain: TestChain;
  let usdc: Address;
  const abi = devnetAbi('Usdc3009');
  const payer = account(1);
  const payee = account(2).address;
  const relayer = 3;

  beforeAll(async () => {
    chain = await startTestChain(84532);
    usdc = chain.contracts.tokens.USDC!.address;
    const owner = chain.as(0);
    await owner.public.waitForTransactionReceipt({
      hash: await owner.wallet.writeContract({ address: usdc, abi, functionName: 'mint', args: [payer.address, parseUnits('10', 6)] }),
    });
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  const balance = (who: Address) => chain.as(0).public.readContract({ address: usdc, abi, functionName: 'balanceOf', args: [who] });

  async function sign(nonce: Hex, value: bigint, validBefore = 2n ** 40n) {
    const message = { from: payer.address, to: payee, value, validAfter: 0n, validBefore, nonce };
    const signature = await payer.signTypedData!({
      domain: { name: 'USDC', version: '2', chainId: 84532, verifyingContract: usdc },
      types,
      primaryType: 'TransferWithAuthorization',
      message,
    });
    return { message, signature };
  }

  it('has the EIP-712 domain USDC / 2 on chain 84532', async () => {
    const client = chain.as(0).public;
    expect(chain.contracts.tokens.USDC).toMatchObject({ name: 'USDC', symbol: 'USDC', decimals: 6, eip712Version: '2' });
    expect(await client.readContract({ address: usdc, abi, functionName: 'name' })).toBe('USDC');
    expect(await client.readContract({ address: usdc, abi, functionName: 'version' })).toBe('2');
    const domain = (await client.readContract({ address: usdc, abi, functionName: 'eip712Domain' })) as readonly unknown[];
    expect(domain.slice(1, 5)).toEqual(['USDC', '2', 84532n, usdc]);
  });

  it('moves funds on a signed transferWithAuthorization sent by a relayer; a reused nonce fails', async () => {
    const nonce = toHex(1234n, { size: 32 });
    const { message, signature } = await sign(nonce, parseUnits('1.5', 6));
    const { r, s, v } = parseSignature(signature);
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, nonce, Number(v), r, s] as const;
    const client = chain.as(relayer);
    expect(await client.public.readContract({ address: usdc, abi, functionName: 'authorizationState', args: [payer.address, nonce] })).toBe(
      false,
    );

    const receipt = await client.public.waitForTransactionReceipt({
      hash: await client.wallet.writeContract({ address: usdc, abi, functionName: 'transferWithAuthorization', args }),
    });
    expect(receipt.status).toBe('success');
    expect(await balance(payer.address)).toBe(parseUnits('8.5', 6));
    expect(await balance(payee)).toBe(parseUnits('1.5', 6));
    expect(await client.public.readContract({ address: usdc, abi, functionName: 'authorizationState', args: [payer.address, nonce] })).toBe(
      true,
    );

    await expect(
      client.public.simulateContract({
        account: client.wallet.account,
        address: usdc,
        abi,
        functionName: 'transferWithAuthorization',
        args,
      }),
    ).rejects.toThrow(/AuthorizationUsedOrCanceled/);
    expect(await balance(payee)).toBe(parseUnits('1.5', 6));
  });

  it('accepts the bytes-signature overload, and rejects a wrong signer or an expired authorization', async () => {
    const client = chain.as(relayer);
    const nonce = toHex(5678n, { size: 32 });
    const { message, signature } = await sign(nonce, parseUnits('1', 6));
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, nonce] as const;

    // same message, but claimed to be from someone else
    await expect(
      client.public.simulateContract({
        account: client.wallet.account,
        address: usdc,
        abi,
        functionName: 'transferWithAuthorization',
        args: [account(4).address, ...args.slice(1), signature],
      }),
    ).rejects.toThrow(/InvalidSignature/);

    const hash = await client.wallet.writeContract({
      address: usdc,
      abi,
      functionName: 'transferWithAuthorization',
      args: [...args, signature],
    });
    expect((await client.public.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balance(payee)).toBe(parseUnits('2.5', 6));

    const expired = await sign(toHex(9999n, { size: 32 }), 1n, 1n);
    const m = expired.message;
    await expect(
      client.public.simulateContract({
        account: client.wallet.account,
        address: usdc,
        abi,
        functionName: 'transferWithAuthorization',
        args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, expired.signature],
      }),
    ).rejects.toThrow(/AuthorizationExpired/);
  });
});
