import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProviderStubs } from '../src/main';
import { startProviderStubs, type ProviderStubs } from '../src/provider-stubs';

const HOLDER = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const CHECKSUMMED = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const NOBODY = '0x000000000000000000000000000000000000dead';

const fixtures = {
  [HOLDER]: {
    passport: { score: '25.50000', stamps: ['Ens', 'Github'] },
    poaps: [{ name: 'Devcon 7', date: '2024-11-12' }],
    farcaster: 'vitalik.eth',
    lens: 'vitalik',
  },
};

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function lens(stubs: ProviderStubs, managedBy: string, key = stubs.apiKey): Promise<{ status: number; body: unknown }> {
  const res = await fetch(stubs.urls.lens, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lens-app': key },
    body: JSON.stringify({
      query: 'query { accountsAvailable(request: $request) { items { __typename } } }',
      variables: { request: { managedBy } },
    }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('provider stubs', () => {
  let stubs: ProviderStubs;
  beforeAll(async () => {
    stubs = await startProviderStubs(fixtures);
  });
  afterAll(() => stubs.close());

  it('renders Human Passport v2 scores, and 0 with no stamps for an unknown address', async () => {
    const key = { 'X-API-KEY': stubs.apiKey };
    const known = await get(`${stubs.urls.passport}/v2/stamps/${stubs.scorerId}/score/${CHECKSUMMED}`, key);
    expect(known).toMatchObject({
      status: 200,
      body: {
        address: HOLDER,
        score: '25.50000',
        passing_score: true,
        threshold: '20.00000',
        error: null,
        stamps: { Ens: { score: '12.75000', dedup: false }, Github: { score: '12.75000', dedup: false } },
      },
    });
    const unknown = await get(`${stubs.urls.passport}/v2/stamps/${stubs.scorerId}/score/${NOBODY}`, key);
    expect(unknown).toMatchObject({ status: 200, body: { score: '0.00000', passing_score: false, stamps: {} } });
    expect(await get(`${stubs.urls.passport}/v2/stamps/${stubs.scorerId}/score/${HOLDER}`)).toEqual({
      status: 401,
      body: { detail: 'Unauthorized' },
    });
    expect((await get(`${stubs.urls.passport}/v2/stamps/42/score/${HOLDER}`, key)).status).toBe(404);
  });

  it("renders POAP's scan with DD-Mon-YYYY dates, [] for an unknown address", async () => {
    const key = { 'X-API-Key': stubs.apiKey };
    expect(await get(`${stubs.urls.poap}/actions/scan/${CHECKSUMMED}`, key)).toMatchObject({
      status: 200,
      body: [{ event: { name: 'Devcon 7', start_date: '12-Nov-2024', year: 2024 }, owner: HOLDER, chain: 'xdai' }],
    });
    expect(await get(`${stubs.urls.poap}/actions/scan/${NOBODY}`, key)).toEqual({ status: 200, body: [] });
    expect((await get(`${stubs.urls.poap}/actions/scan/${HOLDER}`)).status).toBe(401);
  });

  it("renders Neynar's users by lower-cased address, 404 ErrorRes for none", async () => {
    const key = { 'x-api-key': stubs.apiKey };
    const url = `${stubs.urls.neynar}/v2/farcaster/user/bulk-by-address/?addresses=`;
    expect(await get(`${url}${HOLDER}`, key)).toMatchObject({
      status: 200,
      body: { [HOLDER]: [{ object: 'user', username: 'vitalik.eth', custody_address: HOLDER }] },
    });
    expect(await get(`${url}${NOBODY}`, key)).toMatchObject({ status: 404, body: { message: expect.any(String) as string } });
    expect((await get(`${url}${HOLDER}`)).status).toBe(401);
  });

  it("answers Lens' accountsAvailable with the owned account, items [] for none", async () => {
    expect(await lens(stubs, CHECKSUMMED)).toMatchObject({
      status: 200,
      body: {
        data: {
          accountsAvailable: {
            items: [{ __typename: 'AccountOwned', account: { username: { localName: 'vitalik', value: 'lens/vitalik' } } }],
          },
        },
      },
    });
    expect(await lens(stubs, NOBODY)).toMatchObject({ status: 200, body: { data: { accountsAvailable: { items: [] } } } });
    expect((await lens(stubs, HOLDER, 'wrong')).status).toBe(401);
  });

  it('refuses fixtures that are not of the documented form', async () => {
    await expect(startProviderStubs({ [HOLDER]: { poaps: [{ name: 'x', date: '12-Nov-2024' }] } })).rejects.toThrow();
    await expect(startProviderStubs({ 'not-an-address': {} })).rejects.toThrow();
  });
});

describe('provider stubs CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'provider-stubs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from a fixtures file and prints one ready line', async () => {
    const file = join(dir, 'fixtures.json');
    writeFileSync(file, JSON.stringify(fixtures));
    const lines: string[] = [];
    const stubs = await runProviderStubs([file], { PROVIDER_STUBS_PORT: '0' }, (line) => lines.push(line));
    try {
      expect(lines).toHaveLength(1);
      const ready = JSON.parse(lines[0]!) as { ready: boolean; urls: Record<string, string>; apiKey: string; scorerId: string };
      expect(ready).toEqual({ ready: true, urls: stubs.urls, apiKey: stubs.apiKey, scorerId: stubs.scorerId });
      expect(Object.keys(ready.urls).sort()).toEqual(['lens', 'neynar', 'passport', 'poap']);
      expect((await get(`${ready.urls.poap}/actions/scan/${HOLDER}`, { 'X-API-Key': ready.apiKey })).status).toBe(200);
    } finally {
      await stubs.close();
    }
  });

  it('refuses a missing file argument, a bad fixtures file and a bad port', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ [HOLDER]: { farcaster: 7 } }));
    await expect(runProviderStubs([], {}, () => undefined)).rejects.toThrow(/usage/);
    await expect(runProviderStubs([bad], {}, () => undefined)).rejects.toThrow(/not a fixtures file/);
    await expect(runProviderStubs([bad], { PROVIDER_STUBS_PORT: 'x' }, () => undefined)).rejects.toThrow(/not a port/);
  });
});
