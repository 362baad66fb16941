import { randomBytes } from 'node:crypto';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { http } from '@credit/test-stack/test-stack';
import { PASSWORD, dashboardWorld } from './support/dashboard-world';

/**
 * The account dashboard's security cases through a real gateway (two replicas): no session, another
 * account's key, CSRF, the sign-in rate limit, sign-out on every replica, the pages' CSP and assets.
 */

jest.setTimeout(60_000);

const world = dashboardWorld();
const { signedIn } = world;

describe('security', () => {
  it('no session: 401 on every signed-in endpoint; an API key does not open them', async () => {
    const { key } = await world.stack.createKey();
    const anonymous = await new DashboardClient(world.stack.url).start();
    for (const [method, path] of [
      ['GET', '/session'],
      ['GET', '/keys'],
      ['GET', '/usage'],
      ['POST', '/keys'],
      ['POST', '/keys/key_x/revoke'],
      ['POST', '/signout'],
    ] as const) {
      const res = await anonymous.call(method, path, {
        body: method === 'POST' ? { name: 'x' } : undefined,
        headers: { authorization: `Bearer ${key}` },
      });
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 401,
        body: { detail: expect.any(String) },
      });
    }
    // A forged session cookie is no better.
    anonymous.cookies.set('credit_session', randomBytes(32).toString('base64url'));
    expect((await anonymous.call('GET', '/keys')).status).toBe(401);
  });

  it("another account's key id is 404, and the key stays active", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const created = await owner.client.call('POST', '/keys', { body: { name: 'mine' } });
    expect(await other.client.call('POST', `/keys/${created.body.key_id}/revoke`)).toMatchObject({
      status: 404,
      body: { detail: expect.any(String) },
    });
    expect(await other.client.call('POST', '/keys/key_doesnotexist/revoke')).toMatchObject({ status: 404 });
    expect((await http(world.stack.url, '/users/me', { key: created.body.key })).status).toBe(200);
    expect((await other.client.call('GET', '/keys')).body.keys).toEqual([]);
  });

  it('a state change without the CSRF token, with a wrong one, or from another origin is 403', async () => {
    const { client } = await signedIn();
    const before = (await client.call('GET', '/keys')).body.keys.length;
    expect(await client.call('POST', '/keys', { body: { name: 'x' }, csrf: false })).toMatchObject({
      status: 403,
      body: { detail: expect.stringMatching(/CSRF/) },
    });
    expect((await client.call('POST', '/keys', { body: { name: 'x' }, csrf: randomBytes(32).toString('base64url') })).status).toBe(403);
    expect((await client.call('POST', '/keys', { body: { name: 'x' }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await client.call('POST', '/signout', { csrf: false })).status).toBe(403);
    expect((await client.call('GET', '/keys')).body.keys.length).toBe(before);

    // Before sign-in: the header must match the credit_csrf cookie.
    const fresh = await new DashboardClient(world.stack.url).start();
    expect((await fresh.call('POST', '/signin', { body: { email: 'a@example.com', password: PASSWORD }, csrf: false })).status).toBe(403);
    fresh.cookies.delete('credit_csrf');
    expect((await fresh.call('POST', '/signin', { body: { email: 'a@example.com', password: PASSWORD } })).status).toBe(403);
  });

  it('a wrong password many times is rate limited (429 with Retry-After), and then even the right one waits', async () => {
    const { email } = await signedIn();
    const client = await new DashboardClient(world.stack.url).start();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await client.signIn(email, `wrong password ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = await client.signIn(email, PASSWORD);
    expect(limited).toMatchObject({ status: 429, body: { detail: { error: 'rate_limited', retry_after: expect.any(Number) } } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await signedIn();
    expect((await other.client.call('GET', '/session')).status).toBe(200);
  });

  it('a session is worthless after sign-out, on every replica', async () => {
    const { client } = await signedIn();
    const saved = new Map(client.cookies);
    expect((await client.call('POST', '/signout')).status).toBe(204);
    expect(client.cookies.has('credit_session')).toBe(false);
    for (const base of [world.stack.url, world.replica.url]) {
      const replay = new DashboardClient(base);
      for (const [k, v] of saved) replay.cookies.set(k, v);
      expect(await replay.call('GET', '/keys')).toMatchObject({ status: 401, body: { detail: expect.any(String) } });
    }
  });

  it('pages are served with a strict CSP, and the OpenAPI document lists the dashboard endpoints', async () => {
    for (const path of ['/dashboard/', '/dashboard/keys', '/dashboard/usage', '/dashboard/signin']) {
      const res = await fetch(`${world.stack.url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('<script type="module" src="/dashboard/assets/js/main.js">');
    }
    // The modules, as JavaScript (a module script of another type is refused), revalidated by ETag.
    for (const path of ['/dashboard/assets/js/main.js', '/dashboard/assets/js/views/keys.js']) {
      const res = await fetch(`${world.stack.url}${path}`);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/javascript; charset=utf-8',
      });
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const again = await fetch(`${world.stack.url}${path}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect({ path, status: again.status }).toEqual({ path, status: 304 });
    }
    // Every stylesheet the shell links (css/, one a concern) is served, as CSS: style-src 'self' allows them.
    const shell = await (await fetch(`${world.stack.url}/dashboard/`)).text();
    const sheets = [...shell.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(sheets.length).toBeGreaterThan(1);
    for (const path of sheets) {
      const res = await fetch(`${world.stack.url}${path}`);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/css; charset=utf-8',
      });
    }
    // Only the folder's scripts and stylesheets: not the shell, nor anything a path climbs to.
    for (const path of [
      '/dashboard/assets/../../package.json',
      '/dashboard/assets/js/%2e%2e/%2e%2e/package.json',
      '/dashboard/assets/..%2f..%2fsrc%2fmain.ts',
      '/dashboard/assets/index.html',
      '/dashboard/assets/js/',
      '/dashboard/assets/__proto__',
    ]) {
      expect({ path, status: (await fetch(`${world.stack.url}${path}`)).status }).toEqual({ path, status: 404 });
    }
    const doc = (await http(world.stack.url, '/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/dashboard/api'))).toHaveLength(15);
    expect(doc.paths['/dashboard/api/keys'].post.security).toEqual([{ dashboardSession: [] }]);
    expect(Object.keys(doc.paths['/dashboard/api/webhooks/{id}'])).toEqual(['delete']);
    expect(doc.paths['/dashboard/api/webhooks'].post.security).toEqual([{ dashboardSession: [] }]);
  });
});
