import { migrate } from '../src/migrate';
import { createPrismaClient, type Db } from '../src/prisma-client';
import { dropDatabase, freshDatabaseUrl } from './throwaway-database';

/**
 * A throwaway database with every migration applied, for the enclosing `describe`: created and
 * handed to `ready` before its tests, disconnected and dropped after them.
 */
export function useMigratedDatabase(ready: (db: Db) => void | Promise<void>): { url: string } {
  const url = freshDatabaseUrl();
  let db: Db | undefined;
  beforeAll(async () => {
    await migrate(url);
    db = createPrismaClient(url);
    await ready(db);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dropDatabase(url);
  });
  return { url };
}
