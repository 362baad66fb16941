import { connect, type NatsConnection } from 'nats';
import { getAddress } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { signedX402Payment } from '@credit/devnet/x402-payment';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { startPaidReferenceStack, type PaidReferenceStack } from '@credit/test-stack/paid-reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';

/**
 * Attack: lock a payer out by spending its rate limit, or make the payments service verify without
 * end. Forged payment headers name a victim's address as `from` (no key, no funds, no valid
 * signature). Control: the per-payer limit is counted only after verification, on the signer the
 * payments service recovered; before any verification, a payment header is limited per client
 * address (`request.ip`, behind TRUST_PROXY), so a flood costs one Redis call each.
 */
jest.setTimeout(300_000);

let paid: PaidReferenceStack;
let nc: NatsConnection;

const state = () => paid.state();
const path = () => `/api/v2/score/address/${getAddress(state().cast.healthy_borrower!.address)}`;

beforeAll(async () => {
  paid = await startPaidReferenceStack(['scoring']);
  nc = await connect({ servers: NATS_URL });
}, 600_000);

afterAll(async () => {
  await nc?.close();
  await paid?.close();
});

/** A header naming the victim as payer, signed by a stranger: it can never verify. */
const forgedForVictim = () =>
  signedX402Payment(state().payments, { key: generatePrivateKey() }).then((header) => {
    const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    decoded.payload.authorization.from = state().cast.payer.address;
    return Buffer.from(JSON.stringify(decoded)).toString('base64');
  });
const valid = () => signedX402Payment(state().payments, { key: state().cast.payer.privateKey });

/** Counts the verifications the payments service is asked for (a plain subscriber beside its queue group). */
function countVerifications(): { count: () => number; stop: () => void } {
  let count = 0;
  const sub = nc.subscribe(`${paid.reference.stack.prefix}.credit.payments.verify.v1`, { callback: () => (count += 1) });
  return { count: () => count, stop: () => sub.unsubscribe() };
}

function replica(env: Record<string, string>): Promise<RunningGateway> {
  return paid.startGateway(env);
}

it("forged headers naming a victim never spend the victim's payer limit: after 30 of them its valid payments are served up to its own limit", async () => {
  const gateway = await replica({ RATE_LIMIT_X402_PER_MIN: '3', RATE_LIMIT_X402_UNVERIFIED_PER_MIN: '1000' });
  const forged = await Promise.all(Array.from({ length: 30 }, forgedForVictim));
  const refused = await Promise.all(forged.map((h) => http(gateway.url, path(), { headers: { 'x-payment': h } })));
  for (const r of refused) expect([r.status, r.body.reason]).toEqual([402, 'invalid_exact_evm_signature']);
  // the victim's own payments: its whole limit is there
  const answers: [number, unknown][] = [];
  for (let i = 0; i < 4; i++) {
    const answer = await http(gateway.url, path(), { headers: { 'x-payment': await valid() } });
    answers.push([answer.status, answer.status === 200 ? undefined : (answer.body.reason ?? answer.body.detail?.error)]);
  }
  // the fourth proves the limit is live and keyed on the victim: it is the victim's own fourth payment
  expect(answers).toEqual([
    [200, undefined],
    [200, undefined],
    [200, undefined],
    [429, 'rate_limited'],
  ]);
});

it('a flood of forged headers from one client address is refused with 429 before verification once its limit is spent; a payer on another address is served', async () => {
  const gateway = await replica({ TRUST_PROXY: 'loopback', RATE_LIMIT_X402_UNVERIFIED_PER_MIN: '5', RATE_LIMIT_X402_PER_MIN: '1000' });
  const verifications = countVerifications();
  try {
    await nc.flush();
    const flooder = { 'x-forwarded-for': '203.0.113.7' };
    const results = [];
    for (let i = 0; i < 20; i++)
      results.push(await http(gateway.url, path(), { headers: { ...flooder, 'x-payment': await forgedForVictim() } }));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 402)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual(Array.from({ length: 15 }, () => 429));
    expect(results[19]!.body.detail.error).toBe('rate_limited');
    expect(results[19]!.body.detail.message).toContain('203.0.113.7');
    expect(Number(results[19]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // garbage that is not even a payment counts too: it is refused before it is read
    const garbage = await http(gateway.url, path(), { headers: { ...flooder, 'x-payment': '%%%' } });
    expect(garbage.status).toBe(429);
    // the victim, on its own address, pays as usual
    const victim = await http(gateway.url, path(), { headers: { 'x-forwarded-for': '198.51.100.9', 'x-payment': await valid() } });
    expect([victim.status, victim.body.reason]).toEqual([200, undefined]);
    await nc.flush();
    // the payments service verified the five the limit let through, and the victim's: nothing of the rest
    expect(verifications.count()).toBe(6);
  } finally {
    verifications.stop();
  }
});
