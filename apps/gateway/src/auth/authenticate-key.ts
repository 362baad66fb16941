import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey, isWellFormedApiKey } from '@credit/contracts/api-key';
import { DomainError } from '@credit/contracts/errors';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import type { AuthContext } from './auth-context';
import { KeyCache } from './key-cache';
import { KEY_STORE, type KeyStore, type StoredKey } from './key-store';
import { LastUsedRecorder } from './last-used-recorder';
import { countCacheLookups } from '@credit/observability/cache-metrics';

/** RFC 7235 §2.1 / RFC 6750 §2.1: the scheme is case-insensitive, then one or more spaces. */
const BEARER = /^bearer +/i;

/**
 * Turns an Authorization header into the caller's identity, or a 401 with docs/API.md §7's `detail`.
 * The hot path is a SHA-256 and a map lookup; Postgres is read once per key per TTL.
 */
@Injectable()
export class AuthenticateKey {
  private readonly cache: KeyCache<StoredKey>;

  constructor(
    @Inject(KEY_STORE) private readonly store: KeyStore,
    private readonly lastUsed: LastUsedRecorder,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.cache = new KeyCache({
      ttlMs: config.KEY_CACHE_TTL_MS,
      negativeTtlMs: config.KEY_NEGATIVE_TTL_MS,
      maxEntries: config.KEY_CACHE_MAX,
      maxUnknown: config.KEY_NEGATIVE_CACHE_MAX,
      maxInflight: config.KEY_LOOKUP_MAX_INFLIGHT,
    });
  }

  /**
   * The caller's identity. Synchronous when the key is cached (every request but the first per
   * key and TTL); a promise only when Postgres has to be read.
   */
  execute(header: string | undefined): AuthContext | Promise<AuthContext> {
    const hash = hashApiKey(keyOf(header));
    const cached = this.cache.peek(hash);
    countCacheLookups('api_key', cached === undefined ? 0 : 1, cached === undefined ? 1 : 0);
    if (cached !== undefined) return this.accept(cached);
    return this.cache
      .get(hash, (h) => this.store.findByHash(h))
      .then(
        (stored) => this.accept(stored),
        (error: unknown) => {
          if (error instanceof DomainError) throw error;
          throw new DomainError('service_unavailable', 'Key verification is unavailable; try again shortly');
        },
      );
  }

  private accept(stored: StoredKey | null): AuthContext {
    if (stored === null) throw unauthenticated('Invalid API key');
    if (stored.status === 'revoked') throw unauthenticated('Invalid API key: this key has been revoked');
    if (!stored.account.isActive) throw unauthenticated('Invalid API key: the account is disabled');
    this.lastUsed.record(stored.keyId);
    return { keyId: stored.keyId, account: stored.account };
  }

  /** A revocation broadcast: the next request with this key reads Postgres again. */
  forget(keyHash: string): void {
    this.cache.delete(keyHash);
  }

  /** An account disabled or enabled: the next request with any of its keys reads Postgres again. */
  forgetAccount(accountId: string): void {
    this.cache.deleteWhere((stored) => stored.account.id === accountId);
  }
}

/** The key of a well-formed `Authorization: Bearer <key>` header, or a 401 saying what is wrong. */
function keyOf(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw unauthenticated('Missing API key: send the header Authorization: Bearer <API_KEY>');
  }
  const scheme = BEARER.exec(header);
  if (scheme === null) {
    throw unauthenticated('Invalid API key: the Authorization header must be "Bearer <API_KEY>"');
  }
  const key = header.slice(scheme[0].length);
  if (!isWellFormedApiKey(key)) throw unauthenticated('Invalid API key: malformed key');
  return key;
}

function unauthenticated(message: string): DomainError {
  return new DomainError('unauthenticated', message);
}
