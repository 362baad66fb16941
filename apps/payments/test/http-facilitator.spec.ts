import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAbi, type Hex } from 'viem';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { challengeOf } from '@credit/x402/challenge';
import { x402Settings } from '@credit/x402/x402-settings';
import { paymentChainClient, signedX402Payment } from '@credit/devnet/x402-payment';
import type { Facilitator } from '../src/domain/facilitator';
import { httpFacilitator } from '../src/domain/http-facilitator';
import { paymentChain } from '../src/domain/payment-chain';
import { selfHostedFacilitator } from '../src/domain/self-hosted-facilitator';

/**
 * `X402_FACILITATOR_URL`: the payments service's client of an external facilitator, against a
 * local server that answers x402's facilitator HTTP API (`POST /verify`, `POST /settle`, JSON
 * `{x402Version, paymentPayload, paymentRequirements}`) with the x402 libraries' own facilitator
 * behind it, on the devnet's payment chain: a payment verified and settled on chain, a bad one
 * refused with its reason.
 */
jest.setTimeout(120_000);

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

let devnet: Devnet;
let server: Server;
let external: Facilitator;

beforeAll(async () => {
  devnet = await startDevnet({ heartbeat: false });
  const p = devnet.state.payments;
  const settings = settingsOf();
  const behind = selfHostedFacilitator(settings.networks, {
    privateKey: p.facilitator.privateKey,
    rpcTimeoutMs: 10_000,
    confirmationTimeoutMs: 30_000,
  });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const { paymentPayload, paymentRequirements } = JSON.parse(body) as { paymentPayload: never; paymentRequirements: never };
      const run =
        req.url === '/verify' ? behind.verify(paymentPayload, paymentRequirements) : behind.settle(paymentPayload, paymentRequirements);
      run.then(
        (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  external = httpFacilitator(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await devnet?.stop();
});

function settingsOf() {
  const p = devnet.state.payments;
  // the devnet's token and chain for eip155:84532, as its networks file says (devnetX402Env)
  const settings = x402Settings({ X402_PAY_TO: p.payTo })!;
  return {
    ...settings,
    networks: settings.networks.map((n) =>
      n.network === p.network ? { ...n, asset: p.token, tokenName: p.tokenName, tokenVersion: p.tokenVersion, rpcUrl: p.rpcUrl } : n,
    ),
  };
}

function paymentOf(header: string) {
  const challenge = challengeOf({ cu: 1, resource: 'http://api.test/x', description: 'test', signupUrl: 'http://api.test/' }, settingsOf());
  return {
    payload: JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as never,
    requirements: challenge.v1.get('base-sepolia') as never,
  };
}

it('verifies and settles a payment through the external facilitator: the USDC moves, the transaction is on chain', async () => {
  const p = devnet.state.payments;
  const client = paymentChainClient(p);
  const before = await client.readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [p.payTo] });
  const { payload, requirements } = paymentOf(await signedX402Payment(p, { key: devnet.state.cast.payer.privateKey }));
  expect(external.supports(1, 'base-sepolia')).toBe(true);
  expect(await external.verify(payload, requirements)).toMatchObject({ isValid: true, payer: devnet.state.cast.payer.address });
  const settled = await external.settle(payload, requirements);
  expect(settled).toMatchObject({ success: true });
  expect((await client.getTransactionReceipt({ hash: settled.transaction as Hex })).status).toBe('success');
  expect((await client.readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [p.payTo] })) - before).toBe(10_000n);
  // the facilitator's word is checked on chain: its transaction moved exactly this payment's transfer
  const chain = paymentChain(settingsOf().networks, { rpcTimeoutMs: 10_000, confirmationTimeoutMs: 10_000 });
  const authorization = (payload as { payload: { authorization: { nonce: string } } }).payload.authorization;
  const expected = {
    network: p.network,
    asset: p.token,
    payer: devnet.state.cast.payer.address,
    payTo: p.payTo,
    amount: '10000',
    nonce: authorization.nonce,
  };
  expect(await chain.confirms(expected, settled.transaction)).toEqual({ kind: 'paid', transaction: settled.transaction });
  expect(await chain.authorizationUse(expected)).toEqual({ kind: 'paid', transaction: settled.transaction });
  // the same transaction does not pay another amount, nor another receiver
  expect(await chain.confirms({ ...expected, amount: '20000' }, settled.transaction)).toMatchObject({
    kind: 'misused',
    reason: 'authorization_used_elsewhere',
  });
  expect(await chain.confirms({ ...expected, payTo: devnet.state.cast.payer.address }, settled.transaction)).toMatchObject({
    kind: 'misused',
  });
});

it('a payment for the wrong amount is refused with the facilitator reason', async () => {
  const p = devnet.state.payments;
  const { payload, requirements } = paymentOf(await signedX402Payment(p, { key: devnet.state.cast.payer.privateKey, value: 9_999n }));
  expect(await external.verify(payload, requirements)).toMatchObject({
    isValid: false,
    invalidReason: 'invalid_exact_evm_authorization_value',
  });
});
