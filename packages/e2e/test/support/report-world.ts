import { getAddress, type Address } from 'viem';
import type { CastRole } from '@credit/devnet/state-file';
import type { CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import type { IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, type HttpResult, type TestStack } from '@credit/test-stack/test-stack';

/**
 * The report routes' world for one spec file: the gateway with the reports, scoring and identity
 * services on the reference world (`startReferenceStack`), its chains behind counting proxies.
 * Started before the file's tests and stopped after them; its fields are set once the file's
 * `beforeAll` has run.
 */
export interface ReportWorld {
  reference: ReferenceStack;
  stack: TestStack;
  world: IndexedDevnet;
  counted: CountingRegistry;
  key: string;
  cast(role: CastRole): Address;
  /** A GET with the stack's key. */
  get(path: string): Promise<HttpResult>;
  /** A POST of `body` as JSON with the stack's key. */
  post(path: string, body: unknown): Promise<HttpResult>;
}

export function reportWorld(): ReportWorld {
  const r = {
    cast: (role: CastRole): Address => getAddress(r.world.devnet.state.cast[role]!.address),
    get: (path: string) => http(r.stack.url, path, { key: r.key }),
    post: (path: string, body: unknown) => http(r.stack.url, path, { key: r.key, method: 'POST', body }),
  } as ReportWorld;

  beforeAll(async () => {
    r.reference = await startReferenceStack(['reports', 'scoring', 'identity']);
    ({ stack: r.stack, world: r.world, counted: r.counted, key: r.key } = r.reference);
  });

  afterAll(async () => {
    await r.reference?.close();
  });

  return r;
}

export const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);
