import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { createPrismaClient } from '@credit/db/prisma-client';
import type { PlanName } from '@credit/contracts/pricing';
import { createTestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';

/** A throwaway migrated database and a way to make API keys in it (as `pnpm cli keys:create` does). */
export interface KeyedDatabase {
  url: string;
  createKey(plan?: PlanName): Promise<string>;
  drop(): Promise<void>;
}

export async function createKeyedDatabase(): Promise<KeyedDatabase> {
  const database = await createTestDatabase();
  const db = createPrismaClient(database.url);
  return {
    url: database.url,
    async createKey(plan = 'enterprise') {
      const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('fault')}@example.com`, plan);
      return (await new ApiKeyRepository(db).create({ accountId: account.id, name: 'fault suite' })).key;
    },
    async drop() {
      await db.$disconnect().catch(() => undefined);
      await database.drop();
    },
  };
}
