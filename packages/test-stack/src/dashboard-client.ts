import type { SmtpCapture } from '@credit/testing/smtp-capture';
import type { HttpResult } from './test-stack';

/**
 * A browser's view of the dashboard API for HTTP tests: a cookie jar, the CSRF token it was last
 * given, and JSON calls. `csrf: false` leaves the header out; a string sends that one instead.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(private readonly base: string) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted by the tests
  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; csrf?: boolean | string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = options.csrf ?? method !== 'GET';
    if (typeof csrf === 'string') headers['x-csrf-token'] = csrf;
    else if (csrf && this.csrfToken !== undefined) headers['x-csrf-token'] = this.csrfToken;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}/dashboard/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    const reply = { status: res.status, body: body as T, headers: res.headers };
    const token = (body as { csrf_token?: unknown } | null)?.csrf_token;
    if (typeof token === 'string') this.csrfToken = token;
    return reply;
  }

  /** Fetches the pre-sign-in CSRF token (and its cookie). */
  async start(): Promise<this> {
    await this.call('GET', '/csrf');
    return this;
  }

  /** Sign-up names the email only; the password is chosen on the mailed link's page (`verify`). */
  signUp(email: string) {
    return this.call('POST', '/signup', { body: { email } });
  }

  /** The mailed link's page, sent with the password its mailbox owner chose. */
  verify(token: string, password: string) {
    return this.call('POST', '/verify', { body: { token, password } });
  }

  /**
   * As the owner of `email`'s mailbox: signs up, reads the link in the mail and chooses `password`
   * on its page (the account is created, or the operator's claimed). The verify answer.
   */
  async createAccount(smtp: SmtpCapture, email: string, password: string) {
    const since = smtp.messages.length;
    const signUp = await this.signUp(email);
    if (signUp.status !== 202) throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(signUp.body)}`);
    return this.verify(verificationToken((await smtp.waitFor(email, { since })).text), password);
  }

  signIn(email: string, password: string) {
    return this.call('POST', '/signin', { body: { email, password } });
  }
}

/** The token of the verification link in a mail's text. */
export function verificationToken(text: string): string {
  const match = /\/dashboard\/verify\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (match === null) throw new Error(`no verification link in: ${text}`);
  return match[1]!;
}

/** The token of the password reset link in a mail's text. */
export function resetToken(text: string): string {
  const match = /\/dashboard\/reset\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (match === null) throw new Error(`no reset link in: ${text}`);
  return match[1]!;
}
