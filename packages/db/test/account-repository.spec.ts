import { AccountRepository } from '../src/account-repository';
import type { Db } from '../src/prisma-client';
import { useMigratedDatabase } from './migrated-database';
import { withClient } from './throwaway-database';

jest.setTimeout(60_000);

describe('AccountRepository', () => {
  let db: Db;
  let accounts: AccountRepository;
  const { url } = useMigratedDatabase(async (client) => {
    db = client;
    accounts = new AccountRepository(db);
  });

  it('creates an account with the plan given, stored lowercased, active and unverified', async () => {
    const { account, created } = await accounts.findOrCreateByEmail('  Alice@Example.COM ', 'pro');

    expect(created).toBe(true);
    expect(account).toEqual({
      id: expect.stringMatching(/^acc_[0-9A-Za-z]{20}$/),
      email: 'alice@example.com',
      plan: 'pro',
      isActive: true,
      isVerified: false,
      monthlyCu: null,
      createdAt: expect.any(Date),
    });
    await withClient(url, async (client) => {
      const { rows } = await client.query('SELECT email, plan::text AS plan FROM accounts WHERE id = $1', [account.id]);
      expect(rows).toEqual([{ email: 'alice@example.com', plan: 'pro' }]);
    });
  });

  it('sets a plan, with a contracted allowance for enterprise only; null for an unknown email', async () => {
    await accounts.findOrCreateByEmail('carol@example.com', 'free');
    expect(await accounts.setPlan('Carol@example.com', 'enterprise', 25_000)).toMatchObject({ plan: 'enterprise', monthlyCu: 25_000 });
    expect(await accounts.setPlan('carol@example.com', 'pro', null)).toMatchObject({ plan: 'pro', monthlyCu: null });
    await expect(accounts.setPlan('carol@example.com', 'pro', 10)).rejects.toThrow(RangeError);
    await expect(accounts.setPlan('carol@example.com', 'enterprise', -1)).rejects.toThrow(RangeError);
    expect(await accounts.setPlan('nobody@example.com', 'pro', null)).toBeNull();
  });

  it('finds an existing account whatever the case of the email, keeping its plan', async () => {
    const first = await accounts.findOrCreateByEmail('bob@example.com', 'enterprise');

    const again = await accounts.findOrCreateByEmail('BOB@example.com', 'free');

    expect(again).toEqual({ account: first.account, created: false });
    expect(again.account.plan).toBe('enterprise');
  });

  it('creates exactly one account when calls race on the same email', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => accounts.findOrCreateByEmail(i % 2 ? 'race@example.com' : 'RACE@example.com', 'free')),
    );

    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.account.id)).size).toBe(1);
    await withClient(url, async (client) => {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM accounts WHERE email = 'race@example.com'`);
      expect(rows[0].n).toBe(1);
    });
  });

  it('finds by email and by id, and returns null for strangers', async () => {
    const { account } = await accounts.findOrCreateByEmail('carol@example.com', 'free');

    await expect(accounts.findByEmail('Carol@Example.com')).resolves.toEqual(account);
    await expect(accounts.findById(account.id)).resolves.toEqual(account);
    await expect(accounts.findByEmail('nobody@example.com')).resolves.toBeNull();
    await expect(accounts.findById('acc_doesnotexist')).resolves.toBeNull();
  });
});
