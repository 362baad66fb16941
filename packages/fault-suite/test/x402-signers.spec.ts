import { getAddress, isAddressEqual, parseAbi, parseEventLogs, toHex, type Address, type Hex } from 'viem';
import type { Db } from '@credit/db/prisma-client';
import { PaymentRepository, type PaymentRecord } from '@credit/db/payment-repository';
import { rpc } from '@credit/devnet/json-rpc';
import { FACILITATOR_ETH } from '@credit/devnet/payments';
import { paymentChainClient, signedX402Payment } from '@credit/devnet/x402-payment';
import { startServiceProcess, type AppProcess } from '../src/apps';
import { sleep, waitUntil } from '../src/ports';
import type { ScoringWorld } from '../src/scoring-world';
import { startX402World, type X402World } from '../src/x402-world';

/**
 * x402 settlement with the devnet's four facilitator signers (issue 37), on two payments replicas
 * holding the same four keys: each signer has its own queue (several settlements under way at
 * once, its transactions sent one at a time under its send lock, in its own nonce sequence) and
 * every payment is given one signer. Checked on the chain itself: every paid
 * payment is exactly one transaction, from one of the signers, whose receipt holds this payment's
 * AuthorizationUsed followed by its Transfer; each signer's nonce moved by exactly its own
 * settlements (no transaction lost to a nonce clash).
 */
jest.setTimeout(300_000);

const TOKEN_EVENTS = parseAbi([
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
let x402: X402World;
let world: ScoringWorld;
let replicas: AppProcess[];
let gateway: AppProcess;
let db: Db;

beforeAll(async () => {
  x402 = await startX402World('x402-signers');
  ({ world, db } = x402);
  const env = { ...world.scoringEnv, ...x402.x402, SETTLEMENT_TIMEOUT_MS: '5000', PAYMENT_SWEEP_MS: '500' };
  replicas = [await startServiceProcess('payments', env, 'payments#1'), await startServiceProcess('payments', env, 'payments#2')];
  gateway = await x402.startGateway();
  // the wallet is read once first: the bursts below measure payment, not reading
  expect((await pay([await signed()]))[0]!.status).toBe(200);
});

afterAll(async () => {
  await x402?.close();
});

const payments = () => world.devnet.state.payments;
const chain = () => paymentChainClient(payments());
const signers = () => payments().facilitators.map((f) => getAddress(f.address));
const ledger = () => new PaymentRepository(db);
const signed = () =>
  signedX402Payment(payments(), {
    key: world.devnet.state.cast.payer.privateKey,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 600),
  });

interface Answer {
  status: number;
  header: string;
}

/** Each payment on its own paid request, all at once (`staggerMs` apart); 0: no answer (the connection dropped). */
async function pay(headers: string[], staggerMs = 0): Promise<Answer[]> {
  const path = `/api/v2/score/address/${world.cast('healthy_borrower')}`;
  return Promise.all(
    headers.map(async (header, i) => {
      await sleep(i * staggerMs);
      try {
        const res = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': header }, signal: AbortSignal.timeout(60_000) });
        await res.text();
        return { status: res.status, header };
      } catch {
        return { status: 0, header };
      }
    }),
  );
}

const nonceOf = (header: string): string =>
  (
    JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { nonce: string } } }
  ).payload.authorization.nonce.toLowerCase();

async function rowsOf(answers: Answer[]): Promise<(PaymentRecord | undefined)[]> {
  const rows = await ledger().list({ limit: 1000 });
  return answers.map((a) => rows.find((row) => row.nonce === nonceOf(a.header)));
}

/** Each signer's nonce (transactions sent), in the order of `signers()`. */
const nonces = () => Promise.all(signers().map((address) => chain().getTransactionCount({ address })));

/**
 * The signer that sent a paid row's settlement, once its receipt is checked: successful, holding
 * exactly one AuthorizationUsed of the token, this payment's, followed by its Transfer (payer →
 * payTo, the exact amount).
 */
async function checkedSigner(row: PaymentRecord): Promise<Address> {
  const receipt = await chain().getTransactionReceipt({ hash: row.transaction as Hex });
  expect(receipt.status).toBe('success');
  const events = parseEventLogs({
    abi: TOKEN_EVENTS,
    logs: receipt.logs.filter((log) => isAddressEqual(log.address, row.asset as Address)),
  });
  expect(events.map((e) => e.eventName)).toEqual(['AuthorizationUsed', 'Transfer']);
  const [used, transfer] = events;
  if (used?.eventName !== 'AuthorizationUsed' || transfer?.eventName !== 'Transfer')
    throw new Error(`${row.transaction}: no authorized transfer`);
  expect([getAddress(used.args.authorizer), used.args.nonce.toLowerCase()]).toEqual([getAddress(row.payer), row.nonce]);
  expect([getAddress(transfer.args.from), getAddress(transfer.args.to), transfer.args.value]).toEqual([
    getAddress(row.payer),
    getAddress(row.payTo),
    BigInt(row.amount),
  ]);
  expect(signers()).toContain(getAddress(receipt.from));
  return getAddress(receipt.from);
}

/** How many of `rows`' settlements each signer sent (receipts checked), in the order of `signers()`. */
async function settlementsBySigner(rows: PaymentRecord[]): Promise<number[]> {
  const senders: Address[] = [];
  for (const row of rows) senders.push(await checkedSigner(row));
  return signers().map((signer) => senders.filter((s) => s === signer).length);
}

const received = () => x402.received();
const minus = (after: number[], before: number[]) => after.map((n, i) => n - before[i]!);

it('many paid requests at once are all settled, in turn across the four signers, one transaction each, with no nonce error', async () => {
  const before = await nonces();
  const answers = await pay(await Promise.all(Array.from({ length: 80 }, signed)));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  const rows = (await rowsOf(answers)) as PaymentRecord[];
  expect(rows.map((row) => row?.status)).toEqual(rows.map(() => 'settled'));
  expect(new Set(rows.map((row) => row.transaction)).size).toBe(rows.length);
  // given in turn (one counter for both replicas): 20 each; each signer's nonce moved by its own settlements only
  const bySigner = await settlementsBySigner(rows);
  expect(bySigner).toEqual([20, 20, 20, 20]);
  expect(minus(await nonces(), before)).toEqual(bySigner);
  for (const replica of replicas) expect(replica.child.output()).not.toMatch(/nonce too (low|high)|replacement transaction/i);
});

it('a signer whose transactions fail (no ETH for gas) fails its own payments only: the other three settle theirs', async () => {
  const p = payments();
  const broken = signers()[2]!;
  await rpc(p.rpcUrl, 'anvil_setBalance', [broken, '0x0']);
  try {
    const before = await nonces();
    const receivedBefore = await received();
    const answers = await pay(await Promise.all(Array.from({ length: 40 }, signed)));
    const rows = await rowsOf(answers);
    // one payment in four was given the broken signer: refused (402, nothing served), its row failed
    expect(answers.filter((a) => a.status === 200).length).toBe(30);
    expect(answers.filter((a) => a.status === 402).length).toBe(10);
    for (const [i, answer] of answers.entries())
      expect([answer.status, rows[i]?.status]).toEqual(answer.status === 200 ? [200, 'settled'] : [402, 'failed']);
    const paid = rows.filter((row) => row?.status === 'settled') as PaymentRecord[];
    const bySigner = await settlementsBySigner(paid);
    expect(bySigner).toEqual([10, 10, 0, 10]);
    expect(minus(await nonces(), before)).toEqual(bySigner);
    expect((await received()) - receivedBefore).toBe(paid.reduce((sum, row) => sum + BigInt(row.amount), 0n));
  } finally {
    await rpc(p.rpcUrl, 'anvil_setBalance', [broken, toHex(BigInt(FACILITATOR_ETH) * 10n ** 18n)]);
  }
  // funded again, it settles its share as before
  const again = await pay(await Promise.all(Array.from({ length: 8 }, signed)));
  expect(again.map((a) => a.status)).toEqual(again.map(() => 200));
});

/**
 * After a replica was killed during `answers`' burst and restarted: nothing left reserved; a 200 was
 * paid; each paid row is its own transaction, from one signer, whose nonce moved by exactly its own
 * settlements; the USDC received is the paid rows' sum; a paid payment whose answer was lost gets it
 * when sent again, and nothing moves again. Its settlements by signer, and how many answers were lost.
 */
async function checkedAfterKill(
  answers: Answer[],
  before: number[],
  receivedBefore: bigint,
): Promise<{ bySigner: number[]; lost: number }> {
  await waitUntil(
    'no payment left reserved',
    async () => (await ledger().list({ limit: 1000 })).every((row) => row.status !== 'reserved'),
    60_000,
  );
  const rows = await rowsOf(answers);
  const paid = rows.filter((row) => row?.status === 'settled' || row?.status === 'unserved') as PaymentRecord[];
  expect(paid.length).toBeGreaterThan(0);
  for (const [i, answer] of answers.entries()) if (answer.status === 200) expect(rows[i]?.status).toBe('settled');
  expect(new Set(paid.map((row) => row.transaction)).size).toBe(paid.length);
  const bySigner = await settlementsBySigner(paid);
  expect(minus(await nonces(), before)).toEqual(bySigner);
  const sum = paid.reduce((total, row) => total + BigInt(row.amount), 0n);
  expect((await received()) - receivedBefore).toBe(sum);
  const lost = answers.filter((a, i) => a.status !== 200 && paid.includes(rows[i]!));
  expect((await pay(lost.map((a) => a.header))).map((a) => a.status)).toEqual(lost.map(() => 200));
  expect((await received()) - receivedBefore).toBe(sum);
  return { bySigner, lost: lost.length };
}

it('a payments replica SIGKILLed mid-settlement and restarted: nothing is settled twice, every paid payment is one transaction', async () => {
  const before = await nonces();
  const receivedBefore = await received();
  const headers = await Promise.all(Array.from({ length: 60 }, signed));
  const burst = pay(headers, 10);
  await waitUntil('settlements under way', async () => (await ledger().list({ status: 'settled', limit: 1000 })).length >= 5, 60_000, 10);
  replicas[0] = await replicas[0]!.restart({ kill: true });
  const answers = await burst;
  for (const answer of answers) expect([0, 200, 402, 503, 504]).toContain(answer.status);
  const { bySigner, lost } = await checkedAfterKill(answers, before, receivedBefore);
  console.log(
    `x402 signers, replica SIGKILLed: answers ${JSON.stringify(answers.map((a) => a.status))}; settlements by signer ${JSON.stringify(bySigner)}; ${lost} paid answers lost, taken again`,
  );
});

/** Runs `during` while the payment chain mines a block a second (as a real chain does), then a block per transaction again. */
async function onBlockASecond(during: () => Promise<void>): Promise<void> {
  const url = payments().rpcUrl;
  await rpc(url, 'evm_setAutomine', [false]);
  await rpc(url, 'evm_setIntervalMining', [1]);
  try {
    await during();
  } finally {
    await rpc(url, 'evm_setIntervalMining', [0]);
    await rpc(url, 'evm_setAutomine', [true]);
  }
}

it('a replica SIGKILLed while its signers have transactions waiting for the next block: each lands once, and is that payment', async () => {
  const p = payments();
  await onBlockASecond(async () => {
    const before = await nonces();
    const receivedBefore = await received();
    const burst = pay(await Promise.all(Array.from({ length: 32 }, signed)));
    // sent and not yet mined: the pool holds settlements of the replica about to die
    await waitUntil(
      'settlements waiting in the pool',
      async () => Number((await rpc<{ pending: string }>(p.rpcUrl, 'txpool_status', [])).pending) >= 4,
      60_000,
      5,
    );
    replicas[0] = await replicas[0]!.restart({ kill: true });
    const answers = await burst;
    for (const answer of answers) expect([0, 200, 402, 503, 504]).toContain(answer.status);
    const { bySigner, lost } = await checkedAfterKill(answers, before, receivedBefore);
    console.log(
      `x402 signers, replica SIGKILLed with transactions in the pool: answers ${JSON.stringify(answers.map((a) => a.status))}; settlements by signer ${JSON.stringify(bySigner)}; ${lost} paid answers lost, taken again`,
    );
  });
});

it('on a chain that mines a block a second, a signer puts several settlements in one block: sent in nonce order, not one receipt at a time', async () => {
  await onBlockASecond(async () => {
    const before = await nonces();
    const answers = await pay(await Promise.all(Array.from({ length: 24 }, signed)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const rows = (await rowsOf(answers)) as PaymentRecord[];
    expect(rows.map((row) => row?.status)).toEqual(rows.map(() => 'settled'));
    const bySigner = await settlementsBySigner(rows);
    expect(minus(await nonces(), before)).toEqual(bySigner);
    // settled one at a time, a signer's next transaction would wait for the last one's block
    const inBlock = new Map<string, number>();
    for (const row of rows) {
      const receipt = await chain().getTransactionReceipt({ hash: row.transaction as Hex });
      const at = `${receipt.from.toLowerCase()}@${receipt.blockNumber}`;
      inBlock.set(at, (inBlock.get(at) ?? 0) + 1);
    }
    expect(Math.max(...inBlock.values())).toBeGreaterThan(1);
    for (const replica of replicas) expect(replica.child.output()).not.toMatch(/nonce too (low|high)|replacement transaction/i);
    console.log(
      `x402 signers, a block a second: ${rows.length} settlements in ${new Set([...inBlock.keys()].map((k) => k.split('@')[1])).size} blocks; by signer and block ${JSON.stringify(Object.fromEntries(inBlock))}`,
    );
  });
});
