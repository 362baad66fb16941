import { referenceDevnetOptions } from '@credit/devnet/seed/reference-world';
import { identityConfig } from '@credit/identity/config';
import { IdentityModule } from '@credit/identity/identity.module';
import { devnetFixtures } from '@credit/provider-stubs/devnet-fixtures';
import { stubProviderEnv } from '@credit/provider-stubs/provider-env';
import { startProviderStubs, type ProviderStubs } from '@credit/provider-stubs/provider-stubs';

export { stubProviderEnv };
import { reportsConfig } from '@credit/reports/config';
import { ReportsModule } from '@credit/reports/reports.module';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { scoringConfig } from '@credit/scoring/config';
import { ScoringModule } from '@credit/scoring/scoring.module';
import { countingRegistry, type CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import { startIndexedDevnet, type IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { NATS_URL, startTestStack, type TestStack } from './test-stack';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The production services that read wallets, each startable behind a reference stack. */
export type WalletServiceName = 'scoring' | 'reports' | 'identity';
const WALLET_SERVICES: Record<WalletServiceName, (env: Record<string, string>) => Parameters<typeof startService>[0]> = {
  scoring: (env) => ScoringModule.forRoot(scoringConfig(env)),
  reports: (env) => ReportsModule.forRoot(reportsConfig(env)),
  identity: (env) => IdentityModule.forRoot(identityConfig(env)),
};

/**
 * The reference world behind a real gateway: the test stack, the devnet indexed into its database,
 * every chain behind a counting proxy, the services asked for (in-process, reading through the
 * proxies) and an enterprise key. `close` stops all of it and removes the stack's Redis keys.
 */
export interface ReferenceStack {
  stack: TestStack;
  world: IndexedDevnet;
  counted: CountingRegistry;
  /** The identity providers' stubs (with the devnet cast's fixtures), when identity runs. */
  stubs: ProviderStubs | undefined;
  services: RunningService[];
  key: string;
  close(): Promise<void>;
}

export async function startReferenceStack(names: readonly WalletServiceName[]): Promise<ReferenceStack> {
  const stack = await startTestStack();
  const world = await startIndexedDevnet({ devnet: referenceDevnetOptions(), databaseUrl: stack.databaseUrl, redisUrl: REDIS_URL });
  const counted = await countingRegistry(world.registry);
  const stubs = names.includes('identity') ? await startProviderStubs(devnetFixtures(world.devnet.state.cast)) : undefined;
  const env = {
    ...(stubs ? stubProviderEnv(stubs) : {}),
    NATS_URL,
    NATS_SUBJECT_PREFIX: stack.prefix,
    DATABASE_URL: stack.databaseUrl,
    REDIS_URL,
    HEALTH_PORT: '0',
    CHAINS: JSON.stringify(counted.registry),
  };
  const services: RunningService[] = [];
  for (const name of names) {
    services.push(
      await startService(WALLET_SERVICES[name](env), {
        service: name,
        natsUrl: NATS_URL,
        subjectPrefix: stack.prefix,
        healthPort: 0,
        silent: true,
      }),
    );
  }
  const { key } = await stack.createKey({ plan: 'enterprise' });
  return {
    stack,
    world,
    counted,
    stubs,
    services,
    key,
    async close() {
      await Promise.all(services.map((s) => s.close()));
      await counted.close();
      await stubs?.close();
      await world.close();
      await deleteKeysWithPrefix(REDIS_URL, stack.prefix).catch(() => undefined);
      await stack.close();
    },
  };
}
