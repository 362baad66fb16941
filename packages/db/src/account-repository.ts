import { newId } from '@credit/contracts/api-key';
import type { PlanName } from '@credit/contracts/pricing';
import type { AccountPlan } from './generated/enums';
import type { Db } from './prisma-client';

/** An account as the rest of the code base sees it (no Prisma type). */
export interface AccountRecord {
  /** `acc_…` */
  id: string;
  /** Lowercased. */
  email: string;
  plan: PlanName;
  isActive: boolean;
  isVerified: boolean;
  /** An enterprise account's contracted CU a month; null is the plan's own allowance. */
  monthlyCu: number | null;
  createdAt: Date;
}

export interface FindOrCreateResult {
  account: AccountRecord;
  /** True when this call created the account (the plan given applied). */
  created: boolean;
}

/** Emails are stored and compared trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class AccountRepository {
  constructor(private readonly db: Db) {}

  /**
   * The account with this email, created with `plan` when there is none. Race-safe: the insert
   * is `ON CONFLICT DO NOTHING`, so of concurrent calls exactly one creates the account and the
   * others read it; an existing account keeps its own plan.
   */
  async findOrCreateByEmail(email: string, plan: PlanName): Promise<FindOrCreateResult> {
    const normalized = normalizeEmail(email);
    const inserted = await this.db.account.createManyAndReturn({
      data: [{ id: newId('acc'), email: normalized, plan }],
      skipDuplicates: true,
    });
    const row = inserted[0];
    if (row !== undefined) return { account: toAccountRecord(row), created: true };

    const existing = await this.db.account.findUnique({ where: { email: normalized } });
    if (existing === null) {
      // Accounts are never deleted, so a conflict means the row is there to read.
      throw new Error(`account ${normalized} conflicted on insert but could not be read back`);
    }
    return { account: toAccountRecord(existing), created: false };
  }

  async findByEmail(email: string): Promise<AccountRecord | null> {
    const row = await this.db.account.findUnique({ where: { email: normalizeEmail(email) } });
    return row === null ? null : toAccountRecord(row);
  }

  /**
   * Disables (every key of the account then answers 401) or enables the account with this email.
   * Null when there is none; `changed` is false when it already was in that state.
   */
  async setActive(email: string, isActive: boolean): Promise<{ account: AccountRecord; changed: boolean } | null> {
    const normalized = normalizeEmail(email);
    const updated = await this.db.account.updateManyAndReturn({ where: { email: normalized, isActive: !isActive }, data: { isActive } });
    if (updated[0] !== undefined) return { account: toAccountRecord(updated[0]), changed: true };
    const account = await this.findByEmail(normalized);
    return account === null ? null : { account, changed: false };
  }

  /**
   * Sets the plan of the account with this email; `monthlyCu` is an enterprise account's
   * contracted allowance (null: the plan's own). Null when there is no such account.
   */
  async setPlan(email: string, plan: PlanName, monthlyCu: number | null): Promise<AccountRecord | null> {
    if (monthlyCu !== null && plan !== 'enterprise') throw new RangeError('a contracted monthly allowance is for enterprise accounts only');
    if (monthlyCu !== null && (!Number.isSafeInteger(monthlyCu) || monthlyCu < 0))
      throw new RangeError('the monthly allowance must be a whole number ≥ 0');
    const updated = await this.db.account.updateManyAndReturn({
      where: { email: normalizeEmail(email) },
      data: { plan, monthlyCuLimit: monthlyCu },
    });
    return updated[0] === undefined ? null : toAccountRecord(updated[0]);
  }

  /**
   * The account with this email and its password hash (null: nobody has signed up for it or
   * claimed it yet); null when there is no such account. For the dashboard's sign-in only.
   */
  async findCredentials(email: string): Promise<{ account: AccountRecord; passwordHash: string | null } | null> {
    const row = await this.db.account.findUnique({ where: { email: normalizeEmail(email) } });
    return row === null ? null : { account: toAccountRecord(row), passwordHash: row.passwordHash };
  }

  /**
   * Rewrites an account's password hash with stronger parameters, only while it is still `current`:
   * a password reset that lands meanwhile is never undone. True when rewritten.
   */
  async upgradePasswordHash(accountId: string, current: string, upgraded: string): Promise<boolean> {
    const { count } = await this.db.account.updateMany({
      where: { id: accountId, passwordHash: current },
      data: { passwordHash: upgraded },
    });
    return count === 1;
  }

  async findById(id: string): Promise<AccountRecord | null> {
    const row = await this.db.account.findUnique({ where: { id } });
    return row === null ? null : toAccountRecord(row);
  }
}

/** The account columns as Prisma reads them. */
export interface AccountRow extends Omit<AccountRecord, 'monthlyCu'> {
  monthlyCuLimit: number | null;
}

/** Copies the account's fields out of a row (which may carry more). */
export function toAccountRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    isActive: row.isActive,
    isVerified: row.isVerified,
    monthlyCu: row.monthlyCuLimit,
    createdAt: row.createdAt,
  };
}

/** The database enum and the contract's plan names must stay the same set. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const plansMatch: Same<AccountPlan, PlanName> = true;
void plansMatch;
