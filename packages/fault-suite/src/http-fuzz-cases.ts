import {
  HTTP_OPERATIONS,
  OPERATION_IDS,
  operationPath,
  type HttpOperation,
  type OperationId,
  type Variant,
} from '@credit/contracts/http-operations';
import type { SubjectName } from '@credit/contracts/subjects';
import type { Prng } from './prng';
import { addressSegment, authorization, chainSegment, CONTENT_TYPES, jsonBody, queryString, VITALIK, type AuthMode } from './fuzz-values';

/** What a fuzzed request was aimed at, for the checks on its answer. */
export type FuzzTarget =
  | { kind: 'operation'; id: OperationId; variant: Variant; subject: SubjectName }
  | { kind: 'public'; route: 'health' | 'openapi' | 'docs' | 'docs-asset' }
  | { kind: 'users-me' }
  | { kind: 'unknown' };

export interface FuzzRequest {
  method: string;
  /** The request target exactly as sent (already encoded). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  target: FuzzTarget;
  auth: AuthMode;
  /** Sent over a raw socket: the path may hold bytes a client library would refuse or re-encode. */
  raw: boolean;
  /** The kind of input, for the figures. */
  category: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];
const UNKNOWN_PATHS = [
  '/',
  '/api',
  '/api/v2',
  '/api/v2/',
  '/api/v2/sandbox',
  '/api/v3/score/address/x',
  '/api/v2/sandbox/nothing',
  `/api/v2/sandbox/score/address/${VITALIK}/extra`,
  `/api/v2/sandbox/report/address/${VITALIK}/chain/1/total/usd/more`,
  '/..%2f..%2fetc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/../../etc/passwd',
  `//api/v2/sandbox/score/address/${VITALIK}`,
  `/api/v2/./sandbox/score/address/${VITALIK}`,
  `/api/v2/sandbox/../score/address/${VITALIK}`,
  '/docs/assets/../../package.json',
  '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
  '/docs/assets/',
  '/docs/assets',
  '/users/me/x',
  '/users',
  '/openapi.json/..',
  '/health/..',
  '/%00',
  '/%',
  '/api/v2/sandbox/score/address/',
  '/api/v2/sandbox/score/batch/extra',
  '/__proto__',
  '/constructor',
  '/api/v2/sandbox/__proto__/address/x',
  '/api/v2/sandbox/score/constructor/x',
  '*',
  '/favicon.ico',
  '/.env',
  '/.git/config',
];

/** The Authorization mix of the run: mostly a valid key, then invalid keys, then none. */
function authMode(r: Prng): AuthMode {
  const x = r.next();
  return x < 0.6 ? 'valid' : x < 0.8 ? 'invalid' : 'none';
}

function operationRequest(r: Prng, key: string, auth: AuthMode): FuzzRequest {
  const id = r.pick(OPERATION_IDS);
  const op: HttpOperation = HTTP_OPERATIONS[id];
  // Production routes go to services this stack does not run (503 after the no-responder retries): a few.
  const variant: Variant = r.chance(0.04) ? 'production' : 'sandbox';
  const path = operationPath(id, variant)
    .replace('{address}', () => addressSegment(r))
    .replace('{chain_id}', () => chainSegment(r));
  const query = queryString(
    r,
    op.query.map((q) => q.name),
  );
  const method = r.chance(0.08) ? r.pick(METHODS) : op.method;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let category = `${variant} ${op.method} ${op.path}`;
  if (method === 'POST' || (method !== 'GET' && method !== 'HEAD' && r.chance(0.5))) {
    const fields = op.body ? Object.keys((op.body as unknown as { shape: Record<string, unknown> }).shape) : [];
    body = jsonBody(r, fields);
    headers['content-type'] = r.chance(0.8) ? 'application/json' : r.pick(CONTENT_TYPES);
    if (r.chance(0.03)) delete headers['content-type'];
  } else if (r.chance(0.02)) {
    body = '{"total_asset_usd":1}';
    headers['content-type'] = 'application/json';
    category += ' (GET with a body)';
  }
  const trailing = r.chance(0.05) ? '/' : '';
  return {
    method,
    path: `${path}${trailing}${query ? `?${query}` : r.chance(0.02) ? '?' : ''}`,
    headers: withAuth(r, headers, auth, key),
    body,
    target: { kind: 'operation', id, variant, subject: HTTP_OPERATIONS[id].subjects[variant] },
    auth,
    raw: false,
    category,
  };
}

function publicRequest(r: Prng, key: string, auth: AuthMode): FuzzRequest {
  const choice = r.int(5);
  const method = r.chance(0.1) ? r.pick(METHODS) : 'GET';
  const headers = withAuth(r, {}, auth, key);
  if (choice === 0)
    return {
      method,
      path: r.pick(['/health', '/health?verbose=1', '/health/']),
      headers,
      target: { kind: 'public', route: 'health' },
      auth,
      raw: false,
      category: 'GET /health',
    };
  if (choice === 1)
    return {
      method,
      path: '/openapi.json',
      headers,
      target: { kind: 'public', route: 'openapi' },
      auth,
      raw: false,
      category: 'GET /openapi.json',
    };
  if (choice === 2)
    return {
      method,
      path: r.pick(['/docs', '/docs/', '/docs?x=1']),
      headers,
      target: { kind: 'public', route: 'docs' },
      auth,
      raw: false,
      category: 'GET /docs',
    };
  if (choice === 3) {
    const file = r.chance(0.3) ? r.pick(DOCS_ASSETS) : addressSegment(r);
    return {
      method,
      path: `/docs/assets/${file}`,
      headers,
      target: { kind: 'public', route: 'docs-asset' },
      auth,
      raw: false,
      category: 'GET /docs/assets/:file',
    };
  }
  return {
    method,
    path: r.pick(['/users/me', '/users/me/', '/users/me?x=1']),
    headers,
    target: { kind: 'users-me' },
    auth,
    raw: false,
    category: 'GET /users/me',
  };
}

function unknownRequest(r: Prng, key: string, auth: AuthMode): FuzzRequest {
  const path = r.chance(0.6)
    ? r.pick(UNKNOWN_PATHS)
    : `/${Array.from({ length: r.between(1, 8) }, () => addressSegment(r)).join('/')}${r.chance(0.2) ? `?${queryString(r, ['address'])}` : ''}`;
  return {
    method: r.chance(0.7) ? 'GET' : r.pick(METHODS),
    path,
    headers: withAuth(r, {}, auth, key),
    target: { kind: 'unknown' },
    auth,
    raw: false,
    category: 'unknown path',
  };
}

/** Raw bytes on the request line: unencoded UTF-8, spaces, control characters, absolute URIs. */
function rawRequest(r: Prng, key: string, auth: AuthMode): FuzzRequest {
  const base = r.chance(0.5) ? operationRequest(r, key, auth) : unknownRequest(r, key, auth);
  const mutation = r.pick([
    (p: string) => p.replace(/[^/]*$/, r.pick(['💩.eth', 'ünïcødé.eth', 'ｖｉｔａｌｉｋ.eth', 'a b', 'a\tb', '\u202eevil'])),
    (p: string) => `http://evil.example${p}`,
    (p: string) => `${p}#fragment`,
    () => '*',
    (p: string) => p.replace('/api/v2', '/api/v2/../v2'),
    (p: string) => `${p}${'/'.repeat(r.between(2, 50))}`,
  ]);
  return { ...base, path: mutation(base.path), raw: true, category: `raw request line (${base.category})` };
}

function withAuth(r: Prng, headers: Record<string, string>, auth: AuthMode, key: string): Record<string, string> {
  const value = authorization(r, auth, key);
  if (value !== undefined) headers[r.chance(0.9) ? 'authorization' : 'AUTHORIZATION'] = value;
  if (r.chance(0.1)) headers['x-request-id'] = r.pick(['abc-123', 'x'.repeat(200), '../../etc', '%00', 'ünï', '']);
  if (r.chance(0.05)) headers.accept = r.pick(['text/html', 'application/xml', '*/*', '']);
  return headers;
}

/** The `n`-th request of a run: the same seed always gives the same sequence. */
export function fuzzRequest(r: Prng, key: string): FuzzRequest {
  const auth = authMode(r);
  const x = r.next();
  if (x < 0.72) return operationRequest(r, key, auth);
  if (x < 0.84) return publicRequest(r, key, auth);
  if (x < 0.94) return unknownRequest(r, key, auth);
  return rawRequest(r, key, auth);
}
