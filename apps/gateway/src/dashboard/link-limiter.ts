import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DomainError } from '@credit/contracts/errors';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { METER_REDIS } from '../metering/meter.providers';
import { isWellFormedToken, tokenHash } from './dashboard-tokens';

/**
 * Bounds the uses of email links (a sign-up's or a reset's, each with a new password to hash), in
 * Redis so every replica counts alike: per client address and per link, in a fixed window
 * (EMAIL_LINK_WINDOW_SECONDS) from the first count. The counts move in one MULTI (INCR, then
 * EXPIRE NX), atomic under any concurrency. This runs before the link is looked up and before any
 * scrypt: a made-up link costs one Redis round trip and one indexed read, and a flood of them
 * from one address is 429 after EMAIL_LINK_MAX_ATTEMPTS_PER_IP; one real link cannot be made to
 * hash more than EMAIL_LINK_MAX_ATTEMPTS_PER_TOKEN passwords. Redis unreachable: 503.
 */
@Injectable()
export class EmailLinkLimiter {
  private readonly logger = new Logger('dashboard');
  private readonly root: string;

  constructor(
    @Inject(METER_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.root = `${config.NATS_SUBJECT_PREFIX ? `${config.NATS_SUBJECT_PREFIX}:dashboard` : 'dashboard'}:link-uses`;
  }

  /**
   * Counts a use of `token` from `ip`; 429 over either limit. A malformed token is refused first
   * (it costs nothing); `invalid` is the error for it, the one a link that does not work gets.
   */
  async admit(ip: string, token: string, invalid: () => DomainError): Promise<string> {
    if (!isWellFormedToken(token)) throw invalid();
    const hash = tokenHash(token);
    const window = this.config.EMAIL_LINK_WINDOW_SECONDS;
    const ipKey = `${this.root}:ip:${ip}`;
    const tokenKey = `${this.root}:token:${hash}`;
    let results: [Error | null, unknown][];
    try {
      results =
        (await this.redis
          .multi()
          .incr(ipKey)
          .expire(ipKey, window, 'NX')
          .ttl(ipKey)
          .incr(tokenKey)
          .expire(tokenKey, window, 'NX')
          .ttl(tokenKey)
          .exec()) ?? [];
    } catch (error) {
      this.logger.warn(`email link limiter unavailable: ${(error as Error).message}`);
      throw new DomainError('service_unavailable', 'The dashboard is unavailable; try again shortly');
    }
    const value = (i: number) => Number(results[i]?.[1] ?? 0);
    if (value(0) > this.config.EMAIL_LINK_MAX_ATTEMPTS_PER_IP) throw tooMany(value(2), 'from this address');
    if (value(3) > this.config.EMAIL_LINK_MAX_ATTEMPTS_PER_TOKEN) throw tooMany(value(5), 'with this link');
    return hash;
  }
}

function tooMany(ttlSeconds: number, what: string): DomainError {
  const seconds = Math.max(1, ttlSeconds);
  return new DomainError('rate_limited', `Too many attempts ${what}; retry after ${seconds} s`, { retry_after: seconds });
}
