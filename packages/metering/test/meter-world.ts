import { Redis } from 'ioredis';
import { AccountRepository } from '@credit/db/account-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import type { LedgerEntry } from '../src/ledger-entry';
import { parseLedgerLines } from '../src/ledger-line';
import { LedgerPipeline } from '../src/ledger-pipeline';
import { Meter, type AdmitRequest, type RatePolicy } from '../src/meter';
import { MeterKeys } from '../src/meter-keys';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WIDE: RatePolicy = { name: 'api', capacity: 1_000_000, windowMs: 60_000 };

/** What a metering spec works on: set before each test (a fresh key prefix; the clock at 2026-11-23 12:00 UTC). */
export interface MeterWorld {
  redis: Redis;
  keys: MeterKeys;
  ledger: UsageLedgerRepository;
  /** The meters' clock (ms); a test moves it. */
  now: number;
  account(plan?: 'free' | 'pro' | 'enterprise'): Promise<string>;
  meter(): Meter;
  request(accountId: string, overrides?: Partial<AdmitRequest>): AdmitRequest;
  pipeline(
    consumer?: string,
    warn?: (message: string) => void,
    store?: Pick<UsageLedgerRepository, 'insert' | 'insertLines'>,
    connection?: Redis,
  ): LedgerPipeline;
  drain(p: LedgerPipeline): Promise<void>;
  /** Starts `p`, lets it move everything the outbox holds into Postgres, then closes it. */
  writeLedger(p?: LedgerPipeline): Promise<void>;
  /** Every entry the outbox holds, in order, each line checked (none may be malformed). */
  outboxEntries(): Promise<LedgerEntry[]>;
}

/**
 * The metering scripts and the ledger pipeline against a real Redis and a real Postgres (a test
 * database of this spec file's own): registers the file's hooks and returns its world.
 */
export function meterWorld(): MeterWorld {
  let database: TestDatabase;
  let db: Db;
  let prefix: string;

  const world: MeterWorld = {
    redis: undefined as unknown as Redis,
    keys: undefined as unknown as MeterKeys,
    ledger: undefined as unknown as UsageLedgerRepository,
    now: 0,

    async account(plan = 'free') {
      const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('a')}@example.com`, plan);
      return account.id;
    },

    meter() {
      return new Meter(world.redis, world.keys, world.ledger, () => world.now);
    },

    request(accountId, overrides = {}) {
      return { accountId, keyId: null, operation: 'scoreAddress', cost: 1, allowance: 1_000, policy: WIDE, requestId: 'r', ...overrides };
    },

    pipeline(consumer = 'c1', warn = () => undefined, store = world.ledger, connection = world.redis) {
      return new LedgerPipeline({
        redis: connection,
        connection: { ...redisOptionsFromUrl(REDIS_URL), maxRetriesPerRequest: null },
        keys: world.keys,
        store,
        consumer,
        flushMs: 50,
        batchMax: 100,
        claimIdleMs: 200,
        lockMs: 5_000,
        warn,
      });
    },

    async drain(p) {
      for (let i = 0; i < 200; i++) {
        await p.pump();
        if (await p.drained()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the ledger did not drain');
    },

    async writeLedger(p = world.pipeline()) {
      await p.start();
      try {
        await world.drain(p);
      } finally {
        await p.close();
      }
    },

    async outboxEntries() {
      const outbox = await world.redis.xrange(world.keys.outbox, '-', '+');
      const { entries, malformed } = parseLedgerLines(outbox.map(([, fields]) => fields[1]!).join(''));
      expect(malformed).toEqual([]);
      return entries;
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrismaClient(database.url);
    world.redis = new Redis(redisOptionsFromUrl(REDIS_URL));
    world.ledger = new UsageLedgerRepository(db);
  });

  beforeEach(() => {
    prefix = uniquePrefix('meter');
    world.keys = new MeterKeys(prefix);
    world.now = Date.UTC(2026, 10, 23, 12, 0, 0);
  });

  afterEach(async () => {
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  });

  afterAll(async () => {
    world.redis?.disconnect();
    await db?.$disconnect();
    await database?.drop();
  });

  return world;
}
