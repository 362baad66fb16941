import { apiKeyStart, hashApiKey, isWellFormedApiKey } from '@credit/contracts/api-key';
import { AccountRepository, type AccountRecord } from '../src/account-repository';
import { AccountNotFoundError, ApiKeyRepository } from '../src/api-key-repository';
import type { Db } from '../src/prisma-client';
import { useMigratedDatabase } from './migrated-database';
import { withClient } from './throwaway-database';

jest.setTimeout(60_000);

describe('ApiKeyRepository', () => {
  let db: Db;
  let accounts: AccountRepository;
  let keys: ApiKeyRepository;
  let account: AccountRecord;
  const { url } = useMigratedDatabase(async (client) => {
    db = client;
    accounts = new AccountRepository(db);
    keys = new ApiKeyRepository(db);
    account = (await accounts.findOrCreateByEmail('owner@example.com', 'pro')).account;
  });

  async function storedRow(keyId: string): Promise<Record<string, unknown>> {
    return withClient(url, async (client) => {
      const { rows } = await client.query('SELECT *, status::text AS status FROM api_keys WHERE id = $1', [keyId]);
      return rows[0];
    });
  }

  describe('create', () => {
    it('returns the key once and stores only its hash and first characters', async () => {
      const created = await keys.create({ accountId: account.id, name: '  production  ' });

      expect(isWellFormedApiKey(created.key)).toBe(true);
      expect(created.keyId).toMatch(/^key_[0-9A-Za-z]{20}$/);
      expect(created.record).toEqual({
        id: created.keyId,
        accountId: account.id,
        name: 'production',
        start: apiKeyStart(created.key),
        status: 'active',
        createdAt: expect.any(Date),
        lastUsedAt: null,
        revokedAt: null,
      });

      const row = await storedRow(created.keyId);
      expect(row.key_hash).toBe(hashApiKey(created.key));
      expect(row.start).toBe(apiKeyStart(created.key));
      expect(Object.values(row)).not.toContain(created.key);
      expect(JSON.stringify(row)).not.toContain(created.key);
    });

    it('gives every key its own value', async () => {
      const [a, b] = await Promise.all([
        keys.create({ accountId: account.id, name: 'a' }),
        keys.create({ accountId: account.id, name: 'b' }),
      ]);
      expect(a.key).not.toBe(b.key);
      expect(a.keyId).not.toBe(b.keyId);
    });

    it('refuses an account that does not exist', async () => {
      await expect(keys.create({ accountId: 'acc_missing', name: 'x' })).rejects.toBeInstanceOf(AccountNotFoundError);
    });

    it('refuses an empty or overlong name', async () => {
      await expect(keys.create({ accountId: account.id, name: '   ' })).rejects.toThrow(/must not be empty/);
      await expect(keys.create({ accountId: account.id, name: 'x'.repeat(101) })).rejects.toThrow(/at most 100/);
    });
  });

  describe('findByHash', () => {
    it('finds the key with its account by the hash of the key', async () => {
      const created = await keys.create({ accountId: account.id, name: 'lookup' });

      await expect(keys.findByHash(hashApiKey(created.key))).resolves.toEqual({
        keyId: created.keyId,
        status: 'active',
        account,
      });
    });

    it('finds nothing by the key itself or an unknown hash', async () => {
      const created = await keys.create({ accountId: account.id, name: 'not-by-key' });

      await expect(keys.findByHash(created.key)).resolves.toBeNull();
      await expect(keys.findByHash(hashApiKey('csk_unknown'))).resolves.toBeNull();
    });
  });

  describe('listByEmail', () => {
    it('lists the keys of the account, oldest first, without key or hash', async () => {
      const other = (await accounts.findOrCreateByEmail('lister@example.com', 'free')).account;
      const first = await keys.create({ accountId: other.id, name: 'first' });
      const second = await keys.create({ accountId: other.id, name: 'second' });
      await keys.revoke(second.keyId);

      const list = await keys.listByEmail('Lister@Example.com');

      expect(list).toEqual([
        {
          key_id: first.keyId,
          name: 'first',
          start: apiKeyStart(first.key),
          status: 'active',
          created_at: first.record.createdAt.toISOString(),
          last_used_at: null,
          revoked_at: null,
        },
        {
          key_id: second.keyId,
          name: 'second',
          start: apiKeyStart(second.key),
          status: 'revoked',
          created_at: second.record.createdAt.toISOString(),
          last_used_at: null,
          revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
      const printed = JSON.stringify(list);
      for (const created of [first, second]) {
        expect(printed).not.toContain(created.key);
        expect(printed).not.toContain(hashApiKey(created.key));
      }
    });

    it('is empty for an unknown email', async () => {
      await expect(keys.listByEmail('stranger@example.com')).resolves.toEqual([]);
    });
  });

  describe('revoke', () => {
    it('revokes for good: a second revoke changes nothing and the key stays revoked', async () => {
      const created = await keys.create({ accountId: account.id, name: 'to-revoke' });

      const first = await keys.revoke(created.keyId);
      expect(first).toEqual({ keyId: created.keyId, keyHash: hashApiKey(created.key), alreadyRevoked: false });
      const revokedAt = (await storedRow(created.keyId)).revoked_at;
      expect(revokedAt).toEqual(expect.any(Date));

      const second = await keys.revoke(created.keyId);
      expect(second).toEqual({ keyId: created.keyId, keyHash: hashApiKey(created.key), alreadyRevoked: true });

      await keys.touchLastUsed([{ keyId: created.keyId, at: new Date() }]);
      const row = await storedRow(created.keyId);
      expect(row.status).toBe('revoked');
      expect(row.revoked_at).toEqual(revokedAt);
      await expect(keys.findByHash(hashApiKey(created.key))).resolves.toMatchObject({ status: 'revoked' });
      await expect(keys.findById(created.keyId)).resolves.toMatchObject({ status: 'revoked', revokedAt });
    });

    it('revokes once when calls race', async () => {
      const created = await keys.create({ accountId: account.id, name: 'race-revoke' });

      const results = await Promise.all(Array.from({ length: 5 }, () => keys.revoke(created.keyId)));

      expect(results.filter((result) => result?.alreadyRevoked === false)).toHaveLength(1);
    });

    it('returns null for an unknown key', async () => {
      await expect(keys.revoke('key_doesnotexist')).resolves.toBeNull();
    });
  });

  describe('touchLastUsed', () => {
    it('updates a whole batch, keeping the latest time per key', async () => {
      const a = await keys.create({ accountId: account.id, name: 'touch-a' });
      const b = await keys.create({ accountId: account.id, name: 'touch-b' });
      const t1 = new Date('2031-01-01T00:00:01.000Z');
      const t2 = new Date('2031-01-01T00:00:02.000Z');
      const t3 = new Date('2031-01-01T00:00:03.000Z');

      await keys.touchLastUsed([
        { keyId: a.keyId, at: t2 },
        { keyId: a.keyId, at: t3 },
        { keyId: a.keyId, at: t1 },
        { keyId: b.keyId, at: t1 },
        { keyId: 'key_unknown', at: t3 },
      ]);

      expect((await keys.findById(a.keyId))?.lastUsedAt).toEqual(t3);
      expect((await keys.findById(b.keyId))?.lastUsedAt).toEqual(t1);
    });

    it('never moves last_used_at back (GREATEST of stored and new)', async () => {
      const a = await keys.create({ accountId: account.id, name: 'touch-monotonic' });
      const later = new Date('2032-06-01T12:00:00.000Z');
      const earlier = new Date('2032-06-01T11:00:00.000Z');

      await keys.touchLastUsed([{ keyId: a.keyId, at: later }]);
      await keys.touchLastUsed([{ keyId: a.keyId, at: earlier }]);

      expect((await keys.findById(a.keyId))?.lastUsedAt).toEqual(later);
    });

    it('does nothing for an empty batch', async () => {
      await expect(keys.touchLastUsed([])).resolves.toBeUndefined();
    });

    it('handles concurrent overlapping batches', async () => {
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) => keys.create({ accountId: account.id, name: `touch-many-${i}` })),
      );
      const base = Date.parse('2033-01-01T00:00:00.000Z');
      const batches = Array.from({ length: 8 }, (_, batch) =>
        (batch % 2 ? [...created].reverse() : created).map((key, i) => ({
          keyId: key.keyId,
          at: new Date(base + (batch * 10 + i) * 1000),
        })),
      );

      await Promise.all(batches.map((batch) => keys.touchLastUsed(batch)));

      for (const key of created) {
        const expected = Math.max(
          ...batches
            .flat()
            .filter((use) => use.keyId === key.keyId)
            .map((use) => use.at.getTime()),
        );
        expect((await keys.findById(key.keyId))?.lastUsedAt?.getTime()).toBe(expected);
      }
    });
  });
});
