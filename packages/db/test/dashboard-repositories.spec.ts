import { AccountRepository } from '../src/account-repository';
import { ApiKeyRepository } from '../src/api-key-repository';
import { DashboardSessionRepository } from '../src/dashboard-session-repository';
import { EmailVerificationRepository } from '../src/email-verification-repository';
import { PasswordResetRepository } from '../src/password-reset-repository';
import type { Db } from '../src/prisma-client';
import { UsageLedgerRepository, type UsageEntryInput } from '../src/usage-ledger-repository';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

/** The dashboard's repositories against a real, migrated Postgres. */
describe('dashboard repositories', () => {
  let db: Db;
  useMigratedDatabase((client) => {
    db = client;
  });
  const later = (ms: number) => new Date(Date.now() + ms);

  describe('EmailVerificationRepository', () => {
    it('holds no password: the one given on following the link creates a verified free account, once', async () => {
      const verifications = new EmailVerificationRepository(db);
      await verifications.create({ id: 'v-new', email: ' New@Example.com ', expiresAt: later(60_000) });
      expect(await db.emailVerification.findUnique({ where: { id: 'v-new' } })).not.toHaveProperty('passwordHash');
      expect(await verifications.isLive('v-new', new Date())).toBe(true);
      const outcome = await verifications.consume('v-new', 'scrypt$h1', new Date());
      expect(outcome).toMatchObject({
        kind: 'created',
        keysBefore: 0,
        account: { email: 'new@example.com', plan: 'free', isVerified: true },
      });
      expect((await new AccountRepository(db).findCredentials('new@example.com'))?.passwordHash).toBe('scrypt$h1');
      expect(await verifications.isLive('v-new', new Date())).toBe(false);
      expect(await verifications.consume('v-new', 'scrypt$h2', new Date())).toEqual({ kind: 'invalid' });
    });

    it('claims an account the CLI made (keeping its plan, counting its keys), and never replaces a password already set', async () => {
      const accounts = new AccountRepository(db);
      const { account } = await accounts.findOrCreateByEmail('cli@example.com', 'pro');
      const keys = new ApiKeyRepository(db);
      await keys.create({ accountId: account.id, name: 'one' });
      const revoked = await keys.create({ accountId: account.id, name: 'two' });
      await keys.revokeOwned(account.id, revoked.keyId);
      await keys.create({ accountId: account.id, name: 'three' });
      const verifications = new EmailVerificationRepository(db);
      await verifications.create({ id: 'v-claim', email: 'cli@example.com', expiresAt: later(60_000) });
      await verifications.create({ id: 'v-second', email: 'cli@example.com', expiresAt: later(60_000) });
      expect(await verifications.consume('v-claim', 'scrypt$first', new Date())).toMatchObject({
        kind: 'claimed',
        keysBefore: 2,
        account: { email: 'cli@example.com', plan: 'pro', isVerified: true },
      });
      expect(await verifications.consume('v-second', 'scrypt$second', new Date())).toEqual({ kind: 'already_claimed' });
      expect((await accounts.findCredentials('cli@example.com'))?.passwordHash).toBe('scrypt$first');
    });

    it('refuses an expired or unknown token', async () => {
      const verifications = new EmailVerificationRepository(db);
      await verifications.create({ id: 'v-old', email: 'old@example.com', expiresAt: later(-1) });
      expect(await verifications.isLive('v-old', new Date())).toBe(false);
      expect(await verifications.isLive('v-none', new Date())).toBe(false);
      expect(await verifications.consume('v-old', 'scrypt$x', new Date())).toEqual({ kind: 'invalid' });
      expect(await verifications.consume('v-none', 'scrypt$x', new Date())).toEqual({ kind: 'invalid' });
      expect(await new AccountRepository(db).findByEmail('old@example.com')).toBeNull();
      expect(await verifications.deleteExpired(new Date())).toBeGreaterThanOrEqual(1);
      expect(await verifications.consume('v-old', 'scrypt$x', new Date())).toEqual({ kind: 'invalid' });
    });
  });

  describe('DashboardSessionRepository', () => {
    it('finds a live session with its account, not an expired or deleted one', async () => {
      const { account } = await new AccountRepository(db).findOrCreateByEmail('session@example.com', 'free');
      const sessions = new DashboardSessionRepository(db);
      await sessions.create({ id: 's-live', accountId: account.id, csrfToken: 'c1', expiresAt: later(60_000) });
      await sessions.create({ id: 's-old', accountId: account.id, csrfToken: 'c2', expiresAt: later(-1_000) });
      expect(await sessions.findLive('s-live', new Date())).toMatchObject({ csrfToken: 'c1', account: { id: account.id } });
      expect(await sessions.findLive('s-old', new Date())).toBeNull();
      expect(await sessions.deleteExpired(new Date())).toBe(1);
      await sessions.delete('s-live');
      expect(await sessions.findLive('s-live', new Date())).toBeNull();
    });
  });

  describe('PasswordResetRepository.consume', () => {
    it("sets the password once, closes the account's other open resets and ends its sessions", async () => {
      const { account } = await new AccountRepository(db).findOrCreateByEmail('reset@example.com', 'free');
      const resets = new PasswordResetRepository(db);
      const sessions = new DashboardSessionRepository(db);
      await sessions.create({ id: 's-reset', accountId: account.id, csrfToken: 'c', expiresAt: later(60_000) });
      await resets.create({ id: 'r1', accountId: account.id, expiresAt: later(60_000) });
      await resets.create({ id: 'r2', accountId: account.id, expiresAt: later(60_000) });
      await resets.create({ id: 'r-old', accountId: account.id, expiresAt: later(-1) });
      expect(await resets.consume('r-old', 'scrypt$old', new Date())).toBeNull();
      expect(await resets.deleteExpired(new Date())).toBe(1);
      await new ApiKeyRepository(db).create({ accountId: account.id, name: 'before the reset' });
      expect(await resets.isLive('r1', new Date())).toBe(true);
      expect(await resets.isLive('r-old', new Date())).toBe(false);
      expect(await resets.consume('r1', 'scrypt$new', new Date())).toEqual({ email: 'reset@example.com', keysBefore: 1 });
      expect((await new AccountRepository(db).findCredentials('reset@example.com'))?.passwordHash).toBe('scrypt$new');
      expect(await sessions.findLive('s-reset', new Date())).toBeNull();
      expect(await resets.consume('r1', 'scrypt$again', new Date())).toBeNull();
      expect(await resets.consume('r2', 'scrypt$again', new Date())).toBeNull();
    });
  });

  describe('ApiKeyRepository.revokeOwned', () => {
    it("revokes the account's own key only", async () => {
      const accounts = new AccountRepository(db);
      const keys = new ApiKeyRepository(db);
      const owner = (await accounts.findOrCreateByEmail('owner@example.com', 'free')).account;
      const other = (await accounts.findOrCreateByEmail('other@example.com', 'free')).account;
      const key = await keys.create({ accountId: owner.id, name: 'k' });
      expect(await keys.revokeOwned(other.id, key.keyId)).toBeNull();
      expect((await keys.findById(key.keyId))?.status).toBe('active');
      expect(await keys.revokeOwned(owner.id, key.keyId)).toMatchObject({ alreadyRevoked: false, record: { status: 'revoked' } });
      expect(await keys.revokeOwned(owner.id, key.keyId)).toMatchObject({ alreadyRevoked: true });
      expect((await keys.listByAccount(owner.id)).map((k) => k.status)).toEqual(['revoked']);
    });
  });

  describe('UsageLedgerRepository.dailyTotals', () => {
    it("sums CU per UTC day and operation, a refund on its charge's day, days netting to 0 left out", async () => {
      const entry = (id: string, kind: 'charge' | 'refund', cu: number, operation: string, at: string): UsageEntryInput => ({
        entryId: kind === 'charge' ? id : `${id}:refund`,
        chargeId: id,
        accountId: 'acc_ledger',
        keyId: null,
        operation,
        kind,
        cu,
        statusCode: kind === 'refund' ? 404 : null,
        requestId: `r-${id}`,
        period: '2031-03',
        occurredAt: new Date(at),
      });
      const ledger = new UsageLedgerRepository(db);
      await ledger.insert([
        entry('c1', 'charge', 1, 'scoreAddress', '2031-03-01T10:00:00Z'),
        entry('c2', 'charge', 7, 'reportAddress', '2031-03-01T23:59:59.900Z'),
        // Refunded after midnight: it counts on the charge's day, where the report nets to 0.
        entry('c2', 'refund', -7, 'reportAddress', '2031-03-02T00:00:00.100Z'),
        entry('c3', 'charge', 14, 'reportAggregate', '2031-03-02T08:00:00Z'),
        entry('c3', 'refund', -7, 'reportAggregate', '2031-03-02T08:00:01Z'),
        entry('c4', 'charge', 1, 'scoreAddress', '2031-03-05T12:00:00Z'),
      ]);
      expect(await ledger.dailyTotals('acc_ledger', '2031-03')).toEqual([
        { date: '2031-03-01', cu: 1, byOperation: { scoreAddress: 1 } },
        { date: '2031-03-02', cu: 7, byOperation: { reportAggregate: 7 } },
        { date: '2031-03-05', cu: 1, byOperation: { scoreAddress: 1 } },
      ]);
      expect(await ledger.dailyTotals('acc_ledger', '2031-04')).toEqual([]);
    });
  });
});
