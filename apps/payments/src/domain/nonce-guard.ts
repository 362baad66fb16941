import type { Redis } from 'ioredis';
import { x402Key } from './x402-key';

/** An authorization cannot be used on chain after `validBefore`; its guard is kept a day longer. */
const GRACE_S = 24 * 3600;

/**
 * One payment, one request: `(network, payer, nonce)` is taken with SET NX before the work runs,
 * so the same signed payment sent ten times at once is served once. The payments ledger's unique
 * key is the durable second guard (a Redis that lost its keys).
 */
export class NonceGuard {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  key(network: string, payer: string, nonce: string): string {
    return x402Key(this.prefix, 'nonce', network, payer.toLowerCase(), nonce.toLowerCase());
  }

  /** True when this call took the nonce; false when it was taken before. */
  async take(network: string, payer: string, nonce: string, validBefore: number, nowS: number): Promise<boolean> {
    const ttl = Math.max(GRACE_S, validBefore - nowS + GRACE_S);
    const reply = await this.redis.set(this.key(network, payer, nonce), '1', 'EX', ttl, 'NX');
    return reply === 'OK';
  }
}
