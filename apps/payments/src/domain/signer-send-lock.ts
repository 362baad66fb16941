import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { x402Key } from './x402-key';

/** Deletes the lock only if this holder still holds it (a lapsed lease taken by another is left alone). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Extends the lease only if this holder still holds it. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
/** The first look again at a lock another replica holds, and the longest wait between looks. */
const FIRST_RETRY_MS = 2;
const LONGEST_RETRY_MS = 25;

export interface SignerSendLockOptions {
  /** The lock's Redis key (the stack's prefix and the signer's address in it). */
  key: string;
  /**
   * A holder that died (killed, its host gone) frees the signer after this long; a live holder
   * renews it every third of it while its send runs. Short, so a restarted replica is not kept from
   * its own signers; a holder whose event loop stalls past it loses the lease while it still sends,
   * and another replica may then take the same nonce, which the chain refuses to one of them (that
   * settlement fails, nothing moved, nothing served).
   */
  leaseMs: number;
  /** Most time a send waits for the signer before it fails (its settlement is retried). */
  waitMs: number;
}

/**
 * How a send that never got its signer fails (another replica, or a killed one whose lease has
 * not lapsed yet, held it): nothing was sent, so its settlement is tried again, not failed.
 */
export const SIGNER_BUSY = 'signer_busy';

/** The lease of a send lock: a killed holder frees its signer after this long (renewed while a send runs). */
export const SEND_LEASE_MS = 3_000;

/**
 * The right to send with one signer's key, held from a transaction's nonce being filled to its
 * broadcast, across every replica (a Redis lease) and, inside a process, in turn (a promise chain,
 * so local settlements never poll Redis for each other). A signer's transactions therefore go out
 * one at a time with consecutive nonces, each filled from the chain's pending count after the last
 * broadcast, while their receipts are awaited side by side: a signer settles many payments a block.
 * Nothing of the nonce is kept here: a send that failed leaves no gap for the next to skip.
 */
export class SignerSendLock {
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Pick<Redis, 'set' | 'eval'>,
    private readonly options: SignerSendLockOptions,
  ) {}

  /** Runs `send` while holding the signer; its error (or the wait's) is the caller's. */
  async hold<T>(send: () => Promise<T>): Promise<T> {
    const previous = this.turn;
    let done!: () => void;
    this.turn = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      const token = await this.acquire();
      const renew = setInterval(() => {
        this.redis.eval(RENEW, 1, this.options.key, token, this.options.leaseMs).catch(() => undefined);
      }, this.options.leaseMs / 3);
      try {
        return await send();
      } finally {
        clearInterval(renew);
        // an unreachable Redis leaves the lease to lapse
        await this.redis.eval(RELEASE, 1, this.options.key, token).catch(() => undefined);
      }
    } finally {
      done();
    }
  }

  private async acquire(): Promise<string> {
    const token = randomUUID();
    const until = Date.now() + this.options.waitMs;
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LONGEST_RETRY_MS)) {
      if ((await this.redis.set(this.options.key, token, 'PX', this.options.leaseMs, 'NX')) === 'OK') return token;
      const left = until - Date.now();
      if (left <= 0)
        throw new Error(`${SIGNER_BUSY}: the signer's send lock (${this.options.key}) stayed held for ${this.options.waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}

/** A signer's send lock on one chain (a nonce sequence is one key's on one chain). */
export type SendLocks = (signer: string, chainId: number) => Pick<SignerSendLock, 'hold'>;

/** One lock per signer and chain, on Redis under the stack's prefix, made once and kept. */
export function redisSendLocks(redis: Pick<Redis, 'set' | 'eval'>, prefix: string, timing: Omit<SignerSendLockOptions, 'key'>): SendLocks {
  const locks = new Map<string, SignerSendLock>();
  return (signer, chainId) => {
    const key = x402Key(prefix, 'send', signer.toLowerCase(), String(chainId));
    let lock = locks.get(key);
    if (lock === undefined) locks.set(key, (lock = new SignerSendLock(redis, { ...timing, key })));
    return lock;
  };
}
