import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StubFixtures, type AddressFixture } from './fixtures';
import { lensOwnedAccount, neynarUser, passportScore, poapScan } from './render';

export { StubFixtures, AddressFixture } from './fixtures';

export interface ProviderStubOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The one key every provider stub requires (default `stub-api-key`). */
  apiKey?: string;
  /** Human Passport's scorer ID (default `1`); another ID answers 404 as the API does. */
  scorerId?: string;
}

export interface ProviderStubs {
  /** The base URL to configure each adapter with (Lens: the GraphQL endpoint itself). */
  urls: { passport: string; poap: string; neynar: string; lens: string };
  apiKey: string;
  scorerId: string;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * One node:http server answering the four identity providers under path prefixes, in their
 * documented shapes: `/passport` (Human Passport Stamps API v2), `/poap` (POAP API), `/neynar`
 * (Neynar v2), `/lens/graphql` (Lens API v3). Each requires its documented key header (401
 * otherwise) and answers its documented "not found" for an address without fixtures.
 */
export async function startProviderStubs(fixtures: StubFixtures, options: ProviderStubOptions = {}): Promise<ProviderStubs> {
  const parsed = StubFixtures.parse(fixtures);
  const byAddress = new Map<string, AddressFixture>(Object.entries(parsed).map(([address, fixture]) => [address.toLowerCase(), fixture]));
  const apiKey = options.apiKey ?? 'stub-api-key';
  const scorerId = options.scorerId ?? '1';
  const context: Context = { byAddress, apiKey, scorerId };

  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => route(context, req, body))
      .then((reply) => send(res, reply))
      .catch((error: unknown) => send(res, { status: 500, body: { error: (error as Error).message } }));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    urls: { passport: `${origin}/passport`, poap: `${origin}/poap`, neynar: `${origin}/neynar`, lens: `${origin}/lens/graphql` },
    apiKey,
    scorerId,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface Context {
  byAddress: Map<string, AddressFixture>;
  apiKey: string;
  scorerId: string;
}

function route(context: Context, req: IncomingMessage, body: string): Reply {
  const url = new URL(req.url ?? '/', 'http://stub');
  const path = url.pathname;
  const now = new Date();
  if (path.startsWith('/passport/')) return passport(context, req, path.slice('/passport'.length), now);
  if (path.startsWith('/poap/')) return poap(context, req, path.slice('/poap'.length));
  if (path.startsWith('/neynar/')) return neynar(context, req, path.slice('/neynar'.length), url.searchParams, now);
  if (path === '/lens/graphql') return lens(context, req, body, now);
  return { status: 404, body: { error: `no stub at ${req.method ?? 'GET'} ${path}` } };
}

/** Human Passport: `X-API-KEY`; errors are `{"detail": "..."}`. */
function passport(context: Context, req: IncomingMessage, path: string, now: Date): Reply {
  const match = /^\/v2\/stamps\/([^/]+)\/score\/([^/]+)$/.exec(path);
  if (req.method !== 'GET' || !match) return { status: 404, body: { detail: 'Not Found' } };
  if (req.headers['x-api-key'] !== context.apiKey) return { status: 401, body: { detail: 'Unauthorized' } };
  const scorer = match[1]!;
  const address = match[2]!;
  if (decodeURIComponent(scorer) !== context.scorerId) return { status: 404, body: { detail: 'Unable to get score for provided scorer.' } };
  if (!ADDRESS.test(address)) return { status: 400, body: { detail: 'Invalid address.' } };
  const lower = address.toLowerCase();
  return { status: 200, body: passportScore(lower, context.byAddress.get(lower)?.passport, now) };
}

/** POAP: `X-API-Key`; an address holding nothing answers 200 with `[]`. */
function poap(context: Context, req: IncomingMessage, path: string): Reply {
  const match = /^\/actions\/scan\/([^/]+)$/.exec(path);
  if (req.method !== 'GET' || !match) return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not Found' } };
  if (req.headers['x-api-key'] !== context.apiKey) {
    return { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Invalid API key' } };
  }
  const address = match[1]!;
  if (!ADDRESS.test(address)) return { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Invalid address' } };
  const lower = address.toLowerCase();
  return { status: 200, body: poapScan(lower, context.byAddress.get(lower)?.poaps) };
}

/** Neynar: `x-api-key`; no user for any of the addresses answers 404 with an `ErrorRes`. */
function neynar(context: Context, req: IncomingMessage, path: string, query: URLSearchParams, now: Date): Reply {
  if (req.method !== 'GET' || !/^\/v2\/farcaster\/user\/bulk-by-address\/?$/.test(path)) {
    return { status: 404, body: { code: 'NotFound', message: 'Not Found', status: 404 } };
  }
  if (req.headers['x-api-key'] !== context.apiKey) {
    return { status: 401, body: { code: 'Unauthorized', message: 'Invalid API key', status: 401 } };
  }
  const addresses = (query.get('addresses') ?? '').split(',').map((a) => a.trim().toLowerCase());
  if (addresses.length === 0 || addresses.some((a) => !ADDRESS.test(a))) {
    return {
      status: 400,
      body: { code: 'InvalidField', message: 'addresses must be Ethereum addresses', property: 'addresses', status: 400 },
    };
  }
  const found: Record<string, object[]> = {};
  for (const address of addresses) {
    const username = context.byAddress.get(address)?.farcaster;
    if (username !== undefined) found[address] = [neynarUser(address, username, fidOf(context, address), now)];
  }
  if (Object.keys(found).length === 0) {
    return {
      status: 404,
      body: { code: 'NotFound', message: 'No users found for the given addresses', property: 'addresses', status: 404 },
    };
  }
  return { status: 200, body: found };
}

/** Lens: `x-lens-app`; GraphQL errors come as `{"errors": [...]}`; no account answers `items: []`. */
function lens(context: Context, req: IncomingMessage, raw: string, now: Date): Reply {
  if (req.method !== 'POST') return { status: 405, body: { errors: [{ message: 'Use POST' }] } };
  if (req.headers['x-lens-app'] !== context.apiKey) {
    return { status: 401, body: { errors: [{ message: 'Invalid app API key', extensions: { code: 'UNAUTHENTICATED' } }] } };
  }
  let request: { query?: unknown; variables?: { request?: { managedBy?: unknown } } };
  try {
    request = JSON.parse(raw) as typeof request;
  } catch {
    return { status: 400, body: { errors: [{ message: 'The body is not JSON' }] } };
  }
  const managedBy = request.variables?.request?.managedBy;
  if (typeof request.query !== 'string' || !request.query.includes('accountsAvailable')) {
    return { status: 400, body: { errors: [{ message: 'The stub answers accountsAvailable only' }] } };
  }
  if (typeof managedBy !== 'string' || !ADDRESS.test(managedBy)) {
    return {
      status: 200,
      body: { data: null, errors: [{ message: 'Invalid EvmAddress for request.managedBy', extensions: { code: 'BAD_USER_INPUT' } }] },
    };
  }
  const lower = managedBy.toLowerCase();
  const localName = context.byAddress.get(lower)?.lens;
  const items = localName === undefined ? [] : [lensOwnedAccount(localName, accountAddressOf(lower), now)];
  return { status: 200, body: { data: { accountsAvailable: { items, pageInfo: { prev: null, next: null } } } } };
}

/** A stable FID per fixture address. */
function fidOf(context: Context, address: string): number {
  return 1000 + [...context.byAddress.keys()].indexOf(address);
}

/** A stable, distinct Lens account (smart contract) address for an owner. */
function accountAddressOf(owner: string): string {
  return `0x${owner.slice(2).split('').reverse().join('')}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
