import { createTestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { UNLIMITED_RATES } from '@credit/testing/unlimited-rates';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { SandboxModule } from '@credit/sandbox/sandbox.module';
import type { PlanName } from '@credit/contracts/pricing';
import { gatewayConfig } from '@credit/gateway/config';
import { startGateway, type RunningGateway } from '@credit/gateway/create-gateway';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A real stack for one test file: its own Postgres database, its own NATS subject prefix, the
 * gateway on an ephemeral port and the sandbox service (any number of replicas), all in-process.
 */
export interface TestStack {
  url: string;
  prefix: string;
  /** The stack's own database (migrated): the gateway's accounts and keys, and room for the indexer's tables. */
  databaseUrl: string;
  db: Db;
  gateway: RunningGateway;
  sandboxes: RunningService[];
  startSandbox(): Promise<RunningService>;
  createKey(options?: {
    email?: string;
    plan?: PlanName;
    name?: string;
  }): Promise<{ key: string; keyId: string; accountId: string; email: string }>;
  /** Another gateway replica on the same NATS prefix, Postgres and Redis (closed with the stack). */
  /** Another gateway on the same prefix, database and Redis; `env` adds to (or overrides) the stack's. */
  startGatewayReplica(env?: Record<string, string>): Promise<RunningGateway>;
  close(): Promise<void>;
}

export async function startTestStack(
  options: { sandboxReplicas?: number; env?: Record<string, string>; clock?: () => number } = {},
): Promise<TestStack> {
  const prefix = uniquePrefix();
  const database = await createTestDatabase();
  const db = createPrismaClient(database.url);
  const sandboxes: RunningService[] = [];
  const startSandbox = async () => {
    const service = await startService(SandboxModule, {
      service: 'sandbox',
      natsUrl: NATS_URL,
      subjectPrefix: prefix,
      healthPort: 0,
      silent: true,
    });
    sandboxes.push(service);
    return service;
  };
  for (let i = 0; i < (options.sandboxReplicas ?? 1); i++) await startSandbox();
  const configEnv: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    NATS_URL,
    NATS_SUBJECT_PREFIX: prefix,
    DATABASE_URL: database.url,
    REDIS_URL,
    LAST_USED_FLUSH_MS: '200',
    ...UNLIMITED_RATES,
    ...options.env,
  };
  const config = gatewayConfig(configEnv);
  const gateway = await startGateway(config, { silent: true, clock: options.clock });
  const replicas: RunningGateway[] = [];
  const accounts = new AccountRepository(db);
  const keys = new ApiKeyRepository(db);
  return {
    url: gateway.url,
    prefix,
    databaseUrl: database.url,
    db,
    gateway,
    sandboxes,
    startSandbox,
    async createKey({ email = `${uniquePrefix('u')}@example.com`, plan = 'free', name = 'test' } = {}) {
      const { account } = await accounts.findOrCreateByEmail(email, plan);
      const created = await keys.create({ accountId: account.id, name });
      return { key: created.key, keyId: created.keyId, accountId: account.id, email: account.email };
    },
    async startGatewayReplica(env?: Record<string, string>) {
      const replica = await startGateway(env === undefined ? config : gatewayConfig({ ...configEnv, ...env }), {
        silent: true,
        clock: options.clock,
      });
      replicas.push(replica);
      return replica;
    },
    async close() {
      await Promise.all(replicas.map((r) => r.close()));
      await gateway.close();
      await Promise.all(sandboxes.map((s) => s.close()));
      await db.$disconnect();
      await database.drop();
      await deleteKeysWithPrefix(REDIS_URL, prefix);
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted by the tests, not typed
export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A plain HTTP call, as a client would make it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as HttpResult
export async function http<T = any>(
  base: string,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
