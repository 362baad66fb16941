import { stubProviderEnv } from '@credit/provider-stubs/provider-env';
import type { ProviderStubs } from '@credit/provider-stubs/provider-stubs';
import { reportsConfig } from '@credit/reports/config';
import { ReportsModule } from '@credit/reports/reports.module';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { scoringConfig } from '@credit/scoring/config';
import { ScoringModule } from '@credit/scoring/scoring.module';
import { countingRegistry, type CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { startIndexedDevnet, type IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { startReferenceDevnet } from '@credit/test-world/reference-devnet';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { NATS_URL, startTestStack, type TestStack } from './test-stack';

export { stubProviderEnv };

export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The production services that read wallets, each startable behind a reference stack. */
export type WalletServiceName = 'scoring' | 'reports' | 'identity';
const WALLET_READERS: Record<
  Exclude<WalletServiceName, 'identity'>,
  (env: Record<string, string>) => Parameters<typeof startService>[0]
> = {
  scoring: (env) => ScoringModule.forRoot(scoringConfig(env)),
  reports: (env) => ReportsModule.forRoot(reportsConfig(env)),
};

/**
 * The reference world behind a real gateway: the test stack, the devnet indexed into its database,
 * every chain behind a counting proxy, the services asked for (in-process, reading through the
 * proxies; identity with the providers' stubs always, since every wallet reading asks it) and an
 * enterprise key. `close` stops all of it and removes the stack's Redis keys.
 */
export interface ReferenceStack {
  stack: TestStack;
  world: IndexedDevnet;
  counted: CountingRegistry;
  /** The identity providers' stubs (with the devnet cast's fixtures). */
  stubs: ProviderStubs;
  identity: RunningIdentity;
  services: RunningService[];
  key: string;
  close(): Promise<void>;
}

export async function startReferenceStack(
  names: readonly WalletServiceName[],
  options: { gatewayEnv?: Record<string, string>; clock?: () => number } = {},
): Promise<ReferenceStack> {
  const stack = await startTestStack({ env: options.gatewayEnv, clock: options.clock });
  const world = await startIndexedDevnet({ devnet: startReferenceDevnet, databaseUrl: stack.databaseUrl, redisUrl: REDIS_URL });
  const counted = await countingRegistry(world.registry);
  const identity = await startIdentityService({
    natsUrl: NATS_URL,
    prefix: stack.prefix,
    redisUrl: REDIS_URL,
    databaseUrl: stack.databaseUrl,
    registry: counted.registry,
    cast: world.devnet.state.cast,
  });
  const env = {
    NATS_URL,
    NATS_SUBJECT_PREFIX: stack.prefix,
    DATABASE_URL: stack.databaseUrl,
    REDIS_URL,
    HEALTH_PORT: '0',
    CHAINS: JSON.stringify(counted.registry),
  };
  const services: RunningService[] = [identity.service];
  const shipped = scoringConfig(env);
  for (const name of names) {
    if (name === 'identity') continue;
    services.push(
      await startService(WALLET_READERS[name](env), {
        service: name,
        natsUrl: NATS_URL,
        subjectPrefix: stack.prefix,
        healthPort: 0,
        silent: true,
        // The load limits a deployment ships with (the config's defaults).
        maxInflight: shipped.MAX_INFLIGHT_REQUESTS,
        maxQueued: shipped.MAX_QUEUED_REQUESTS,
      }),
    );
  }
  const { key } = await stack.createKey({ plan: 'enterprise' });
  return {
    stack,
    world,
    counted,
    stubs: identity.stubs,
    identity,
    services,
    key,
    async close() {
      await Promise.all(services.slice(1).map((s) => s.close()));
      await identity.close();
      await counted.close();
      await world.close();
      await deleteKeysWithPrefix(REDIS_URL, stack.prefix).catch(() => undefined);
      await stack.close();
    },
  };
}
