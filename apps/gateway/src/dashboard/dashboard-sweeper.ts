import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DashboardSessionRepository } from '@credit/db/dashboard-session-repository';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { PasswordResetRepository } from '@credit/db/password-reset-repository';

const HOUR_MS = 3_600_000;

/**
 * Removes expired sessions, verification links and reset links every hour. They are refused
 * anyway once expired: this only keeps the tables small. Every replica sweeps; a delete is
 * idempotent, so they never conflict.
 */
@Injectable()
export class DashboardSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('dashboard');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessions: DashboardSessionRepository,
    private readonly verifications: EmailVerificationRepository,
    private readonly resets: PasswordResetRepository,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<void> {
    for (const repository of [this.sessions, this.verifications, this.resets]) {
      await repository.deleteExpired(now).catch((error: unknown) => this.logger.warn(`sweep of expired rows: ${(error as Error).message}`));
    }
  }
}
