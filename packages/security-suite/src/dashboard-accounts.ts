import { AccountRepository } from '@credit/db/account-repository';
import type { Db } from '@credit/db/prisma-client';
import { uniquePrefix } from '@credit/testing/unique-prefix';

/**
 * A new verified account that can sign in to the dashboard with the password of this stored hash,
 * made straight in Postgres: the attacks on sign-in and keys need an account, not the sign-up flow.
 */
export async function accountWithPasswordHash(db: Db, passwordHash: string, label = 'dash'): Promise<{ email: string; accountId: string }> {
  const email = `${uniquePrefix(label)}@example.com`.toLowerCase();
  const { account } = await new AccountRepository(db).findOrCreateByEmail(email, 'free');
  await db.account.update({ where: { id: account.id }, data: { passwordHash, isVerified: true } });
  return { email, accountId: account.id };
}
