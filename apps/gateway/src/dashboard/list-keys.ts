import { Injectable } from '@nestjs/common';
import type { KeyItem } from '@credit/contracts/schemas/dashboard';
import { ApiKeyRepository } from '@credit/db/api-key-repository';

/** The keys page: an account's keys, active and revoked, never a key's value. */
@Injectable()
export class ListKeys {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(accountId: string): Promise<KeyItem[]> {
    return this.keys.listByAccount(accountId);
  }
}
