import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '@credit/contracts/errors';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { METER_REDIS } from '../metering/meter.providers';

/**
 * Bounds password guessing (docs/decisions/0006), in Redis so every gateway replica counts alike:
 * failed sign-ins per email, and sign-in and sign-up attempts per client address, each in a fixed
 * window (SIGNIN_WINDOW_SECONDS) that starts with its first count. Over a limit the attempt is 429
 * before any password is checked. Redis unreachable: 503 (no unlimited guessing while it is away).
 */
@Injectable()
export class SignInLimiter {
  private readonly logger = new Logger('dashboard');
  private readonly root: string;

  constructor(
    @Inject(METER_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.root = config.NATS_SUBJECT_PREFIX ? `${config.NATS_SUBJECT_PREFIX}:dashboard` : 'dashboard';
  }

  /** Counts an attempt from this address; 429 when the address is over its limit or the email over its failures. */
  async admit(ip: string, email?: string): Promise<void> {
    const ipKey = `${this.root}:attempts:${ip}`;
    const failKey = email === undefined ? undefined : this.failuresKey(email);
    const [attempts, ipTtl, failures, failTtl] = await this.run(async () => {
      const pipeline = this.redis.multi().incr(ipKey).expire(ipKey, this.config.SIGNIN_WINDOW_SECONDS, 'NX').ttl(ipKey);
      if (failKey !== undefined) pipeline.get(failKey).ttl(failKey);
      const results = (await pipeline.exec()) ?? [];
      const value = (i: number) => Number(results[i]?.[1] ?? 0);
      return [value(0), value(2), value(3), value(4)];
    });
    if (attempts > this.config.SIGNIN_MAX_ATTEMPTS_PER_IP) throw tooMany(ipTtl, 'from this address');
    if (failures >= this.config.SIGNIN_MAX_FAILURES) throw tooMany(failTtl, 'for this account');
  }

  async recordFailure(email: string): Promise<void> {
    const key = this.failuresKey(email);
    await this.run(() => this.redis.multi().incr(key).expire(key, this.config.SIGNIN_WINDOW_SECONDS, 'NX').exec());
  }

  /** A successful sign-in clears the email's failures. */
  async reset(email: string): Promise<void> {
    await this.run(() => this.redis.del(this.failuresKey(email)));
  }

  private failuresKey(email: string): string {
    return `${this.root}:signin-failures:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.logger.warn(`sign-in limiter unavailable: ${(error as Error).message}`);
      throw new DomainError('service_unavailable', 'Sign-in is unavailable; try again shortly');
    }
  }
}

function tooMany(ttlSeconds: number, what: string): DomainError {
  const seconds = Math.max(1, ttlSeconds);
  return new DomainError('rate_limited', `Too many sign-in attempts ${what}; retry after ${seconds} s`, { retry_after: seconds });
}
