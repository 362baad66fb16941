import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import type { Db } from '@credit/db/prisma-client';
import { DB } from '../db/db.providers';
import { DbModule } from '../db/db.module';
import { NatsModule } from '../rpc/nats.module';
import { ApiKeyGuard } from './api-key.guard';
import { AuthenticateKey } from './authenticate-key';
import { KeyEventsListener } from './key-events.listener';
import { KEY_STORE } from './key-store';
import { LastUsedRecorder } from './last-used-recorder';

/**
 * API keys: the lookup with its cache, the "last used" times, the revocation and account events
 * that empty the cache on every replica, and the guard that asks a key of every Nest route not
 * marked @Public().
 */
@Module({
  imports: [DbModule, NatsModule],
  providers: [
    { provide: KEY_STORE, inject: [DB], useFactory: (db: Db) => new ApiKeyRepository(db) },
    LastUsedRecorder,
    AuthenticateKey,
    KeyEventsListener,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
  exports: [AuthenticateKey],
})
export class AuthModule {}
