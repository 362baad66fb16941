import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress, type Address } from 'viem';
import { startProviderStubs, type ProviderStubs } from '@credit/provider-stubs/provider-stubs';
import type { IdentitySource } from '../src/domain/identity-source';
import { FarcasterSource } from '../src/sources/farcaster-source';
import { MAX_BODY_BYTES, ProviderError } from '../src/sources/http-json';
import { LensSource } from '../src/sources/lens-source';
import { PassportSource } from '../src/sources/passport-source';
import { PoapSource, toIsoDate } from '../src/sources/poap-source';

const KNOWN: Address = getAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045');
const HIGH_SCORE: Address = getAddress('0x2c1e111d7c3adc823b5fa3af3f07eb62831c3c5e');
const UNKNOWN: Address = getAddress('0x000000000000000000000000000000000000dead');

const fixtures = {
  [KNOWN.toLowerCase()]: {
    passport: { score: '33.53800', stamps: ['Ens', 'Github', 'ETHDaysActive#50'] },
    poaps: [
      { name: 'ETHDenver 2024', date: '2024-02-29' },
      { name: 'Devcon 7', date: '2024-11-12' },
    ],
    farcaster: 'vitalik.eth',
    lens: 'vitalik',
  },
  [HIGH_SCORE.toLowerCase()]: { passport: { score: '150.25000', stamps: ['Google'] } },
};

const signal = () => AbortSignal.timeout(5_000);

describe('provider sources against the provider stubs', () => {
  let stubs: ProviderStubs;
  let passport: PassportSource;
  let poap: PoapSource;
  let farcaster: FarcasterSource;
  let lens: LensSource;

  beforeAll(async () => {
    stubs = await startProviderStubs(fixtures);
    passport = new PassportSource({ baseUrl: stubs.urls.passport, apiKey: stubs.apiKey, scorerId: stubs.scorerId });
    poap = new PoapSource({ baseUrl: stubs.urls.poap, apiKey: stubs.apiKey });
    farcaster = new FarcasterSource({ baseUrl: stubs.urls.neynar, apiKey: stubs.apiKey });
    lens = new LensSource({ baseUrl: stubs.urls.lens, apiKey: stubs.apiKey });
  });
  afterAll(() => stubs.close());

  it('maps a known address to the fields of each source', async () => {
    await expect(passport.lookup(KNOWN, signal())).resolves.toEqual({
      ext_passport: {
        score: 33.538,
        stamps: [
          { provider: 'Ens', verified: true },
          { provider: 'Github', verified: true },
          { provider: 'ETHDaysActive#50', verified: true },
        ],
      },
    });
    await expect(poap.lookup(KNOWN, signal())).resolves.toEqual({
      poaps: {
        count: 2,
        events: [
          { name: 'ETHDenver 2024', date: '2024-02-29' },
          { name: 'Devcon 7', date: '2024-11-12' },
        ],
      },
    });
    await expect(farcaster.lookup(KNOWN, signal())).resolves.toEqual({ social: { farcaster: 'vitalik.eth' } });
    await expect(lens.lookup(KNOWN, signal())).resolves.toEqual({ social: { lens: 'vitalik' } });
  });

  it('farcaster: many addresses in one request, the known one found, the others nothing', async () => {
    await expect(farcaster.lookupMany([UNKNOWN, KNOWN, HIGH_SCORE], signal())).resolves.toEqual(
      new Map([
        [UNKNOWN, undefined],
        [KNOWN, { social: { farcaster: 'vitalik.eth' } }],
        [HIGH_SCORE, undefined],
      ]),
    );
    // none of them known: Neynar's 404, nothing for each
    await expect(farcaster.lookupMany([UNKNOWN, HIGH_SCORE], signal())).resolves.toEqual(
      new Map([
        [UNKNOWN, undefined],
        [HIGH_SCORE, undefined],
      ]),
    );
  });

  it('clamps a passport score above 100', async () => {
    await expect(passport.lookup(HIGH_SCORE, signal())).resolves.toEqual({
      ext_passport: { score: 100, stamps: [{ provider: 'Google', verified: true }] },
    });
  });

  it("answers undefined for an address the provider knows nothing of (each provider's own 'not found')", async () => {
    for (const source of [passport, poap, farcaster, lens]) {
      await expect(source.lookup(UNKNOWN, signal())).resolves.toBeUndefined();
    }
  });

  it('throws a ProviderError when the key is refused', async () => {
    const wrong = 'not-the-key';
    const sources: IdentitySource[] = [
      new PassportSource({ baseUrl: stubs.urls.passport, apiKey: wrong, scorerId: stubs.scorerId }),
      new PoapSource({ baseUrl: stubs.urls.poap, apiKey: wrong }),
      new FarcasterSource({ baseUrl: stubs.urls.neynar, apiKey: wrong }),
      new LensSource({ baseUrl: stubs.urls.lens, apiKey: wrong }),
    ];
    for (const source of sources) {
      await expect(source.lookup(KNOWN, signal())).rejects.toMatchObject({ name: 'ProviderError', kind: 'auth', status: 401 });
    }
  });

  it("throws on Human Passport's 404 for an unknown scorer ID (a configuration error, not 'not found')", async () => {
    const source = new PassportSource({ baseUrl: stubs.urls.passport, apiKey: stubs.apiKey, scorerId: '999' });
    await expect(source.lookup(KNOWN, signal())).rejects.toMatchObject({ name: 'ProviderError', kind: 'status', status: 404 });
  });
});

/** A tiny server the test scripts: it records each request and answers with `handler`. */
class ScriptedServer {
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => json(res, 200, {});
  readonly seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  private server?: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        this.handler(req, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function raw(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

describe('provider sources against a misbehaving server', () => {
  const server = new ScriptedServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen.length = 0;
  });

  const make = {
    passport: () => new PassportSource({ baseUrl: server.base, apiKey: 'k-1', scorerId: '7' }),
    poap: () => new PoapSource({ baseUrl: `${server.base}/`, apiKey: 'k-2' }),
    farcaster: () => new FarcasterSource({ baseUrl: server.base, apiKey: 'k-3' }),
    lens: () => new LensSource({ baseUrl: `${server.base}/graphql`, apiKey: 'k-4' }),
  };
  const names = Object.keys(make) as (keyof typeof make)[];

  it('sends each request as the provider documents it', async () => {
    server.handler = (req, res) => {
      if (req.url?.startsWith('/graphql')) json(res, 200, { data: { accountsAvailable: { items: [] } } });
      else if (req.url?.startsWith('/actions/scan/')) json(res, 200, []);
      else if (req.url?.startsWith('/v2/farcaster/')) json(res, 404, { message: 'No users found' });
      else json(res, 200, { address: KNOWN, score: '0.00000', passing_score: false, threshold: '20.00000', error: null, stamps: {} });
    };
    for (const name of names) await make[name]().lookup(KNOWN, signal());
    const [p, o, f, l] = server.seen;
    expect(p).toMatchObject({ method: 'GET', url: `/v2/stamps/7/score/${KNOWN}`, headers: { 'x-api-key': 'k-1' } });
    expect(o).toMatchObject({ method: 'GET', url: `/actions/scan/${KNOWN}`, headers: { 'x-api-key': 'k-2' } });
    expect(f).toMatchObject({
      method: 'GET',
      url: `/v2/farcaster/user/bulk-by-address/?addresses=${KNOWN.toLowerCase()}`,
      headers: { 'x-api-key': 'k-3' },
    });
    expect(l).toMatchObject({ method: 'POST', url: '/graphql', headers: { 'x-lens-app': 'k-4', 'content-type': 'application/json' } });
    const graphql = JSON.parse(l!.body) as { query: string; variables: unknown };
    expect(graphql.query).toContain('accountsAvailable(request: $request)');
    expect(graphql.variables).toEqual({ request: { managedBy: KNOWN, includeOwned: true, pageSize: 'FIFTY' } });
  });

  const failures: [string, (res: ServerResponse) => void, string][] = [
    ['an HTML page', (res) => raw(res, 200, 'text/html', '<!doctype html><html><body>Bad gateway</body></html>'), 'not-json'],
    ['garbage JSON', (res) => raw(res, 200, 'application/json', '{"score": "33.5", "stamps": {'), 'not-json'],
    ['a 500', (res) => json(res, 500, { detail: 'Internal Server Error' }), 'status'],
    ['a body of the wrong shape', (res) => json(res, 200, { unexpected: [1, 2, 3] }), 'shape'],
    ['a body of the wrong types', (res) => json(res, 200, [{ event: { name: 7 } }]), 'shape'],
    ['a body past the size limit', (res) => raw(res, 200, 'application/json', `[${'0,'.repeat(MAX_BODY_BYTES)}0]`), 'shape'],
  ];

  describe.each(names)('%s', (name) => {
    it.each(failures)('throws a ProviderError on %s', async (_what, respond, kind) => {
      server.handler = (_req, res) => respond(res);
      const error = await make[name]()
        .lookup(KNOWN, signal())
        .then(
          (fields) => fields,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ provider: name === 'farcaster' ? 'neynar' : name, kind });
    });

    it('throws when the signal fires on a server that never answers', async () => {
      server.handler = () => undefined;
      const started = Date.now();
      await expect(make[name]().lookup(KNOWN, AbortSignal.timeout(200))).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });

  describe('passport mapping', () => {
    const answer = (stamps: unknown, extra: object = {}) => ({
      address: KNOWN.toLowerCase(),
      score: '41.20000',
      passing_score: true,
      last_score_timestamp: '2025-01-01T00:00:00+00:00',
      expiration_timestamp: '2999-01-01T00:00:00+00:00',
      threshold: '20.00000',
      error: null,
      stamps,
      ...extra,
    });

    it('counts a stamp verified unless it is deduplicated or expired', async () => {
      server.handler = (_req, res) =>
        json(
          res,
          200,
          answer({
            Ens: { score: '2.00000', dedup: false, expiration_date: '2999-01-01T00:00:00+00:00' },
            Github: { score: '0.00000', dedup: true, expiration_date: '2999-01-01T00:00:00+00:00' },
            Google: { score: '1.00000', dedup: false, expiration_date: '2001-01-01T00:00:00+00:00' },
            Discord: { score: '1.00000', dedup: false, expiration_date: null },
          }),
        );
      await expect(make.passport().lookup(KNOWN, signal())).resolves.toEqual({
        ext_passport: {
          score: 41.2,
          stamps: [
            { provider: 'Ens', verified: true },
            { provider: 'Github', verified: false },
            { provider: 'Google', verified: false },
            { provider: 'Discord', verified: true },
          ],
        },
      });
    });

    it('refuses an answer carrying a scorer error, a null score or an unparsable date', async () => {
      for (const body of [
        answer({}, { error: 'Unable to score' }),
        answer({}, { score: null }),
        answer({ Ens: { score: '1.00000', dedup: false, expiration_date: 'soon' } }),
        answer({}, { score: 'about 40' }),
      ]) {
        server.handler = (_req, res) => json(res, 200, body);
        await expect(make.passport().lookup(KNOWN, signal())).rejects.toBeInstanceOf(ProviderError);
      }
    });
  });

  describe('poap mapping', () => {
    const token = (name: string, start_date: string, i: number) => ({
      event: { id: i, fancy_id: `e-${i}`, name, start_date, end_date: start_date, year: 2022 },
      tokenId: String(1000 + i),
      owner: KNOWN,
      chain: 'xdai',
      created: '2022-01-20 16:36:40',
    });

    it("converts POAP's DD-Mon-YYYY (and the reference's MM-DD-YYYY) to YYYY-MM-DD", async () => {
      server.handler = (_req, res) =>
        json(res, 200, [token('A', '23-Jan-2022', 1), token('B', '07-18-2022', 2), token('C', '2023-08-17', 3)]);
      await expect(make.poap().lookup(KNOWN, signal())).resolves.toEqual({
        poaps: {
          count: 3,
          events: [
            { name: 'A', date: '2022-01-23' },
            { name: 'B', date: '2022-07-18' },
            { name: 'C', date: '2023-08-17' },
          ],
        },
      });
      expect(toIsoDate('04-oct-2022')).toBe('2022-10-04');
    });

    it.each(['31-Feb-2024', '18-07-2022', 'yesterday', '2022/01/23', ''])('refuses the whole answer when a date is %j', async (date) => {
      server.handler = (_req, res) => json(res, 200, [token('A', '23-Jan-2022', 1), token('B', date, 2)]);
      await expect(make.poap().lookup(KNOWN, signal())).rejects.toMatchObject({ name: 'ProviderError', kind: 'shape' });
    });
  });

  describe('farcaster mapping', () => {
    const user = (username: string, fid: number) => ({ object: 'user', fid, username, custody_address: KNOWN.toLowerCase() });

    it('takes the first user under the address, and treats a missing key or empty list as nothing', async () => {
      server.handler = (_req, res) => json(res, 200, { [KNOWN.toLowerCase()]: [user('first', 3), user('second', 4)] });
      await expect(make.farcaster().lookup(KNOWN, signal())).resolves.toEqual({ social: { farcaster: 'first' } });
      server.handler = (_req, res) => json(res, 200, { [KNOWN.toLowerCase()]: [] });
      await expect(make.farcaster().lookup(KNOWN, signal())).resolves.toBeUndefined();
      server.handler = (_req, res) => json(res, 200, { [UNKNOWN.toLowerCase()]: [user('other', 5)] });
      await expect(make.farcaster().lookup(KNOWN, signal())).resolves.toBeUndefined();
    });

    it("asks for many addresses in one request, 350 at most (Neynar's limit), each answered by its own key", async () => {
      const many = Array.from({ length: 351 }, (_, i) => getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`));
      server.handler = (req, res) => {
        const asked = new URL(req.url!, 'http://x').searchParams.get('addresses')!.split(',');
        // the first and the last address of each request hold a user
        json(res, 200, { [asked[0]!]: [user(`u-${asked[0]!.slice(-3)}`, 1)], [asked.at(-1)!]: [user(`u-${asked.at(-1)!.slice(-3)}`, 2)] });
      };
      const found = await make.farcaster().lookupMany(many, signal());
      expect(server.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('addresses')!.split(',').length)).toEqual([350, 1]);
      expect(server.seen.every((r) => r.headers['x-api-key'] === 'k-3')).toBe(true);
      expect(found.size).toBe(351);
      expect([...found].filter(([, fields]) => fields !== undefined).map(([a]) => a)).toEqual([many[0], many[349], many[350]]);
      expect(found.get(many[349]!)).toEqual({ social: { farcaster: `u-${many[349]!.toLowerCase().slice(-3)}` } });
    });

    it("throws on a 404 that is not Neynar's error body (an HTML page of a proxy)", async () => {
      server.handler = (_req, res) => raw(res, 404, 'text/html', '<html>404 Not Found</html>');
      await expect(make.farcaster().lookup(KNOWN, signal())).rejects.toMatchObject({ name: 'ProviderError', kind: 'not-json' });
    });
  });

  describe('lens mapping', () => {
    const account = (typename: string, localName: string | null) => ({
      __typename: typename,
      account: { address: UNKNOWN, username: localName === null ? null : { localName, value: `lens/${localName}` } },
    });

    it('takes the first owned account with a username, never a managed one', async () => {
      server.handler = (_req, res) =>
        json(res, 200, {
          data: {
            accountsAvailable: {
              items: [account('AccountManaged', 'delegated'), account('AccountOwned', null), account('AccountOwned', 'mine')],
            },
          },
        });
      await expect(make.lens().lookup(KNOWN, signal())).resolves.toEqual({ social: { lens: 'mine' } });
      server.handler = (_req, res) => json(res, 200, { data: { accountsAvailable: { items: [account('AccountManaged', 'delegated')] } } });
      await expect(make.lens().lookup(KNOWN, signal())).resolves.toBeUndefined();
    });

    it('throws on GraphQL errors', async () => {
      server.handler = (_req, res) => json(res, 200, { data: null, errors: [{ message: 'Invalid EvmAddress' }] });
      await expect(make.lens().lookup(KNOWN, signal())).rejects.toMatchObject({ name: 'ProviderError', kind: 'shape' });
    });
  });
});
