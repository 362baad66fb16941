import { EVENTS, type EventPayload } from '@credit/contracts/events';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { AccountRepository } from '@credit/db/account-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository, type UsageEntryInput } from '@credit/db/usage-ledger-repository';
import { Meter, type AdmitRequest } from '@credit/metering/meter';
import { MeterKeys } from '@credit/metering/meter-keys';
import { periodAt } from '@credit/metering/period';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { Redis } from 'ioredis';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { eventSubject } from '@credit/rpc/event-publisher';
import { NATS_URL, REDIS_URL, randomEmail, randomSubjectPrefix, runCapture } from './run-cli-helpers';

jest.setTimeout(60_000);

describe('accounts commands against Postgres, Redis and NATS', () => {
  let database: TestDatabase;
  let db: Db;
  let redis: Redis;
  let nats: NatsConnection;
  let prefix: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrismaClient(database.url);
    redis = new Redis(redisOptionsFromUrl(REDIS_URL));
    nats = await connect({ servers: NATS_URL });
    prefix = randomSubjectPrefix();
    env = { DATABASE_URL: database.url, NATS_URL, NATS_SUBJECT_PREFIX: prefix, REDIS_URL };
  });

  afterAll(async () => {
    if (prefix) await deleteKeysWithPrefix(REDIS_URL, prefix);
    redis?.disconnect();
    await nats?.close();
    await db?.$disconnect();
    await database?.drop();
  });

  async function createAccount(email: string, plan = 'free'): Promise<string> {
    const run = await runCapture(['keys:create', '--email', email, '--name', 'test key', '--plan', plan], env);
    expect(run.code).toBe(0);
    return (JSON.parse(run.out) as { account_id: string }).account_id;
  }

  async function show(email: string): Promise<Record<string, unknown>> {
    const run = await runCapture(['accounts:show', '--email', email], env);
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(1);
    return JSON.parse(run.out) as Record<string, unknown>;
  }

  /** The next message on the prefixed plan subject, decoded. */
  async function nextPlanChange(subscription: Subscription): Promise<EventPayload<'accountPlanChanged'>> {
    for await (const message of subscription) {
      return EVENTS.accountPlanChanged.payload.parse(JSON.parse(message.string()));
    }
    throw new Error('subscription closed before a plan change arrived');
  }

  /** Subscribes to the next plan change (an async function would wait for the event itself). */
  async function subscribeToPlanChanges(): Promise<{ event: Promise<EventPayload<'accountPlanChanged'>> }> {
    const subscription = nats.subscribe(eventSubject('accountPlanChanged', prefix), { max: 1 });
    await nats.flush();
    return { event: nextPlanChange(subscription) };
  }

  describe('accounts:set-plan', () => {
    it('changes the plan in Postgres and broadcasts it on the prefixed subject', async () => {
      const email = randomEmail();
      const accountId = await createAccount(email);
      const { event } = await subscribeToPlanChanges();

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro'], env);

      expect(run.code).toBe(0);
      expect(run.out.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(run.out)).toEqual({ account_id: accountId, email: email.toLowerCase(), plan: 'pro', monthly_limit: 50_000 });
      expect(run.err).toContain('plan free → pro, 1000 CU a month → 50000 CU a month');
      expect(run.err).toContain(`gateways notified on ${prefix}.credit.events.account.plan.v1`);
      await expect(event).resolves.toEqual({ account_id: accountId, plan: 'pro', monthly_cu: null });
      const stored = await new AccountRepository(db).findByEmail(email);
      expect(stored).toMatchObject({ id: accountId, plan: 'pro', monthlyCu: null });
    });

    it('sets and clears an enterprise contract with --monthly-cu', async () => {
      const email = randomEmail();
      const accountId = await createAccount(email, 'pro');
      const { event: contracted } = await subscribeToPlanChanges();

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'enterprise', '--monthly-cu', '250000'], env);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.out)).toEqual({
        account_id: accountId,
        email: email.toLowerCase(),
        plan: 'enterprise',
        monthly_limit: 250_000,
      });
      await expect(contracted).resolves.toEqual({ account_id: accountId, plan: 'enterprise', monthly_cu: 250_000 });
      expect(await show(email)).toMatchObject({ plan: 'enterprise', monthly_limit: 250_000 });

      const { event: unlimited } = await subscribeToPlanChanges();
      const cleared = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'enterprise'], env);

      expect(cleared.code).toBe(0);
      expect(JSON.parse(cleared.out)).toMatchObject({ plan: 'enterprise', monthly_limit: null });
      await expect(unlimited).resolves.toEqual({ account_id: accountId, plan: 'enterprise', monthly_cu: null });
      expect(await new AccountRepository(db).findByEmail(email)).toMatchObject({ plan: 'enterprise', monthlyCu: null });
    });

    it('says so when nothing changes, and broadcasts again', async () => {
      const email = randomEmail();
      await createAccount(email, 'pro');
      const { event } = await subscribeToPlanChanges();

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro'], env);

      expect(run.code).toBe(0);
      expect(run.err).toMatch(/already on plan pro \(50000 CU a month\); broadcasting again/);
      await expect(event).resolves.toMatchObject({ plan: 'pro', monthly_cu: null });
    });

    it('refuses --monthly-cu for a plan other than enterprise, changing nothing', async () => {
      const email = randomEmail();
      await createAccount(email);

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro', '--monthly-cu', '100'], env);

      expect(run.code).toBe(2);
      expect(run.err).toMatch(/--monthly-cu is for the enterprise plan only/);
      expect(run.err).toContain('usage: accounts:set-plan');
      expect(run.out).toBe('');
      expect(await new AccountRepository(db).findByEmail(email)).toMatchObject({ plan: 'free', monthlyCu: null });
    });

    it('exits 1 for an unknown email', async () => {
      const email = randomEmail();

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro'], env);

      expect(run.code).toBe(1);
      expect(run.err).toContain(`no account with email ${email.toLowerCase()}`);
      expect(run.out).toBe('');
    });

    it('a plan change stands when NATS is unreachable, and the CLI says so with exit code 3', async () => {
      const email = randomEmail();
      await createAccount(email);

      const run = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro'], { ...env, NATS_URL: 'nats://127.0.0.1:1' });

      expect(run.code).toBe(3);
      expect(JSON.parse(run.out)).toMatchObject({ plan: 'pro', monthly_limit: 50_000 });
      expect(run.err).toMatch(/error: .*on plan pro in the database.*cache entry expires/);
      expect(await new AccountRepository(db).findByEmail(email)).toMatchObject({ plan: 'pro' });
    });
  });

  describe('accounts:show', () => {
    const wide = { name: 'api', capacity: 1_000_000, windowMs: 60_000 };

    /** Charges through the gateway's own metering script, under the CLI's stack prefix. */
    async function charge(accountId: string, operation: string, cost: number): Promise<void> {
      const meter = new Meter(redis, new MeterKeys(prefix), { periodTotals: async () => ({ used: 0, byOperation: {} }) });
      const request: AdmitRequest = { accountId, keyId: null, operation, cost, allowance: null, policy: wide, requestId: 'r' };
      expect((await meter.admit(request)).kind).toBe('admitted');
    }

    function ledgerEntry(accountId: string, id: string, operation: string, cu: number, period: string): UsageEntryInput {
      return {
        entryId: id,
        chargeId: id.replace(/:refund$/, ''),
        accountId,
        keyId: null,
        operation,
        kind: cu < 0 ? 'refund' : 'charge',
        cu,
        statusCode: cu < 0 ? 503 : null,
        requestId: 'r',
        period,
        occurredAt: new Date(),
      };
    }

    it("prints the month's CU from the Redis counter and from the ledger", async () => {
      const email = randomEmail();
      const accountId = await createAccount(email, 'pro');
      const period = periodAt(Date.now());
      await charge(accountId, 'scoreAddress', 7);
      await charge(accountId, 'creditReport', 3);
      await new UsageLedgerRepository(db).insert([
        ledgerEntry(accountId, `${accountId}-1`, 'scoreAddress', 5, period.id),
        ledgerEntry(accountId, `${accountId}-2`, 'creditReport', 3, period.id),
        ledgerEntry(accountId, `${accountId}-2:refund`, 'creditReport', -1, period.id),
        ledgerEntry(accountId, `${accountId}-3`, 'scoreAddress', 40, '2000-01'),
      ]);

      const run = await runCapture(['accounts:show', '--email', email], env);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.out)).toEqual({
        account_id: accountId,
        email: email.toLowerCase(),
        plan: 'pro',
        monthly_limit: 50_000,
        is_active: true,
        is_verified: false,
        created_at: expect.any(String),
        active_keys: 1,
        revoked_keys: 0,
        period: period.id,
        period_end: period.end.toISOString(),
        used: 10,
        counter_present: true,
        ledger_used: 7,
        by_operation: { scoreAddress: 5, creditReport: 2 },
      });
      expect(run.err).toBe('');
    });

    it('shows used 0 and counter_present false when there is no counter, and leaves none behind', async () => {
      const email = randomEmail();
      const accountId = await createAccount(email);
      const period = periodAt(Date.now());

      const run = await runCapture(['accounts:show', '--email', email], env);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.out)).toMatchObject({
        plan: 'free',
        monthly_limit: 1_000,
        period: period.id,
        used: 0,
        counter_present: false,
        ledger_used: 0,
        by_operation: {},
      });
      expect(run.err).toContain(`no CU counter in Redis for ${period.id}`);
      expect(await redis.exists(new MeterKeys(prefix).counter(accountId, period.id))).toBe(0);
    });

    it('exits 1 naming Redis when it cannot be reached; commands without Redis do not need it', async () => {
      const email = randomEmail();
      await createAccount(email);
      const noRedis = { ...env, REDIS_URL: 'redis://:topsecret@127.0.0.1:1' };

      const run = await runCapture(['accounts:show', '--email', email], noRedis);

      expect(run.code).toBe(1);
      expect(run.err).toMatch(/accounts:show: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1: .*ECONNREFUSED/);
      expect(run.err).not.toContain('topsecret');
      expect(run.err).toMatch(/Is Redis running, and is REDIS_URL right\?/);
      expect(run.out).toBe('');
      expect((await runCapture(['keys:list', '--email', email], noRedis)).code).toBe(0);
    });
  });
});
