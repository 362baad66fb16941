import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseEther,
  parseSignature,
  parseUnits,
  toHex,
  type Address,
  type Chain,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devnetAbi } from '../src/abis';
import { startDevnet, type Devnet, type StartDevnetOptions } from '../src/devnet';
import { rpc } from '../src/json-rpc';
import { FACILITATOR_ETH, PAYER_ETH, PAYER_USDC, paymentAccounts } from '../src/payments';
import { readStateFile, stateFilePath } from '../src/state-file';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../src/eip3009';

jest.setTimeout(120_000);

const DAY = 86_400;
/** A world whose scoring chains' clock is fixed years before today (the reference world's kind). */
const CLOCK_AT = 1_600_000_000 - (1_600_000_000 % DAY);
const usdcAbi = devnetAbi('Usdc3009');

/**
 * The payment chain (84532) as x402 needs it: a devnet-only payer funded with USDC, a facilitator
 * with ETH for gas, an empty receiver, the token's EIP-712 domain in `state.payments`, and a clock
 * on the wall clock, cold or warm, whatever `clockAt` says for the scoring chains.
 */
describe('the devnet payment chain', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'devnet-payments-'));
  const options: StartDevnetOptions = { stateDir, genesisTimestamp: CLOCK_AT - 365 * DAY, clockAt: CLOCK_AT };
  const running: Devnet[] = [];
  afterAll(async () => {
    await Promise.all(running.map((d) => d.stop()));
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function start(): Promise<Devnet> {
    const devnet = await startDevnet(options);
    running.push(devnet);
    return devnet;
  }

  const paymentChain = (devnet: Devnet) => devnet.chains.find((c) => c.spec.id === 84532)!;
  const client = (devnet: Devnet, id = 84532) => {
    const c = devnet.chains.find((x) => x.spec.id === id)!;
    return createPublicClient({ chain: c.chain, transport: http(c.rpcUrl) });
  };
  const usdcBalance = (devnet: Devnet, who: Address) =>
    client(devnet).readContract({ address: devnet.state.payments.token, abi: usdcAbi, functionName: 'balanceOf', args: [who] });
  const now = () => Math.floor(Date.now() / 1000);

  async function expectWallClock(devnet: Devnet): Promise<void> {
    const url = paymentChain(devnet).rpcUrl;
    expect(Math.abs(Number((await client(devnet).getBlock()).timestamp) - now())).toBeLessThan(60);
    await rpc(url, 'anvil_mine', ['0x1']);
    expect(Math.abs(Number((await client(devnet).getBlock()).timestamp) - now())).toBeLessThan(60);
    // the scoring chains keep the fixed clock
    expect(Number((await client(devnet, 1).getBlock()).timestamp)).toBeLessThan(CLOCK_AT + 600);
  }

  let first: Devnet;

  it('cold start: state.payments and cast.payer, written to state.json, derived from the mnemonic', async () => {
    first = await start();
    expect(first.reused).toBe(false);
    const { payments, cast } = first.state;
    const accounts = paymentAccounts();
    expect(payments).toEqual({
      chainId: 84532,
      network: 'eip155:84532',
      v1Network: 'base-sepolia',
      rpcUrl: paymentChain(first).rpcUrl,
      token: first.contracts[84532]!.tokens.USDC!.address,
      tokenName: 'USDC',
      tokenVersion: '2',
      decimals: 6,
      payTo: accounts.payTo,
      facilitator: accounts.facilitator,
      facilitators: accounts.facilitators,
    });
    expect(cast.payer).toEqual(accounts.payer);
    // the keys are the addresses' keys, and the three accounts are distinct
    expect(privateKeyToAccount(cast.payer.privateKey).address).toBe(cast.payer.address);
    expect(privateKeyToAccount(payments.facilitator.privateKey).address).toBe(payments.facilitator.address);
    expect(new Set([cast.payer.address, payments.facilitator.address, payments.payTo]).size).toBe(3);
    // four signers, the first the facilitator, each its own key, none the payer's nor the receiver's
    expect(payments.facilitators[0]).toEqual(payments.facilitator);
    for (const signer of payments.facilitators) expect(privateKeyToAccount(signer.privateKey).address).toBe(signer.address);
    expect(new Set([cast.payer.address, payments.payTo, ...payments.facilitators.map((f) => f.address)]).size).toBe(6);
    const written = readStateFile(stateFilePath(stateDir))!;
    expect(written.payments).toEqual(payments);
    expect(written.cast.payer).toEqual(cast.payer);
  });

  it('funds the payer with USDC and ETH and the four facilitator signers with ETH; the receiver holds no USDC', async () => {
    const { payments, cast } = first.state;
    expect(await usdcBalance(first, cast.payer.address)).toBe(parseUnits(PAYER_USDC, 6));
    expect(await usdcBalance(first, payments.payTo)).toBe(0n);
    expect(await client(first).getBalance({ address: cast.payer.address })).toBe(parseEther(PAYER_ETH));
    for (const signer of payments.facilitators)
      expect(await client(first).getBalance({ address: signer.address })).toBe(parseEther(FACILITATOR_ETH));
    // nothing of it on the scoring chains
    expect(await client(first, 1).getBalance({ address: payments.facilitator.address })).toBe(0n);
  });

  it('the token’s EIP-712 domain is the one state.payments names', async () => {
    const { payments } = first.state;
    const domain = (await client(first).readContract({
      address: payments.token,
      abi: usdcAbi,
      functionName: 'eip712Domain',
    })) as readonly unknown[];
    expect(domain.slice(1, 5)).toEqual([payments.tokenName, payments.tokenVersion, BigInt(payments.chainId), payments.token]);
    expect(await client(first).readContract({ address: payments.token, abi: usdcAbi, functionName: 'decimals' })).toBe(payments.decimals);
  });

  it('the payment chain follows the wall clock although clockAt fixes the scoring chains’ clock years back', async () => {
    await expectWallClock(first);
  });

  it('a payment dated by the wall clock (as x402 clients date it) settles, sent by the facilitator', async () => {
    const { payments, cast } = first.state;
    const chain: Chain = paymentChain(first).chain;
    const payer = privateKeyToAccount(cast.payer.privateKey);
    const message = {
      from: payer.address,
      to: payments.payTo,
      value: parseUnits('0.01', 6),
      validAfter: BigInt(now() - 60),
      validBefore: BigInt(now() + 60),
      nonce: toHex(42n, { size: 32 }),
    };
    const signature = await payer.signTypedData({
      domain: { name: payments.tokenName, version: payments.tokenVersion, chainId: payments.chainId, verifyingContract: payments.token },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message,
    });
    const { v, r, s } = parseSignature(signature);
    const facilitator = createWalletClient({
      account: privateKeyToAccount(payments.facilitator.privateKey),
      chain,
      transport: http(payments.rpcUrl),
    });
    const hash = await facilitator.writeContract({
      address: payments.token,
      abi: usdcAbi,
      functionName: 'transferWithAuthorization',
      args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s],
    });
    expect((await client(first).waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await usdcBalance(first, payments.payTo)).toBe(parseUnits('0.01', 6));
    await first.stop();
  });

  it('warm start: the saved world is reloaded with the same accounts and funds, its payment chain on the wall clock', async () => {
    const again = await start();
    expect(again.reused).toBe(true);
    expect(again.state.cast.payer).toEqual(first.state.cast.payer);
    expect({ ...again.state.payments, rpcUrl: '' }).toEqual({ ...first.state.payments, rpcUrl: '' });
    expect(again.state.payments.rpcUrl).toBe(paymentChain(again).rpcUrl);
    // the saved world is the cold start's (the payment above was not saved)
    expect(await usdcBalance(again, again.state.cast.payer.address)).toBe(parseUnits(PAYER_USDC, 6));
    expect(await usdcBalance(again, again.state.payments.payTo)).toBe(0n);
    await expectWallClock(again);
  });
});
