import { randomBytes, scrypt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { AccountRepository } from '@credit/db/account-repository';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';
import { accountWithPasswordHash } from '../src/dashboard-accounts';

/**
 * The dashboard's hardening, against real gateways over HTTP on Postgres: its cookies are Secure
 * except on plain http on this machine; the API reference at /docs, on the dashboard's origin,
 * runs under a CSP that allows no inline script and nothing from elsewhere (and still renders in
 * Chromium); password hashes made with older scrypt parameters are rewritten with OWASP's current
 * ones at the next sign-in.
 */
jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The page's document, for the script run in it (this file is typed for Node, without the DOM's types). */
declare const document: {
  addEventListener(type: string, listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
};
const PASSWORD = 'correct horse battery staple';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ env: { SIGNIN_MAX_ATTEMPTS_PER_IP: '1000' } });
});

afterAll(async () => {
  await stack?.close();
});

/** The Set-Cookie headers of `GET /dashboard/api/csrf` (a new visitor gets the CSRF cookie), sent with this Host. */
function csrfCookies(url: string, headers: Record<string, string> = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/dashboard/api/csrf`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['set-cookie'] ?? []));
    });
    req.on('error', reject);
    req.end();
  });
}

const secure = (cookies: string[]) => {
  expect(cookies.length).toBeGreaterThan(0);
  return cookies.map((cookie) => /;\s*Secure(;|$)/i.test(cookie));
};

describe('dashboard cookies are Secure unless the dashboard runs on plain http on this machine', () => {
  const replicas = new Map<string, RunningGateway>();
  const gatewayWith = async (env: Record<string, string>) => {
    const name = JSON.stringify(env);
    if (!replicas.has(name)) replicas.set(name, await stack.startGatewayReplica(env));
    return replicas.get(name)!.url;
  };

  it('without PUBLIC_URL: not Secure for http on localhost, 127.0.0.1 or ::1; Secure for any other host', async () => {
    expect(secure(await csrfCookies(stack.url))).toEqual([false]);
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:8080'])
      expect(secure(await csrfCookies(stack.url, { host }))).toEqual([false]);
    for (const host of ['api.example.com', 'credit.internal:8080', '10.0.0.7'])
      expect(secure(await csrfCookies(stack.url, { host }))).toEqual([true]);
  });

  it('the session cookie too: signed in on 127.0.0.1 it is not Secure, signed in as api.example.com it is', async () => {
    const { email } = await accountWithPasswordHash(stack.db, await oldHash(PASSWORD, 2 ** 15), 'cookie');
    const client = await new DashboardClient(stack.url).start();
    const local = await client.signIn(email, PASSWORD);
    expect(local.status).toBe(200);
    expect(secure(local.headers.getSetCookie())).toEqual([false, false]);
    const remote = await signInAs(stack.url, 'api.example.com', email, PASSWORD);
    expect(remote.status).toBe(200);
    expect(secure(remote.cookies)).toEqual([true, true]);
  });

  it('behind a trusted proxy, the forwarded protocol counts: https on localhost is Secure', async () => {
    const url = await gatewayWith({ TRUST_PROXY: 'loopback' });
    expect(secure(await csrfCookies(url, { host: 'localhost', 'x-forwarded-proto': 'https' }))).toEqual([true]);
    // Not trusted, the header is ignored.
    expect(secure(await csrfCookies(stack.url, { host: 'localhost', 'x-forwarded-proto': 'https' }))).toEqual([false]);
  });

  it('PUBLIC_URL decides when set, whatever the request says', async () => {
    expect(secure(await csrfCookies(await gatewayWith({ PUBLIC_URL: 'https://api.example.com' })))).toEqual([true]);
    // Plain http elsewhere than this machine is still Secure (the browser drops it: the operator must fix the URL, not the cookie).
    expect(secure(await csrfCookies(await gatewayWith({ PUBLIC_URL: 'http://api.example.com' })))).toEqual([true]);
    const local = await gatewayWith({ PUBLIC_URL: 'http://localhost:8080' });
    expect(secure(await csrfCookies(local, { host: 'api.example.com' }))).toEqual([false]);
  });

  it('DASHBOARD_SECURE_COOKIES=on / off force it', async () => {
    expect(secure(await csrfCookies(await gatewayWith({ DASHBOARD_SECURE_COOKIES: 'on' })))).toEqual([true]);
    const off = await gatewayWith({ DASHBOARD_SECURE_COOKIES: 'off', PUBLIC_URL: 'https://api.example.com' });
    expect(secure(await csrfCookies(off, { host: 'api.example.com' }))).toEqual([false]);
  });
});

/** Signs in over node:http with a chosen Host: the status and the Set-Cookie headers. */
async function signInAs(url: string, host: string, email: string, password: string): Promise<{ status: number; cookies: string[] }> {
  const cookies = await csrfCookies(url, { host });
  const csrf = /credit_csrf=([^;]+)/.exec(cookies.join('\n'))![1]!;
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/dashboard/api/signin`,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: `credit_csrf=${csrf}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, cookies: res.headers['set-cookie'] ?? [] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('/docs runs under a strict CSP', () => {
  it('the page allows only same-origin scripts and styles, has no inline script, and every asset it names is served', async () => {
    const res = await fetch(`${stack.url}/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    // Every <script> has a src, and no element carries an inline handler or style.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=|\sstyle=/i);
    // No icon to fetch (a data: one): the browser would otherwise ask for /favicon.ico, a 404.
    const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((ref) => ref !== 'data:,');
    expect(referenced.length).toBeGreaterThanOrEqual(4);
    for (const path of referenced) {
      expect(path).toMatch(/^\/docs\/assets\/[\w.-]+$/);
      const asset = await fetch(`${stack.url}${path}`);
      expect([path, asset.status]).toEqual([path, 200]);
      expect(asset.headers.get('content-type')).toMatch(/^(application\/javascript|text\/css)/);
      await asset.arrayBuffer();
    }
  });

  it('renders in Chromium with no CSP violation and no script error', async () => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
      });
      page.on('response', (res) => {
        if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
      });
      const outside: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(stack.url) && !req.url().startsWith('data:')) outside.push(req.url());
      });
      await page.addInitScript(() => {
        // A violation (blocked script, style or request) is an event on the document.
        document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
      });
      await page.goto(`${stack.url}/docs`);
      await page.locator('.swagger-ui .info .title').filter({ hasText: 'Credit Scoring API' }).waitFor({ timeout: 30_000 });
      // The operations are listed (the document loaded and was rendered).
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(5);
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await browser?.close();
    }
  });
});

/** A hash in the stored format, made with a chosen N, the way the gateway made them before N = 2^17. */
function oldHash(password: string, n: number): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, { N: n, r: 8, p: 1, maxmem: 256 * n * 8 }, (error, key) =>
      error ? reject(error) : resolve(['scrypt', n, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')),
    ),
  );
}

describe('password hashes are upgraded to OWASP’s scrypt parameters at the next sign-in', () => {
  const storedHash = async (email: string) => (await new AccountRepository(stack.db).findCredentials(email))?.passwordHash;

  it('a hash made with N = 2^15 still signs in, and is then stored with N = 2^17, r = 8, p = 1', async () => {
    const old = await oldHash(PASSWORD, 2 ** 15);
    const { email } = await accountWithPasswordHash(stack.db, old, 'rehash');
    const client = await new DashboardClient(stack.url).start();

    // A wrong password changes nothing.
    expect((await client.signIn(email, 'not the password')).status).toBe(401);
    expect(await storedHash(email)).toBe(old);

    expect((await client.signIn(email, PASSWORD)).status).toBe(200);
    const upgraded = await storedHash(email);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(upgraded).not.toContain(PASSWORD);

    // The new hash signs in (and is left as it is), the old password only.
    expect((await new DashboardClient(stack.url).start().then((c) => c.signIn(email, PASSWORD))).status).toBe(200);
    expect(await storedHash(email)).toBe(upgraded);
    expect((await client.signIn(email, 'not the password')).status).toBe(401);
  });

  it('two sign-ins at once with an old hash both succeed, and one upgraded hash is kept', async () => {
    const { email } = await accountWithPasswordHash(stack.db, await oldHash(PASSWORD, 2 ** 14), 'rehash2');
    const clients = await Promise.all([0, 1].map(() => new DashboardClient(stack.url).start()));
    expect((await Promise.all(clients.map((c) => c.signIn(email, PASSWORD)))).map((r) => r.status)).toEqual([200, 200]);
    expect(await storedHash(email)).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect((await (await new DashboardClient(stack.url).start()).signIn(email, PASSWORD)).status).toBe(200);
  });
});
