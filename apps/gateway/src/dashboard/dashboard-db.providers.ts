import type { FactoryProvider } from '@nestjs/common';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { DashboardSessionRepository } from '@credit/db/dashboard-session-repository';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { PasswordResetRepository } from '@credit/db/password-reset-repository';
import type { Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { UsageStatusRepository } from '@credit/db/usage-status-repository';
import { DB } from '../db/db.providers';

/** The repositories the dashboard's use cases read and write, over the gateway's one Prisma client. */
export const dashboardRepositoryProviders: FactoryProvider[] = [
  AccountRepository,
  ApiKeyRepository,
  DashboardSessionRepository,
  EmailVerificationRepository,
  PasswordResetRepository,
  UsageLedgerRepository,
  UsageStatusRepository,
].map((Repository) => ({ provide: Repository, inject: [DB], useFactory: (db: Db) => new Repository(db) }));
