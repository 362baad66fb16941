import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { checkTarget, isNonPublicAddress, pinnedLookup, TargetRefused } from './url-guard';

const publicOnly = { allowPrivate: false };
const devnet = { allowPrivate: true };

describe('checkTarget', () => {
  it.each([
    ['https://127.0.0.1/hook', 'private, loopback or link-local'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::1]:8443/hook', 'loopback'],
    ['https://[::ffff:192.168.1.1]/hook', 'private'],
    ['https://[fd00::1]/hook', 'private'],
    ['https://localhost/hook', 'resolves to'],
    ['http://93.184.215.14/hook', 'must be https'],
    ['https://user:pw@93.184.215.14/hook', 'credentials'],
    ['not a url', 'absolute URL'],
    ['ftp://93.184.215.14/x', 'must be https'],
    ['https://name.invalid/hook', 'does not resolve'],
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE', async (url, reason) => {
    const refusal = await checkTarget(url, publicOnly).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TargetRefused);
    expect((refusal as Error).message).toContain(reason);
  });

  it('accepts a public https address', async () => {
    const checked = await checkTarget('https://93.184.215.14:8443/hook?x=1', publicOnly);
    expect(checked.addresses).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect(checked.url.port).toBe('8443');
  });

  it('accepts http to 127.0.0.1 (and localhost) with WEBHOOK_ALLOW_PRIVATE', async () => {
    await expect(checkTarget('http://127.0.0.1:9/hook', devnet)).resolves.toMatchObject({ addresses: [{ address: '127.0.0.1' }] });
    const local = await checkTarget('http://localhost:9/hook', devnet);
    expect(local.addresses.length).toBeGreaterThan(0);
    await expect(checkTarget('ftp://127.0.0.1/x', devnet)).rejects.toThrow('http or https');
  });
});

describe('isNonPublicAddress', () => {
  it.each(['100.64.0.1', '172.31.255.255', '0.0.0.0', '224.0.0.1', 'fe80::1', '::', 'garbage'])('%s is not public', (address) =>
    expect(isNonPublicAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isNonPublicAddress(address)).toBe(false),
  );
});

describe('pinnedLookup', () => {
  it('connects to the checked address whatever the name', async () => {
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const target = { url: new URL(`http://example.invalid:${port}/`), addresses: [{ address: '127.0.0.1', family: 4 as const }] };
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(target.url, { lookup: pinnedLookup(target) }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    server.close();
    expect(body).toBe('pinned');
  });
});
