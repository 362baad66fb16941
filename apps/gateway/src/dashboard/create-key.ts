import { Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { CreatedKeyReply } from '@credit/contracts/schemas/dashboard';
import { ApiKeyRepository, toListItem } from '@credit/db/api-key-repository';

/** Active keys one account may hold at once (revoked ones do not count). */
const MAX_ACTIVE_KEYS = 50;

/** A new key for the signed-in account: its value is in this one reply, and never again. */
@Injectable()
export class CreateKey {
  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(accountId: string, name: string): Promise<CreatedKeyReply> {
    // Counted and inserted in one transaction under the account's row lock: parallel creations cannot pass the limit.
    const created = await this.keys.createWithinLimit({ accountId, name }, MAX_ACTIVE_KEYS);
    if (created === null) {
      throw new DomainError('key_limit_reached', `An account holds at most ${MAX_ACTIVE_KEYS} active keys: revoke one first`);
    }
    return { ...toListItem(created.record), key: created.key };
  }
}
