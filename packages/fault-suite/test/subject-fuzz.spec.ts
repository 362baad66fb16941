import { SUBJECT_NAMES, SUBJECTS, type ServiceName, type SubjectName } from '@credit/contracts/subjects';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { connect, type NatsConnection } from 'nats';
import { NATS_URL, REDIS_URL, startServiceProcess, type AppProcess } from '../src/apps';
import { killAllChildren } from '../src/child-process';
import { VITALIK } from '../src/fuzz-values';
import { startScoringWorld, type ScoringWorld } from '../src/scoring-world';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { challengeOf } from '@credit/x402/challenge';
import { devnetX402Env } from '@credit/x402/devnet-x402';
import { x402Settings } from '@credit/x402/x402-settings';
import { signedX402Payment } from '@credit/devnet/x402-payment';
import { ask, invalidData, packet, unreadablePayloads, validRequest, type Outcome } from '../src/subject-fuzz';

/**
 * Every subject of the contracts gets unreadable packets, `null`, empty and oversized payloads,
 * and readable packets whose data breaks its schema, with and without a reply subject. The
 * sandbox, scoring, reports, identity and payments run as child processes (on a seeded devnet with the
 * indexer caught up); each answers every message with a reply or a contract error, never
 * `internal`, never silence, stays up, and answers a valid request afterwards.
 */
jest.setTimeout(300_000);

/** Slack over a subject's deadline for a busy 2-core machine. */
const MARGIN_MS = 3_000;
const figures = { messages: 0, withReply: 0, withoutReply: 0, outcomes: {} as Record<string, number> };
let nc: NatsConnection;
let sandbox: AppProcess;
let sandboxPrefix: string;
let world: ScoringWorld;
let payments: AppProcess;
let x402Dir: string;
let x402Env: Record<string, string>;

beforeAll(async () => {
  sandboxPrefix = uniquePrefix('subjfuzz');
  sandbox = await startServiceProcess('sandbox', { NATS_URL, NATS_SUBJECT_PREFIX: sandboxPrefix });
  world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: REDIS_URL, withReports: true });
  x402Dir = mkdtempSync(join(tmpdir(), 'credit-subject-fuzz-'));
  x402Env = devnetX402Env(world.devnet.state.payments, join(x402Dir, 'x402-networks.json'));
  payments = await startServiceProcess('payments', { ...world.scoringEnv, ...x402Env });
  nc = await connect({ servers: NATS_URL, name: 'subject-fuzz' });
});

afterAll(async () => {
  console.log(`subject fuzz figures: ${JSON.stringify(figures)}`);
  await nc?.close();
  await world?.close();
  await killAllChildren();
  if (x402Dir) rmSync(x402Dir, { recursive: true, force: true });
});

function running(service: ServiceName): { process: AppProcess; prefix: string; address: string } | undefined {
  if (service === 'sandbox') return { process: sandbox, prefix: sandboxPrefix, address: VITALIK };
  if (service === 'scoring') return { process: world.scoring, prefix: world.prefix, address: world.cast('healthy_borrower') };
  if (service === 'reports') return { process: world.reports!, prefix: world.prefix, address: world.cast('healthy_borrower') };
  if (service === 'identity') return { process: world.identity, prefix: world.prefix, address: world.cast('ens_holder') };
  if (service === 'payments') return { process: payments, prefix: world.prefix, address: world.cast('healthy_borrower') };
  return undefined;
}

/** A payment the service accepts: signed by the devnet payer, answering this 1-CU request's challenge. */
async function freshVerifyRequest(): Promise<unknown> {
  const state = world.devnet.state;
  const header = await signedX402Payment(state.payments, { key: state.cast.payer.privateKey });
  const challenge = challengeOf(
    { cu: 1, resource: 'http://fuzz/api/v2/score/address/x', description: 'fuzz', signupUrl: 'http://fuzz/' },
    x402Settings(x402Env)!,
  );
  return {
    x402Version: 1,
    payload: JSON.parse(Buffer.from(header, 'base64').toString('utf8')),
    requirements: challenge.v1.get('base-sepolia'),
    requestId: 'fuzz',
    operation: 'scoreAddress',
    cu: 1,
    resource: 'GET /api/v2/score/address/x',
  };
}

/**
 * A request the subject's service accepts: the contracts' fill, or for the payments, a freshly
 * signed payment (verify) and a payment verified just now (settle: it settles on chain).
 */
async function acceptedRequest(subject: SubjectName, address: string): Promise<unknown> {
  if (subject === 'credit.payments.verify.v1') return freshVerifyRequest();
  if (subject === 'credit.payments.settle.v1') {
    const verified = await ask(
      nc,
      `${world.prefix}.credit.payments.verify.v1`,
      packet('credit.payments.verify.v1', await freshVerifyRequest()),
      20_000,
    );
    if (verified.kind !== 'reply') throw new Error(`a fresh payment was not verified: ${JSON.stringify(verified)}`);
    return { paymentId: (verified.response as { paymentId: string }).paymentId, deadline: Date.now() + 60_000 };
  }
  return validRequest(subject, address);
}

function count(outcome: Outcome | 'no answer'): void {
  figures.messages += 1;
  figures.withReply += 1;
  const key = typeof outcome === 'string' ? outcome : outcome.kind === 'error' ? `error ${outcome.code}` : outcome.kind;
  figures.outcomes[key] = (figures.outcomes[key] ?? 0) + 1;
}

async function askCounted(subject: SubjectName, wire: string, payload: Uint8Array): Promise<Outcome | 'no answer'> {
  const outcome = await ask(nc, wire, payload, SUBJECTS[subject].timeoutMs + MARGIN_MS).catch(() => 'no answer' as const);
  count(outcome);
  return outcome;
}

describe.each(SUBJECT_NAMES)('%s', (subject) => {
  const service = SUBJECTS[subject].service;

  it(`${service}: every bad message is answered with a contract error or dropped, and a valid request is answered afterwards`, async () => {
    const target = running(service);
    if (target === undefined) throw new Error(`the fault world runs no ${service} service`);
    const wire = `${target.prefix}.${subject}`;

    for (const [name, payload] of unreadablePayloads(subject)) {
      expect({ name, outcome: await askCounted(subject, wire, payload) }).toEqual({
        name,
        outcome: { kind: 'error', code: 'invalid_body' },
      });
    }
    const answers = await Promise.all(
      invalidData(subject, target.address).map(async ([name, data]) => ({
        name,
        outcome: await askCounted(subject, wire, packet(subject, data)),
      })),
    );
    const bad = answers.filter(
      ({ outcome }) =>
        outcome === 'no answer' || outcome.kind === 'unreadable reply' || (outcome.kind === 'error' && outcome.code === 'internal'),
    );
    expect(bad).toEqual([]);

    // Without a reply subject nothing can be answered: all of it is dropped, and the replica lives on.
    for (const [, payload] of unreadablePayloads(subject)) nc.publish(wire, payload);
    for (const [, data] of invalidData(subject, target.address)) nc.publish(wire, packet(subject, data));
    nc.publish(wire, packet(subject, await acceptedRequest(subject, target.address)));
    figures.withoutReply += unreadablePayloads(subject).length + invalidData(subject, target.address).length + 1;
    figures.messages += unreadablePayloads(subject).length + invalidData(subject, target.address).length + 1;
    await nc.flush();

    const after = await askCounted(subject, wire, packet(subject, await acceptedRequest(subject, target.address)));
    expect(after).toMatchObject({ kind: 'reply' });
    expect(target.process.child.exit).toBeUndefined();
  });
});
