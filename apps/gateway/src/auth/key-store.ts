import type { AuthContext } from './auth-context';

/**
 * What the gateway needs from key storage. `packages/db`'s ApiKeyRepository fills it; the
 * gateway never sees a persistence type.
 */
export interface StoredKey extends AuthContext {
  status: 'active' | 'revoked';
}

export interface KeyStore {
  findByHash(hash: string): Promise<StoredKey | null>;
  touchLastUsed(entries: { keyId: string; at: Date }[]): Promise<void>;
}

export const KEY_STORE = Symbol('KeyStore');
