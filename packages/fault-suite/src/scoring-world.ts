import { connect, type NatsConnection } from 'nats';
import { getAddress } from 'viem';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import type { CastRole } from '@credit/devnet/state-file';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { finaliseScoringChains } from '@credit/test-world/indexed-devnet';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startServiceProcess, type AppProcess } from './apps';
import { createKeyedDatabase, type KeyedDatabase } from './keyed-database';
import { waitUntil } from './ports';
import { ask, validRequest } from './subject-fuzz';

const CONFIRMATIONS = 2;

/**
 * The scoring and identity services (and, when asked, the reports service) on a small seeded devnet (8
 * generated wallets and the cast), as a child process, with the real indexer (a child process too) caught up behind it: its own database,
 * subject prefix, queue prefix and Redis keys. Ready once scoring answers for the cast.
 */
export interface ScoringWorld {
  prefix: string;
  natsUrl: string;
  redisUrl: string;
  database: KeyedDatabase;
  devnet: Devnet;
  scoringEnv: Record<string, string>;
  scoring: AppProcess;
  /** The reports service beside scoring (same environment), when asked for. */
  reports: AppProcess | undefined;
  /** The identity service every wallet reading asks (ENS only: no provider configured). */
  identity: AppProcess;
  indexer: AppProcess;
  /** A plain NATS connection on the world's bus, for direct requests. */
  nc: NatsConnection;
  cast(role: CastRole): string;
  close(): Promise<void>;
}

export async function startScoringWorld(options: { natsUrl: string; redisUrl: string; withReports?: boolean }): Promise<ScoringWorld> {
  const prefix = uniquePrefix('faultscore');
  const database = await createKeyedDatabase();
  const devnet = await startDevnet(seededDevnetOptions({ seed: 'fault-suite', populationSize: 8 }));
  let indexer: AppProcess | undefined;
  let scoring: AppProcess | undefined;
  let reports: AppProcess | undefined;
  let identity: AppProcess | undefined;
  let nc: NatsConnection | undefined;
  const close = async () => {
    await nc?.close().catch(() => undefined);
    await scoring?.child.stop('SIGKILL');
    await reports?.child.stop('SIGKILL');
    await identity?.child.stop('SIGKILL');
    await indexer?.child.stop('SIGKILL');
    await devnet.stop().catch(() => undefined);
    await deleteKeysWithPrefix(options.redisUrl, prefix).catch(() => undefined);
    await database.drop().catch(() => undefined);
  };
  try {
    const targets = await finaliseScoringChains(devnet, CONFIRMATIONS);
    const chains = JSON.stringify(registryFromDevnetState(devnet.state, { chainIds: [...targets.keys()] }));
    indexer = await startServiceProcess('indexer', {
      DATABASE_URL: database.url,
      REDIS_URL: options.redisUrl,
      CHAINS: chains,
      CONFIRMATIONS: String(CONFIRMATIONS),
      QUEUE_PREFIX: prefix,
      POLL_INTERVAL_MS: '200',
    });
    const scoringEnv = {
      NATS_URL: options.natsUrl,
      NATS_SUBJECT_PREFIX: prefix,
      DATABASE_URL: database.url,
      REDIS_URL: options.redisUrl,
      CHAINS: chains,
    };
    identity = await startServiceProcess('identity', scoringEnv);
    scoring = await startServiceProcess('scoring', scoringEnv);
    if (options.withReports) reports = await startServiceProcess('reports', scoringEnv);
    nc = await connect({ servers: options.natsUrl, name: 'fault-suite', maxReconnectAttempts: -1, reconnectTimeWait: 200 });
    const cast = (role: CastRole) => getAddress(devnet.state.cast[role]!.address);
    const subject = 'credit.score.address.v1';
    const payload = new TextEncoder().encode(
      JSON.stringify({ pattern: subject, data: validRequest(subject, cast('healthy_borrower')), id: 'ready' }),
    );
    const conn = nc;
    // 503 while the index is behind the chains; a reply once it has caught up.
    await waitUntil(
      'scoring answers for the cast',
      async () => (await ask(conn, `${prefix}.${subject}`, payload, 15_000)).kind === 'reply',
      180_000,
      500,
    );
    return {
      prefix,
      natsUrl: options.natsUrl,
      redisUrl: options.redisUrl,
      database,
      devnet,
      scoringEnv,
      scoring,
      reports,
      identity,
      indexer,
      nc,
      cast,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
