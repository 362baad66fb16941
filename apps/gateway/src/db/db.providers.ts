import { Inject, Injectable, type FactoryProvider, type OnApplicationShutdown } from '@nestjs/common';
import { closePrismaClient, createPrismaClient, type Db } from '@credit/db/prisma-client';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';

export const DB = Symbol('Db');

export const dbProvider: FactoryProvider<Db> = {
  provide: DB,
  inject: [GATEWAY_CONFIG],
  // Bounded both ways, so a database that hangs makes key lookups fail fast (503), not wait.
  useFactory: (config: GatewayConfig) =>
    createPrismaClient(config.DATABASE_URL, {
      applicationName: 'credit-gateway',
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    }),
};

/** Closes the pool after everything else (the last-used flush runs on shutdown too). */
@Injectable()
export class DbCloser implements OnApplicationShutdown {
  constructor(@Inject(DB) private readonly db: Db) {}

  async onApplicationShutdown(): Promise<void> {
    await closePrismaClient(this.db);
  }
}
