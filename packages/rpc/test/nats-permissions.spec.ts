import 'reflect-metadata';
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS } from '@credit/contracts/events';
import { startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import { Events, type NatsConnection } from 'nats';
import { connectNats } from '../src/nats-connection';
import { RpcClient } from '../src/rpc-client';
import { startService, type RunningService } from '../src/start-service';
import { A, encode, sandboxModule, validScore } from './support';

/**
 * The shipped NATS authorization (infra/nats/auth.conf) on a NATS server of the test's own: each
 * app connects as its own user; no one connects without a password; a pod cannot answer another
 * app's requests (it may not subscribe to them or join their queue group) nor forge an event.
 */
const AUTH_CONF = join(__dirname, '..', '..', '..', 'infra', 'nats', 'auth.conf');
const USERS = ['gateway', 'scoring', 'reports', 'identity', 'sandbox', 'cli'] as const;
type User = (typeof USERS)[number];
const password = (user: User) => `test-${user}-password`;
const SUBJECT = 'credit.sandbox.score.address.v1';

const SandboxModule = sandboxModule(() => ({ [SUBJECT]: (request: { address: string }) => validScore(request.address, 610) }));

let nats: PrivateNats;
let service: RunningService;
const connections: NatsConnection[] = [];

const as = async (user: User) => {
  const nc = await connectNats({ url: nats.url, name: `permissions-${user}`, user, password: password(user) });
  connections.push(nc);
  return nc;
};

/** The server's verdict on a subscription: a permissions violation arrives on its callback. */
function subscriptionRefused(nc: NatsConnection, subject: string, queue?: string): Promise<boolean> {
  return new Promise((resolve) => {
    nc.subscribe(subject, { ...(queue ? { queue } : {}), callback: (error) => resolve(error?.code === 'PERMISSIONS_VIOLATION') });
    void nc.flush().then(() => setTimeout(() => resolve(false), 300));
  });
}

/** Whether the server refuses a publish (reported asynchronously on the connection's status). */
async function publishRefused(nc: NatsConnection, subject: string): Promise<boolean> {
  const refused = (async () => {
    for await (const status of nc.status())
      if (status.type === Events.Error && String(status.data).includes('PERMISSIONS_VIOLATION')) return true;
    return false;
  })();
  nc.publish(subject, encode({ key_id: 'key_x', key_hash: 'f'.repeat(64) }));
  await nc.flush();
  return Promise.race([refused, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500))]);
}

beforeAll(async () => {
  nats = await startPrivateNats({
    config: readFileSync(AUTH_CONF, 'utf8'), // what `include auth.conf` reads
    env: Object.fromEntries(USERS.map((u) => [`NATS_${u.toUpperCase()}_PASSWORD`, password(u)])),
  });
  service = await startService(SandboxModule, {
    service: 'sandbox',
    natsUrl: nats.url,
    natsAuth: { user: 'sandbox', password: password('sandbox') },
    subjectPrefix: '',
    healthPort: 0,
    silent: true,
  });
});

afterAll(async () => {
  for (const nc of connections) await nc.close().catch(() => undefined);
  await service?.close();
  await nats?.stop();
});

describe('NATS authorization (infra/nats/auth.conf)', () => {
  it('Kubernetes ships the same users and permissions as compose', () => {
    expect(readFileSync(join(__dirname, '..', '..', '..', 'infra', 'k8s', 'nats', 'auth.conf'), 'utf8')).toBe(
      readFileSync(AUTH_CONF, 'utf8'),
    );
  });

  it('the gateway, as its own user, gets the sandbox service’s answer', async () => {
    const client = new RpcClient(await as('gateway'), '');
    try {
      expect((await client.send(SUBJECT, { address: A })).score).toBe(610);
    } finally {
      client.close();
    }
  });

  it('no password, or a wrong one: the connection is refused', async () => {
    await expect(connectNats({ url: nats.url, name: 'anonymous' })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(connectNats({ url: nats.url, name: 'guess', user: 'scoring', password: 'guess' })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
  });

  it('no app can answer another app’s requests: subscribing to them, or joining their queue group, is refused', async () => {
    expect(await subscriptionRefused(await as('gateway'), SUBJECT)).toBe(true);
    expect(await subscriptionRefused(await as('scoring'), SUBJECT, 'sandbox')).toBe(true);
    expect(await subscriptionRefused(await as('sandbox'), 'credit.score.address.v1', 'scoring')).toBe(true);
    // its own subjects, but outside its queue group (to see every request): refused as well
    expect(await subscriptionRefused(await as('scoring'), 'credit.score.address.v1')).toBe(true);
    expect(await subscriptionRefused(await as('scoring'), 'credit.score.address.v1', 'scoring')).toBe(false);
  });

  it('only the operator CLI may broadcast events; a service cannot forge a revocation or a request', async () => {
    const revoked = EVENTS.apiKeyRevoked.subject;
    expect(await publishRefused(await as('sandbox'), revoked)).toBe(true);
    expect(await publishRefused(await as('gateway'), revoked)).toBe(true);
    expect(await publishRefused(await as('scoring'), SUBJECT)).toBe(true);
    expect(await publishRefused(await as('cli'), revoked)).toBe(false);
  });

  it.each(['scoring', 'reports'] as const)('%s may ask the identity service and nothing else', async (user) => {
    expect(await publishRefused(await as(user), 'credit.identity.attestations-many.v1')).toBe(false);
    expect(await publishRefused(await as(user), 'credit.report.full.v1')).toBe(true);
    expect(await publishRefused(await as(user), 'credit.score.address.v1')).toBe(true);
    expect(await publishRefused(await as(user), EVENTS.apiKeyRevoked.subject)).toBe(true);
    expect(await subscriptionRefused(await as(user), 'credit.identity.attestations.v1', 'identity')).toBe(true);
  });
});

describe('NATS over TLS (NATS_TLS_CA_FILE)', () => {
  let dir: string;
  let tlsNats: PrivateNats;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nats-tls-'));
    const openssl = (args: string) => execSync(`openssl ${args}`, { cwd: dir, stdio: 'ignore' });
    openssl('req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca -keyout ca.key -out ca.pem');
    openssl('req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl('x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -extfile san.ext -out server.pem');
    tlsNats = await startPrivateNats({ config: `tls { cert_file: "${dir}/server.pem"\n key_file: "${dir}/server.key" }` });
  });

  afterAll(async () => {
    await tlsNats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects when the servers’ CA is given, and refuses a server it cannot verify', async () => {
    const nc = await connectNats({ url: tlsNats.url, name: 'tls-client', tlsCaFile: join(dir, 'ca.pem') });
    connections.push(nc);
    expect(nc.info?.tls_required).toBe(true);
    await expect(connectNats({ url: tlsNats.url, name: 'tls-unverified' }).then((c) => c.close())).rejects.toThrow();
  });
});
