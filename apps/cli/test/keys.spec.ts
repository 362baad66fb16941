import { hashApiKey, isWellFormedApiKey } from '@credit/contracts/api-key';
import { EVENTS } from '@credit/contracts/events';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { eventSubject } from '@credit/rpc/event-publisher';
import { NATS_URL, randomEmail, randomSubjectPrefix, runCapture } from './run-cli-helpers';

jest.setTimeout(60_000);

describe('keys commands against Postgres and NATS', () => {
  let database: TestDatabase;
  let nats: NatsConnection;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    nats = await connect({ servers: NATS_URL });
    env = { DATABASE_URL: database.url, NATS_URL, NATS_SUBJECT_PREFIX: randomSubjectPrefix() };
  });

  afterAll(async () => {
    await nats?.close();
    await database?.drop();
  });

  async function createKey(email: string, extra: string[] = []): Promise<{ account_id: string; key_id: string; key: string }> {
    const run = await runCapture(['keys:create', '--email', email, '--name', 'test key', ...extra], env);
    expect(run.code).toBe(0);
    return JSON.parse(run.out);
  }

  /** The next message on the prefixed revocation subject, decoded. */
  async function nextRevocation(subscription: Subscription): Promise<unknown> {
    for await (const message of subscription) {
      return EVENTS.apiKeyRevoked.payload.parse(JSON.parse(message.string()));
    }
    throw new Error('subscription closed before a revocation arrived');
  }

  it('keys:create prints exactly one JSON object on stdout, and notes on stderr', async () => {
    const email = randomEmail();

    const run = await runCapture(['keys:create', '--email', email, '--plan', 'pro', '--name', 'production'], env);

    expect(run.code).toBe(0);
    expect(run.out.endsWith('\n')).toBe(true);
    expect(run.out.trim().split('\n')).toHaveLength(1);
    const printed = JSON.parse(run.out);
    expect(Object.keys(printed).sort()).toEqual(['account_id', 'key', 'key_id']);
    expect(printed.account_id).toMatch(/^acc_/);
    expect(printed.key_id).toMatch(/^key_/);
    expect(isWellFormedApiKey(printed.key)).toBe(true);
    expect(run.err).toContain(`created account ${printed.account_id}`);
    expect(run.err).toContain('plan pro');
    expect(run.err).not.toContain(printed.key);
  });

  it('keys:create on an existing account keeps its plan and says so', async () => {
    const email = randomEmail();
    const first = await createKey(email, ['--plan', 'enterprise']);

    const run = await runCapture(['keys:create', '--email', email.toUpperCase(), '--plan', 'free', '--name', 'second'], env);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).account_id).toBe(first.account_id);
    expect(run.err).toMatch(/already exists on plan enterprise: keeping it \(--plan free ignored\)/);
    const show = await runCapture(['accounts:show', '--email', email], env);
    expect(JSON.parse(show.out)).toMatchObject({ account_id: first.account_id, plan: 'enterprise', active_keys: 2, revoked_keys: 0 });
  });

  it('keys:create without --plan creates a free account', async () => {
    const email = randomEmail();
    await createKey(email);

    const show = await runCapture(['accounts:show', '--email', email], env);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.out)).toMatchObject({ email: email.toLowerCase(), plan: 'free', is_active: true, is_verified: false });
  });

  it('create → list → revoke: the revocation is stored and broadcast with the key hash', async () => {
    const email = randomEmail();
    const created = await createKey(email, ['--plan', 'pro']);
    const other = await createKey(email);

    const listed = await runCapture(['keys:list', '--email', email], env);
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.out);
    expect(keys.map((key: { key_id: string }) => key.key_id)).toEqual([created.key_id, other.key_id]);
    expect(keys[0]).toEqual({
      key_id: created.key_id,
      name: 'test key',
      start: created.key.slice(0, 10),
      status: 'active',
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });
    expect(listed.out).not.toContain(created.key);
    expect(listed.out).not.toContain(hashApiKey(created.key));

    const subscription = nats.subscribe(eventSubject('apiKeyRevoked', env.NATS_SUBJECT_PREFIX!), { max: 1 });
    await nats.flush();
    const revocation = nextRevocation(subscription);

    const revoked = await runCapture(['keys:revoke', '--key-id', created.key_id], env);

    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.out)).toEqual({ key_id: created.key_id, status: 'revoked' });
    expect(revoked.out.trim().split('\n')).toHaveLength(1);
    await expect(revocation).resolves.toEqual({ key_id: created.key_id, key_hash: hashApiKey(created.key) });

    const after = JSON.parse((await runCapture(['keys:list', '--email', email], env)).out);
    expect(after[0]).toMatchObject({ key_id: created.key_id, status: 'revoked', revoked_at: expect.any(String) });
    expect(after[1]).toMatchObject({ key_id: other.key_id, status: 'active', revoked_at: null });
  });

  it('revoking again changes nothing, says so, and broadcasts again', async () => {
    const created = await createKey(randomEmail());
    await runCapture(['keys:revoke', '--key-id', created.key_id], env);
    const subscription = nats.subscribe(eventSubject('apiKeyRevoked', env.NATS_SUBJECT_PREFIX!), { max: 1 });
    await nats.flush();
    const revocation = nextRevocation(subscription);

    const again = await runCapture(['keys:revoke', '--key-id', created.key_id], env);

    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toEqual({ key_id: created.key_id, status: 'revoked' });
    expect(again.err).toContain('already revoked');
    await expect(revocation).resolves.toEqual({ key_id: created.key_id, key_hash: hashApiKey(created.key) });
  });

  it('a revocation stands when NATS is unreachable, and the CLI says so with exit code 3', async () => {
    const email = randomEmail();
    const created = await createKey(email);

    const run = await runCapture(['keys:revoke', '--key-id', created.key_id], { ...env, NATS_URL: 'nats://127.0.0.1:1' });

    expect(run.code).toBe(3);
    expect(JSON.parse(run.out)).toEqual({ key_id: created.key_id, status: 'revoked' });
    expect(run.err).toMatch(/error: .*revoked in the database.*cache entry expires/);
    const listed = JSON.parse((await runCapture(['keys:list', '--email', email], env)).out);
    expect(listed[0]).toMatchObject({ key_id: created.key_id, status: 'revoked' });
  });
});
