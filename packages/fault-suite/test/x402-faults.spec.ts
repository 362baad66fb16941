import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAbi, type Address, type Hex } from 'viem';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { PaymentRepository } from '@credit/db/payment-repository';
import { devnetX402Env } from '@credit/x402/devnet-x402';
import { paymentChainClient, signedX402Payment } from '@credit/devnet/x402-payment';
import { NATS_URL, REDIS_URL, startGatewayProcess, startServiceProcess, stopAllApps, type AppProcess } from '../src/apps';
import { sleep, waitUntil } from '../src/ports';
import { startScoringWorld, type ScoringWorld } from '../src/scoring-world';

/**
 * x402 when the payments service dies: paid requests in flight while it is SIGKILLed and
 * restarted. Nothing is settled twice or for an unserved answer that was not already on chain,
 * nothing stays reserved, and the chain, the payments ledger and the answers agree: the USDC moved
 * is the settled rows' sum, every 200 has its settled row and transaction, and the signer sent
 * exactly one transaction per settled payment (one at a time, in nonce order).
 */
jest.setTimeout(240_000);

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

let world: ScoringWorld;
let payments: AppProcess;
let gateway: AppProcess;
let db: Db;
let dir: string;

beforeAll(async () => {
  world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: REDIS_URL });
  db = createPrismaClient(world.database.url);
  dir = mkdtempSync(join(tmpdir(), 'credit-x402-faults-'));
  const x402 = devnetX402Env(world.devnet.state.payments, join(dir, 'x402-networks.json'));
  const { X402_FACILITATOR_PRIVATE_KEY: signer, ...shared } = x402;
  payments = await startServiceProcess('payments', {
    ...world.scoringEnv,
    ...x402,
    X402_FACILITATOR_PRIVATE_KEY: signer!,
    SETTLEMENT_TIMEOUT_MS: '2000',
    PAYMENT_SWEEP_MS: '500',
  });
  gateway = await startGatewayProcess({ NATS_URL, NATS_SUBJECT_PREFIX: world.prefix, DATABASE_URL: world.database.url, ...shared });
});

afterAll(async () => {
  await stopAllApps();
  await db?.$disconnect();
  await world?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const chain = () => paymentChainClient(world.devnet.state.payments);

async function received(): Promise<bigint> {
  const p = world.devnet.state.payments;
  return chain().readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [p.payTo] });
}

it('the payments service SIGKILLed with paid requests in flight: after its restart the chain, the ledger and the answers agree', async () => {
  const p = world.devnet.state.payments;
  const client = chain();
  const receivedBefore = await received();
  const signerNonceBefore = await client.getTransactionCount({ address: p.facilitator.address as Address });
  const path = `/api/v2/score/address/${world.cast('healthy_borrower')}`;
  // warm the wallet through one paid request first: the burst measures payment, not reading
  const headers = await Promise.all(
    Array.from({ length: 41 }, () =>
      signedX402Payment(p, { key: world.devnet.state.cast.payer.privateKey, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) }),
    ),
  );
  const first = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': headers[0]! } });
  expect(first.status).toBe(200);

  const answers: { status: number; requestId: string | null }[] = [];
  const burst = headers.slice(1).map(async (header, i) => {
    await sleep(i * 15);
    try {
      const res = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': header }, signal: AbortSignal.timeout(60_000) });
      await res.text();
      answers.push({ status: res.status, requestId: res.headers.get('x-request-id') });
    } catch {
      answers.push({ status: 0, requestId: null });
    }
  });
  // killed once some are served: the rest are before, in or after their settlement
  await waitUntil('a few paid answers', async () => answers.filter((a) => a.status === 200).length >= 3, 60_000, 10);
  payments = await payments.restart({ kill: true });
  await Promise.all(burst);

  const statuses = answers.map((a) => a.status);
  // served and settled, refused (402: the settlement did not go through), or the service away (503/504); never a 500 or a hang
  console.log(`x402 SIGKILL: statuses ${JSON.stringify(statuses)}`);
  for (const status of statuses) expect([200, 402, 503, 504]).toContain(status);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 200).length).toBeGreaterThan(0);

  const ledger = new PaymentRepository(db);
  await waitUntil(
    'no payment left reserved',
    async () => (await ledger.list({ limit: 1000 })).every((row) => row.status !== 'reserved'),
    60_000,
  );
  const rows = await ledger.list({ limit: 1000 });
  const settled = rows.filter((row) => row.status === 'settled');
  // the chain: what moved is exactly the settled rows' sum; the signer sent one transaction per settled payment
  expect((await received()) - receivedBefore).toBe(settled.reduce((sum, row) => sum + BigInt(row.amount), 0n));
  expect((await client.getTransactionCount({ address: p.facilitator.address as Address })) - signerNonceBefore).toBe(settled.length);
  for (const row of settled) expect((await client.getTransactionReceipt({ hash: row.transaction as Hex })).status).toBe('success');
  // every served answer was paid
  const settledRequests = new Set(settled.map((row) => row.requestId));
  for (const answer of answers.filter((a) => a.status === 200)) expect(settledRequests.has(answer.requestId!)).toBe(true);
  console.log(
    `x402 SIGKILL: answers ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}; ` +
      `ledger ${settled.length} settled, ${rows.length - settled.length} failed; USDC received ${(await received()) - receivedBefore}`,
  );

  // and the restarted service settles the next payment as before
  const after = await fetch(`${gateway.url}${path}`, {
    headers: { 'x-payment': await signedX402Payment(p, { key: world.devnet.state.cast.payer.privateKey }) },
  });
  expect(after.status).toBe(200);
});
