import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { NATS_URL, randomEmail, randomSubjectPrefix, runCapture } from './run-cli-helpers';

jest.setTimeout(60_000);

describe('CLI input errors and failures', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, NATS_URL, NATS_SUBJECT_PREFIX: randomSubjectPrefix() };
  });

  afterAll(async () => {
    await database?.drop();
  });

  it.each([
    ['an unknown command', ['keys:frobnicate'], /unknown command "keys:frobnicate"/],
    ['no command', [], /Usage:/],
    ['a missing flag', ['keys:create', '--name', 'x'], /keys:create: missing --email/],
    ['a flag without its value', ['keys:list', '--email'], /keys:list: .*--email/],
    ['an unknown flag', ['keys:list', '--email', 'a@example.com', '--verbose', 'x'], /Unknown option '--verbose'/],
    ['a stray argument', ['keys:list', '--email', 'a@example.com', 'extra'], /Unexpected argument 'extra'/],
    [
      'a bad plan',
      ['keys:create', '--email', 'a@example.com', '--name', 'x', '--plan', 'gold'],
      /--plan must be one of free, pro, enterprise/,
    ],
    ['a bad email', ['keys:create', '--email', 'not-an-email', '--name', 'x'], /--email must be an email address/],
    ['an empty key name', ['keys:create', '--email', 'a@example.com', '--name', '  '], /missing --name/],
    ['an overlong key name', ['keys:create', '--email', 'a@example.com', '--name', 'n'.repeat(101)], /at most 100 characters/],
    ['a key instead of a key id', ['keys:revoke', '--key-id', `csk_${'a'.repeat(40)}`], /not the key itself/],
    ['a malformed key id', ['keys:revoke', '--key-id', 'abc'], /--key-id must look like key_/],
    ['a plan change without --plan', ['accounts:set-plan', '--email', 'a@example.com'], /accounts:set-plan: missing --plan/],
    ['a bad plan to change to', ['accounts:set-plan', '--email', 'a@example.com', '--plan', 'gold'], /--plan must be one of/],
    [
      'a monthly allowance for a plan other than enterprise',
      ['accounts:set-plan', '--email', 'a@example.com', '--plan', 'free', '--monthly-cu', '10'],
      /--monthly-cu is for the enterprise plan only/,
    ],
    ...['1.5', 'abc', '1e6', '=-1', ''].map((value): [string, string[], RegExp] => [
      `a monthly allowance of "${value}"`,
      ['accounts:set-plan', '--email', 'a@example.com', '--plan', 'enterprise', `--monthly-cu=${value}`],
      /--monthly-cu must be a whole number of CU ≥ 0/,
    ]),
  ])('exits 2 on %s, with a message on stderr and nothing on stdout', async (_, argv, message) => {
    const run = await runCapture(argv, env);

    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
    expect(run.out).toBe('');
  });

  it('exits 2 on invalid configuration', async () => {
    const run = await runCapture(['keys:list', '--email', 'a@example.com'], { ...env, DATABASE_URL: 'mysql://somewhere/db' });

    expect(run.code).toBe(2);
    expect(run.err).toMatch(/DATABASE_URL: must be a URL/);
    expect(run.out).toBe('');
  });

  it('exits 1 when the account or key does not exist', async () => {
    const email = randomEmail();
    const list = await runCapture(['keys:list', '--email', email], env);
    expect(list.code).toBe(1);
    expect(list.err).toContain(`no account with email ${email.toLowerCase()}`);
    expect(list.out).toBe('');

    const show = await runCapture(['accounts:show', '--email', email], env);
    expect(show.code).toBe(1);

    const setPlan = await runCapture(['accounts:set-plan', '--email', email, '--plan', 'pro'], env);
    expect(setPlan.code).toBe(1);
    expect(setPlan.err).toContain(`no account with email ${email.toLowerCase()}`);

    const revoke = await runCapture(['keys:revoke', '--key-id', 'key_doesnotexist0000'], env);
    expect(revoke.code).toBe(1);
    expect(revoke.err).toContain('no key with id key_doesnotexist0000');
    expect(revoke.out).toBe('');
  });

  it('tells the operator to migrate when the schema is missing', async () => {
    const url = new URL(database.url);
    url.pathname = `/credit_test_missing_${randomBytes(6).toString('hex')}`;

    const run = await runCapture(['keys:list', '--email', 'a@example.com'], { ...env, DATABASE_URL: url.toString() });

    expect(run.code).toBe(1);
    expect(run.err).toMatch(/has no schema yet/);
    expect(run.err).toMatch(/pnpm db:migrate/);
    expect(run.out).toBe('');
  });

  it('names Postgres when it cannot be reached', async () => {
    const run = await runCapture(['keys:list', '--email', 'a@example.com'], {
      ...env,
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/credit',
    });

    expect(run.code).toBe(1);
    expect(run.err).toMatch(/cannot reach Postgres at 127\.0\.0\.1:1\/credit/);
  });

  it('prints help on stdout with exit 0', async () => {
    for (const argv of [['help'], ['--help'], ['keys:create', '--help']]) {
      const run = await runCapture(argv, env);
      expect(run.code).toBe(0);
      expect(run.out).toContain('keys:create --email <email> --name <key name>');
    }
    const help = await runCapture(['help'], env);
    expect(help.out).toMatch(/accounts:set-plan +change an account's plan/);
    expect(help.out).toContain('accounts:set-plan --email <email> --plan free|pro|enterprise [--monthly-cu');
    expect(help.out).toContain('REDIS_URL');
  });
});
