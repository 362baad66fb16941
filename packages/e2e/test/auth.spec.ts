import { OPERATION_IDS, HTTP_OPERATIONS, operationPath, type Variant } from '@credit/contracts/http-operations';
import { runCli } from '@credit/cli/run-cli';
import { http, startTestStack, type TestStack } from '@credit/test-stack/test-stack';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

/** Every authenticated route of the gateway, with a concrete path. */
const ROUTES: { method: string; path: string }[] = [
  ...(['sandbox', 'production'] as Variant[]).flatMap((variant) =>
    OPERATION_IDS.map((id) => ({
      method: HTTP_OPERATIONS[id].method,
      path: operationPath(id, variant)
        .replace('{address}', VITALIK)
        .replace('{chain_id}', '1')
        .concat(HTTP_OPERATIONS[id].query.some((q) => q.name === 'address') ? `?address=${VITALIK}` : ''),
    })),
  ),
  { method: 'GET', path: '/users/me' },
];

let stack: TestStack;
let revokedKey: string;

beforeAll(async () => {
  stack = await startTestStack();
  const created = await stack.createKey({ email: 'revoked@example.com' });
  revokedKey = created.key;
  await stack.db.$executeRawUnsafe(`UPDATE api_keys SET status = 'revoked', revoked_at = now() WHERE id = $1`, created.keyId);
});
afterAll(() => stack.close());

const CASES: [string, Record<string, string> | (() => Record<string, string>)][] = [
  ['no Authorization header', {}],
  ['no Bearer prefix', { authorization: 'csk_0123456789012345678901234567890123456789' }],
  ['lower-case bearer', { authorization: 'bearer csk_0123456789012345678901234567890123456789' }],
  ['malformed key', { authorization: 'Bearer not-a-key' }],
  ['empty key', { authorization: 'Bearer ' }],
  ['unknown key', { authorization: 'Bearer csk_0123456789012345678901234567890123456789' }],
  ['revoked key', () => ({ authorization: `Bearer ${revokedKey}` })],
];

describe.each(ROUTES)('security: $method $path', ({ method, path }) => {
  it.each(CASES)('%s → 401 detail', async (_, headers) => {
    const res = await http(stack.url, path, {
      method,
      headers: typeof headers === 'function' ? headers() : headers,
      ...(method === 'POST' ? { body: { name: 'x' } } : {}),
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.stringMatching(/API key/) });
  });
});

describe('keys', () => {
  it('GET /users/me returns the profile of docs/API.md §2.9', async () => {
    const { key, accountId } = await stack.createKey({ email: 'Me@Example.com', plan: 'pro' });
    const res = await http(stack.url, '/users/me', { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: accountId, email: 'me@example.com', is_active: true, is_verified: false });
  });

  it('records last used', async () => {
    const { key, keyId } = await stack.createKey();
    const before = await stack.db.$queryRawUnsafe<{ last_used_at: Date | null }[]>(
      `SELECT last_used_at FROM api_keys WHERE id = $1`,
      keyId,
    );
    expect(before[0]?.last_used_at).toBeNull();
    expect((await http(stack.url, '/users/me', { key })).status).toBe(200);
    let after: Date | null = null;
    for (let i = 0; i < 50 && after === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const rows = await stack.db.$queryRawUnsafe<{ last_used_at: Date | null }[]>(
        `SELECT last_used_at FROM api_keys WHERE id = $1`,
        keyId,
      );
      after = rows[0]?.last_used_at ?? null;
    }
    expect(after).toBeInstanceOf(Date);
  });

  it('a key made and revoked with the CLI works, then fails on the next request', async () => {
    const env = {
      DATABASE_URL: (await stack.db.$queryRawUnsafe<{ db: string }[]>('SELECT current_database() AS db'))[0]!.db,
    };
    const created_io = capture();
    const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${env.DATABASE_URL}`;
    const cliEnv = { DATABASE_URL: databaseUrl, NATS_URL: 'nats://127.0.0.1:4222', NATS_SUBJECT_PREFIX: stack.prefix };
    expect(await runCli(['keys:create', '--email', 'cli@example.com', '--plan', 'free', '--name', 'ci'], cliEnv, created_io.io)).toBe(0);
    const created = JSON.parse(created_io.out.join('')) as { account_id: string; key_id: string; key: string };
    expect(Object.keys(created).sort()).toEqual(['account_id', 'key', 'key_id']);

    const ok = await http(stack.url, `/api/v2/sandbox/score/address/${VITALIK}`, { key: created.key });
    expect(ok.status).toBe(200);

    expect(await runCli(['keys:revoke', '--key-id', created.key_id], cliEnv, capture().io)).toBe(0);
    const denied = await http(stack.url, `/api/v2/sandbox/score/address/${VITALIK}`, { key: created.key });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ detail: expect.stringMatching(/revoked/) });
  });

  it('the scheme is case-insensitive and may be followed by several spaces (RFC 7235)', async () => {
    const { key } = await stack.createKey({ email: 'scheme@example.com' });
    for (const scheme of ['bearer', 'BEARER', 'BeArEr  ']) {
      const res = await http(stack.url, '/users/me', { headers: { authorization: `${scheme} ${key}` } });
      expect([scheme, res.status]).toEqual([scheme, 200]);
    }
  });

  it('an account disabled with the CLI: every key of it answers 401 on the next request, on every replica; enabled again: 200', async () => {
    const name = (await stack.db.$queryRawUnsafe<{ db: string }[]>('SELECT current_database() AS db'))[0]!.db;
    const cliEnv = {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${name}`,
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: stack.prefix,
    };
    const first = await stack.createKey({ email: 'disabled@example.com' });
    const second = await stack.createKey({ email: 'disabled@example.com' });
    const path = `/api/v2/sandbox/score/address/${VITALIK}`;
    for (const key of [first.key, second.key]) expect((await http(stack.url, path, { key })).status).toBe(200); // both cached now

    expect(await runCli(['accounts:disable', '--email', 'disabled@example.com'], cliEnv, capture().io)).toBe(0);
    for (const key of [first.key, second.key]) {
      const denied = await http(stack.url, path, { key });
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ detail: 'Invalid API key: the account is disabled' });
    }

    expect(await runCli(['accounts:enable', '--email', 'disabled@example.com'], cliEnv, capture().io)).toBe(0);
    for (const key of [first.key, second.key]) expect((await http(stack.url, path, { key })).status).toBe(200);
  });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) } };
}
