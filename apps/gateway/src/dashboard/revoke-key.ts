import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { DomainError } from '@credit/contracts/errors';
import type { KeyItem } from '@credit/contracts/schemas/dashboard';
import { ApiKeyRepository, toListItem } from '@credit/db/api-key-repository';
import { publishEvent } from '@credit/rpc/event-publisher';
import { AuthenticateKey } from '../auth/authenticate-key';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { NATS_CONNECTION } from '../rpc/nats.providers';

const BROADCAST_TIMEOUT_MS = 2_000;

/**
 * Revokes one of the signed-in account's keys: for good, and on every gateway replica at once (the
 * same broadcast as the CLI's). Another account's key is as absent as one that does not exist.
 */
@Injectable()
export class RevokeKey {
  private readonly logger = new Logger('dashboard');

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly authenticate: AuthenticateKey,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(accountId: string, keyId: string): Promise<KeyItem> {
    const revoked = await this.keys.revokeOwned(accountId, keyId);
    if (revoked === null) throw new DomainError('key_not_found', `No key ${keyId} in this account`);
    if (!revoked.alreadyRevoked) {
      this.authenticate.forget(revoked.keyHash);
      try {
        await publishEvent(
          this.nats,
          'apiKeyRevoked',
          { key_id: revoked.keyId, key_hash: revoked.keyHash },
          { subjectPrefix: this.config.NATS_SUBJECT_PREFIX, timeoutMs: BROADCAST_TIMEOUT_MS },
        );
      } catch (error) {
        // Revoked in Postgres all the same (the owner sees it revoked); other replicas drop it only
        // when their cached entry expires (KEY_CACHE_TTL_MS). An error: NATS is down, or refused the
        // gateway's publish (infra/nats/auth.conf), and an operator must know.
        this.logger.error(
          `key ${keyId} revoked, but other gateway replicas were not told: ${(error as Error).message}; they accept it until their cached entry expires`,
        );
      }
    }
    return toListItem(revoked.record);
  }
}
