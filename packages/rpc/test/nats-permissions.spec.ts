import 'reflect-metadata';
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import type { NatsConnection } from 'nats';
import { publishEvent } from '../src/event-publisher';
import { connectNats } from '../src/nats-connection';
import { PublishRefusedError } from '../src/nats-permissions';
import { RpcClient } from '../src/rpc-client';
import { startService, type RunningService } from '../src/start-service';
import { A, codeOf, sandboxModule, validScore } from './support';

/**
 * What the platform's NATS clients do when the server refuses them (the mechanism; the shipped
 * users of infra/nats/auth.conf are attacked in packages/security-suite/test/nats-permissions.spec.ts):
 * a refused publish is an error its publisher sees and a line in the log, never silent; a refused
 * request fails at once; replies arrive under the user's own inbox prefix.
 */
const CONFIG = `authorization {
  users = [
    { user: caller, password: caller-pw, permissions: {
        publish: { allow: ["credit.sandbox.>", "credit.events.account.>"] }
        subscribe: { allow: ["_INBOX_caller.>"] } } }
    { user: sandbox, password: sandbox-pw, permissions: {
        subscribe: { allow: ["credit.sandbox.> sandbox", "credit.health.sandbox.v1"] }, publish: { deny: [">"] }, allow_responses: true } }
  ]
}`;
const SUBJECT = 'credit.sandbox.score.address.v1';

let nats: PrivateNats;
let service: RunningService;
let caller: NatsConnection;
const errors: string[] = [];

beforeAll(async () => {
  nats = await startPrivateNats({ config: CONFIG });
  service = await startService(
    sandboxModule(() => ({ [SUBJECT]: (request: { address: string }) => validScore(request.address, 610) })),
    {
      service: 'sandbox',
      natsUrl: nats.url,
      natsAuth: { user: 'sandbox', password: 'sandbox-pw' },
      subjectPrefix: '',
      healthPort: 0,
      silent: true,
    },
  );
  jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
  caller = await connectNats({ url: nats.url, name: 'caller', user: 'caller', password: 'caller-pw' });
});

afterAll(async () => {
  jest.restoreAllMocks();
  await caller?.close();
  await service?.close();
  await nats?.stop();
});

const revocation = { key_id: 'key_x', key_hash: 'f'.repeat(64) };
const options = { subjectPrefix: '', timeoutMs: 2_000 };

describe('a publish the server refuses', () => {
  it('rejects at the publisher with PublishRefusedError, and the connection logs it', async () => {
    await expect(publishEvent(caller, 'apiKeyRevoked', revocation, options)).rejects.toBeInstanceOf(PublishRefusedError);
    await expect(publishEvent(caller, 'apiKeyRevoked', revocation, options)).rejects.toThrow(
      'NATS refused the publish to credit.events.api-key.revoked.v1',
    );
    expect(errors.some((line) => line.includes('refused a publish to credit.events.api-key.revoked.v1'))).toBe(true);
  });

  it('an allowed publish resolves, every time, also when refused ones run beside it', async () => {
    const plan = { account_id: 'acc_1', plan: 'pro' as const, monthly_cu: null };
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? publishEvent(caller, 'accountPlanChanged', plan, options)
          : publishEvent(caller, 'apiKeyRevoked', revocation, options),
      ),
    );
    results.forEach((result, i) => expect(result.status).toBe(i % 2 === 0 ? 'fulfilled' : 'rejected'));
  });

  it('under a subject prefix the refusal names the prefixed subject', async () => {
    await expect(
      publishEvent(caller, 'accountPlanChanged', { account_id: 'a', plan: 'free', monthly_cu: null }, { ...options, subjectPrefix: 'p1' }),
    ).rejects.toThrow('p1.credit.events.account.plan.v1');
  });
});

describe('requests', () => {
  it('go out with replies under the user’s own inbox prefix (_INBOX_<user>), and are answered', async () => {
    const client = new RpcClient(caller, '');
    try {
      expect((await client.send(SUBJECT, { address: A })).score).toBe(610);
    } finally {
      client.close();
    }
    expect((caller as unknown as { options: { inboxPrefix: string } }).options.inboxPrefix).toBe('_INBOX_caller');
  });

  it('a request the server refuses fails at once with internal, not at its timeout', async () => {
    const client = new RpcClient(caller, '');
    const started = Date.now();
    try {
      expect(await codeOf(client.send('credit.score.address.v1', { address: A }, { timeoutMs: 60_000 }))).toBe('internal');
    } finally {
      client.close();
    }
    expect(Date.now() - started).toBeLessThan(30_000); // not the 60 s it was given
    expect(errors.some((line) => line.includes('refused a publish to credit.score.address.v1'))).toBe(true);
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
    // the server's TLS handshake timeout is 2 s by default: a test worker stalled that long under
    // CI's load had its connection reset mid-handshake (ECONNRESET), so this server waits 10 s
    tlsNats = await startPrivateNats({
      config: `tls { cert_file: "${dir}/server.pem"\n key_file: "${dir}/server.key"\n timeout: 10 }`,
    });
  });

  afterAll(async () => {
    await tlsNats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects when the servers’ CA is given, and refuses a server it cannot verify', async () => {
    const nc = await connectNats({ url: tlsNats.url, name: 'tls-client', tlsCaFile: join(dir, 'ca.pem') });
    try {
      expect(nc.info?.tls_required).toBe(true);
    } finally {
      await nc.close();
    }
    await expect(connectNats({ url: tlsNats.url, name: 'tls-unverified' }).then((c) => c.close())).rejects.toThrow();
  });
});
