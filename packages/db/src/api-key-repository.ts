import { apiKeyStart, generateApiKey, hashApiKey, newId } from '@credit/contracts/api-key';
import { PLAN_NAMES, type PlanName } from '@credit/contracts/pricing';
import { normalizeEmail, toAccountRecord, type AccountRecord } from './account-repository';
import type { ApiKeyStatus as DbApiKeyStatus } from './generated/enums';
import type { Db } from './prisma-client';

/** docs/API.md §3: active → revoked, and never back. */
export type ApiKeyStatus = 'active' | 'revoked';

/** A stored key (the key itself is never stored, only its hash and first characters). */
export interface ApiKeyRecord {
  /** `key_…` */
  id: string;
  accountId: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  start: string;
  status: ApiKeyStatus;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface CreatedApiKey {
  keyId: string;
  /** The full key: shown once, to whoever created it, and never again. */
  key: string;
  record: ApiKeyRecord;
}

/** What the gateway needs to authenticate a request: the key's state and its account. */
export interface AuthenticatedKey {
  keyId: string;
  status: ApiKeyStatus;
  account: AccountRecord;
}

/** A key as listed to its owner (snake_case: printed as is). Never the key or its hash. */
export interface ApiKeyListItem {
  key_id: string;
  name: string;
  start: string;
  status: ApiKeyStatus;
  /** ISO 8601 */
  created_at: string;
  /** ISO 8601, null when the key was never used. */
  last_used_at: string | null;
  /** ISO 8601, null while the key is active. */
  revoked_at: string | null;
}

export interface RevokedApiKey {
  keyId: string;
  /** What the gateways cache the key under: the revocation event carries it. */
  keyHash: string;
  /** True when the key was revoked before this call (nothing changed). */
  alreadyRevoked: boolean;
}

/** One use of a key, as the gateway batches them. */
export interface KeyUse {
  keyId: string;
  at: Date;
}

export const API_KEY_NAME_MAX_LENGTH = 100;

/** The name trimmed, or why it cannot name a key. */
export function checkApiKeyName(name: string): { ok: true; name: string } | { ok: false; reason: string } {
  const trimmed = name.trim();
  if (trimmed === '') return { ok: false, reason: 'the key name must not be empty' };
  if (trimmed.length > API_KEY_NAME_MAX_LENGTH) {
    return { ok: false, reason: `the key name must be at most ${API_KEY_NAME_MAX_LENGTH} characters` };
  }
  return { ok: true, name: trimmed };
}

/** A key was asked for an account that does not exist. */
export class AccountNotFoundError extends Error {
  override readonly name = 'AccountNotFoundError';
  constructor(readonly accountId: string) {
    super(`no account with id ${accountId}`);
  }
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  /** A new active key for the account. Only its SHA-256 and first characters are stored. */
  async create(input: { accountId: string; name: string }): Promise<CreatedApiKey> {
    const checked = checkApiKeyName(input.name);
    if (!checked.ok) throw new RangeError(checked.reason);
    const key = generateApiKey();
    try {
      const row = await this.db.apiKey.create({
        data: {
          id: newId('key'),
          accountId: input.accountId,
          name: checked.name,
          keyHash: hashApiKey(key),
          start: apiKeyStart(key),
        },
      });
      return { keyId: row.id, key, record: toApiKeyRecord(row) };
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AccountNotFoundError(input.accountId);
      throw error;
    }
  }

  /**
   * A new active key for the account unless it already holds `maxActive` active ones (null then),
   * exact under any concurrency: one transaction locks the account's row (`FOR UPDATE`), so the
   * creations of one account run one after the other, and the insert counts the active keys in a
   * statement of its own, after the lock, which sees every key committed before it.
   */
  async createWithinLimit(input: { accountId: string; name: string }, maxActive: number): Promise<CreatedApiKey | null> {
    const checked = checkApiKeyName(input.name);
    if (!checked.ok) throw new RangeError(checked.reason);
    const key = generateApiKey();
    const [account, inserted] = await this.db.$transaction([
      this.db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "accounts" WHERE "id" = ${input.accountId} FOR UPDATE`,
      this.db.$queryRaw<InsertedKeyRow[]>`
        INSERT INTO "api_keys" ("id", "account_id", "name", "key_hash", "start")
        SELECT ${newId('key')}, a."id", ${checked.name}, ${hashApiKey(key)}, ${apiKeyStart(key)}
        FROM "accounts" AS a
        WHERE a."id" = ${input.accountId}
          AND (SELECT count(*) FROM "api_keys" WHERE "account_id" = a."id" AND "status" = 'active') < ${maxActive}
        RETURNING "id", "account_id" AS "accountId", "name", "start", "status"::text AS "status",
                  "created_at" AS "createdAt", "last_used_at" AS "lastUsedAt", "revoked_at" AS "revokedAt"`,
    ]);
    if (account.length === 0) throw new AccountNotFoundError(input.accountId);
    const row = inserted[0];
    return row === undefined ? null : { keyId: row.id, key, record: toApiKeyRecord({ ...row, status: toStatus(row.status) }) };
  }

  /** The key stored under this SHA-256 (hex), with its account, in one query; null if none. */
  async findByHash(keyHash: string): Promise<AuthenticatedKey | null> {
    // Raw SQL: Prisma's relation loading would take a second query (joins are a preview feature).
    const rows = await this.db.$queryRaw<AuthenticatedKeyRow[]>`
      SELECT k."id" AS key_id, k."status"::text AS status,
             a."id" AS account_id, a."email", a."plan"::text AS plan,
             a."is_active", a."is_verified", a."monthly_cu_limit", a."created_at"
      FROM "api_keys" AS k
      JOIN "accounts" AS a ON a."id" = k."account_id"
      WHERE k."key_hash" = ${keyHash}`;
    const row = rows[0];
    if (row === undefined) return null;
    return {
      keyId: row.key_id,
      status: toStatus(row.status),
      account: toAccountRecord({
        id: row.account_id,
        email: row.email,
        plan: toPlan(row.plan),
        isActive: row.is_active,
        isVerified: row.is_verified,
        monthlyCuLimit: row.monthly_cu_limit,
        createdAt: row.created_at,
      }),
    };
  }

  /** The keys of the account with this email, oldest first; empty when there is no such account. */
  async listByEmail(email: string): Promise<ApiKeyListItem[]> {
    const rows = await this.db.apiKey.findMany({
      where: { account: { email: normalizeEmail(email) } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map((row) => toListItem(toApiKeyRecord(row)));
  }

  /** The account's keys, oldest first. */
  async listByAccount(accountId: string): Promise<ApiKeyListItem[]> {
    const rows = await this.db.apiKey.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map((row) => toListItem(toApiKeyRecord(row)));
  }

  async findById(keyId: string): Promise<ApiKeyRecord | null> {
    const row = await this.db.apiKey.findUnique({ where: { id: keyId } });
    return row === null ? null : toApiKeyRecord(row);
  }

  /**
   * Revokes the key, for good: only an active key changes (status and revoked_at), and nothing
   * in this package ever sets a key active again. Null when there is no such key.
   */
  async revoke(keyId: string): Promise<RevokedApiKey | null> {
    const key = await this.db.apiKey.findUnique({ where: { id: keyId }, select: { id: true, keyHash: true } });
    if (key === null) return null;
    const { count } = await this.db.apiKey.updateMany({
      where: { id: keyId, status: 'active' },
      data: { status: 'revoked', revokedAt: new Date() },
    });
    return { keyId: key.id, keyHash: key.keyHash, alreadyRevoked: count === 0 };
  }

  /**
   * Revokes the key only when it belongs to the account (the dashboard: another account's key is
   * as absent as one that does not exist). Null when the account has no such key.
   */
  async revokeOwned(accountId: string, keyId: string): Promise<(RevokedApiKey & { record: ApiKeyRecord }) | null> {
    const key = await this.db.apiKey.findFirst({ where: { id: keyId, accountId }, select: { id: true } });
    if (key === null) return null;
    const revoked = await this.revoke(key.id);
    const record = await this.findById(key.id);
    if (revoked === null || record === null) return null;
    return { ...revoked, record };
  }

  /**
   * Records when keys were last used, a whole batch in one statement. A key's last_used_at only
   * moves forward (GREATEST of the stored and the new time), so batches from several gateways
   * may arrive in any order. Rows are locked in id order, so concurrent batches cannot deadlock,
   * and a row already as recent is not rewritten. Unknown key ids are ignored.
   */
  async touchLastUsed(entries: readonly KeyUse[]): Promise<void> {
    if (entries.length === 0) return;
    const ids = entries.map((entry) => entry.keyId);
    const times = entries.map((entry) => entry.at.toISOString());
    await this.db.$executeRaw`
      WITH uses AS (
        SELECT u.id, max(u.at) AS at
        FROM unnest(${ids}::text[], ${times}::timestamptz[]) AS u(id, at)
        GROUP BY u.id
      ),
      locked AS (
        SELECT k.id
        FROM "api_keys" AS k
        JOIN uses ON uses.id = k.id
        WHERE k."last_used_at" IS NULL OR k."last_used_at" < uses.at
        ORDER BY k.id
        FOR UPDATE OF k
      )
      UPDATE "api_keys" AS k
      SET "last_used_at" = GREATEST(k."last_used_at", uses.at)
      FROM uses
      WHERE k.id = uses.id AND k.id IN (SELECT id FROM locked)`;
  }
}

interface InsertedKeyRow {
  id: string;
  accountId: string;
  name: string;
  start: string;
  status: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface AuthenticatedKeyRow {
  key_id: string;
  status: string;
  account_id: string;
  email: string;
  plan: string;
  is_active: boolean;
  is_verified: boolean;
  monthly_cu_limit: number | null;
  created_at: Date;
}

function toApiKeyRecord(row: {
  id: string;
  accountId: string;
  name: string;
  start: string;
  status: DbApiKeyStatus;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    start: row.start,
    status: toStatus(row.status),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** A key as listed to its owner: never the key or its hash. */
export function toListItem(record: ApiKeyRecord): ApiKeyListItem {
  return {
    key_id: record.id,
    name: record.name,
    start: record.start,
    status: record.status,
    created_at: record.createdAt.toISOString(),
    last_used_at: record.lastUsedAt?.toISOString() ?? null,
    revoked_at: record.revokedAt?.toISOString() ?? null,
  };
}

/** Only the two known statuses pass; anything else is an error, never read as active. */
function toStatus(status: string): ApiKeyStatus {
  if (status === 'active' || status === 'revoked') return status;
  throw new Error(`unknown API key status in the database: ${status}`);
}

function toPlan(plan: string): PlanName {
  if ((PLAN_NAMES as string[]).includes(plan)) return plan as PlanName;
  throw new Error(`unknown plan in the database: ${plan}`);
}

/** Prisma's P2003: the account_id references no account. */
function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2003';
}
