import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '@credit/contracts/errors';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { METER_REDIS } from '../metering/meter.providers';

/**
 * Counts an attempt from an address and, for a sign-in, reserves one of the email's password
 * checks, in one step: the check is taken before any password is hashed, so parallel attempts
 * cannot all pass a count read before the first of them failed.
 * KEYS: the address's attempts, then (sign-in only) the email's checks.
 * ARGV: window seconds, attempts allowed per address, checks allowed per email.
 * Returns {0, 0} when admitted, {1, ttl} when the address is over its limit, {2, ttl} when the
 * email has no check left (nothing is reserved then).
 */
const ADMIT_SCRIPT = `
local attempts = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
if attempts > tonumber(ARGV[2]) then return {1, redis.call('TTL', KEYS[1])} end
if #KEYS == 1 then return {0, 0} end
local checks = tonumber(redis.call('GET', KEYS[2]) or '0')
if checks >= tonumber(ARGV[3]) then return {2, redis.call('TTL', KEYS[2])} end
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1], 'NX')
return {0, 0}
`;

/** Gives a reserved check back (one that did not fail); nothing once the window has ended, so no key outlives it. */
const RELEASE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

interface LimiterCommands {
  signinAdmit(numberOfKeys: number, ...args: (string | number)[]): Promise<[number, number]>;
  signinRelease(key: string): Promise<number>;
}

/**
 * Bounds password guessing (docs/decisions/0006), in Redis so every gateway replica counts alike:
 * per email, at most SIGNIN_MAX_FAILURES password checks that failed or are under way in a fixed
 * window (SIGNIN_WINDOW_SECONDS, from its first check), whatever the concurrency; per client
 * address (`request.ip`, which TRUST_PROXY makes the client's own behind a proxy), sign-in,
 * sign-up and reset requests. Over a limit the attempt is 429 before any password is hashed.
 * Redis unreachable: 503 (no unlimited guessing while it is away).
 */
@Injectable()
export class SignInLimiter {
  private readonly logger = new Logger('dashboard');
  private readonly root: string;
  private readonly commands: LimiterCommands;

  constructor(
    @Inject(METER_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.root = config.NATS_SUBJECT_PREFIX ? `${config.NATS_SUBJECT_PREFIX}:dashboard` : 'dashboard';
    if (!('signinAdmit' in redis)) {
      redis.defineCommand('signinAdmit', { lua: ADMIT_SCRIPT });
      redis.defineCommand('signinRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    }
    this.commands = redis as unknown as LimiterCommands;
  }

  /**
   * Counts an attempt from this address; with an email, also takes one of its password checks.
   * 429 when the address is over its limit or the email has no check left in the window. A taken
   * check counts as failed until `release` gives it back.
   */
  async admit(ip: string, email?: string): Promise<void> {
    const keys = [`${this.root}:attempts:${ip}`, ...(email === undefined ? [] : [this.checksKey(email)])];
    const { SIGNIN_WINDOW_SECONDS, SIGNIN_MAX_ATTEMPTS_PER_IP, SIGNIN_MAX_FAILURES } = this.config;
    const [refused, ttl] = await this.run(() =>
      this.commands.signinAdmit(keys.length, ...keys, SIGNIN_WINDOW_SECONDS, SIGNIN_MAX_ATTEMPTS_PER_IP, SIGNIN_MAX_FAILURES),
    );
    if (refused === 1) throw tooMany(ttl, 'from this address');
    if (refused === 2) throw tooMany(ttl, 'for this account');
  }

  /** Gives back a check `admit` took that did not fail (the password was right, or none was checked). */
  async release(email: string): Promise<void> {
    await this.run(() => this.commands.signinRelease(this.checksKey(email)));
  }

  /** Clears the email's failed checks (its owner proved the mailbox by resetting the password). */
  async reset(email: string): Promise<void> {
    await this.run(() => this.redis.del(this.checksKey(email)));
  }

  private checksKey(email: string): string {
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
