import type { ChainRegistry } from '@credit/chain/chain-config';
import { identityConfig } from '@credit/identity/config';
import { IdentityModule } from '@credit/identity/identity.module';
import { devnetFixtures } from '@credit/provider-stubs/devnet-fixtures';
import type { StubFixtures } from '@credit/provider-stubs/fixtures';
import { stubProviderEnv } from '@credit/provider-stubs/provider-env';
import { startProviderStubs, type ProviderStubs } from '@credit/provider-stubs/provider-stubs';
import { natsAuthOf } from '@credit/rpc/nats-connection';
import { startService, type RunningService } from '@credit/rpc/start-service';

export interface IdentityServiceOptions {
  natsUrl: string;
  /** The stack's NATS subject prefix (and the identity cache's key prefix). */
  prefix: string;
  redisUrl: string;
  /** The indexer's database: the name index (who owns which names). */
  databaseUrl: string;
  /** The chains it reads names on (the chain with `ens`). */
  registry: ChainRegistry;
  /** The devnet's cast (`state.cast`): the stubs answer the fixtures of these wallets. */
  cast: Readonly<Record<string, { address: string } | undefined>>;
  /** More environment for the service (timeouts, TTLs). */
  env?: Record<string, string>;
  /** What the stubs say about more wallets (lowercase addresses), beside the cast's fixtures. */
  fixtures?: StubFixtures;
}

/** The identity service in this process, asking the providers' local stubs, as `pnpm start` runs it on the devnet. */
export interface RunningIdentity {
  stubs: ProviderStubs;
  service: RunningService;
  close(): Promise<void>;
}

/**
 * Starts the providers' stubs (with the cast's fixtures) and the identity service configured to
 * ask them, answering under `prefix`: every wallet reading (scores, reports) asks it for the
 * attestations, so a harness that runs scoring or reports runs this beside them.
 */
export async function startIdentityService(options: IdentityServiceOptions): Promise<RunningIdentity> {
  const stubs = await startProviderStubs({ ...devnetFixtures(options.cast), ...options.fixtures });
  try {
    const config = identityConfig({
      ...stubProviderEnv(stubs),
      NATS_URL: options.natsUrl,
      NATS_SUBJECT_PREFIX: options.prefix,
      REDIS_URL: options.redisUrl,
      DATABASE_URL: options.databaseUrl,
      HEALTH_PORT: '0',
      CHAINS: JSON.stringify(options.registry),
      // the stubs answer from this process and anvil from a process beside it, either of which a busy
      // test machine can stall for seconds (under CI's load the ENS holder was once answered without
      // its names: the ENS source failed, a 2 s chain read the likeliest cause); a test of a timeout
      // sets its own
      IDENTITY_SOURCE_TIMEOUT_MS: '10000',
      CHAIN_RPC_TIMEOUT_MS: '10000',
      ...options.env,
    });
    const service = await startService(IdentityModule.forRoot(config), {
      service: 'identity',
      natsUrl: options.natsUrl,
      // NATS_USER / NATS_PASSWORD in `env`: the service's own user (infra/nats/auth.conf)
      natsAuth: natsAuthOf(config),
      subjectPrefix: options.prefix,
      healthPort: 0,
      silent: true,
    });
    let closing: Promise<void> | undefined;
    return {
      stubs,
      service,
      /** Stops the service and the stubs; again, a no-op (a test may stop identity before the harness does). */
      close() {
        closing ??= service.close().then(() => stubs.close());
        return closing;
      },
    };
  } catch (error) {
    await stubs.close();
    throw error;
  }
}
