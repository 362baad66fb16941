import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

/** The database handle the repositories take. Only this package looks inside it. */
export type Db = PrismaClient;

export interface PrismaClientOptions {
  /** Most connections the pool opens (pg's default, 10, when unset). */
  maxConnections?: number;
  /** Shown in `pg_stat_activity.application_name`. */
  applicationName?: string;
}

/**
 * A Prisma client over node-postgres (driver adapter: no native query engine). It connects
 * lazily; call `$disconnect()` when done so the pool closes and the process can exit.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
    ...(options.applicationName !== undefined ? { application_name: options.applicationName } : {}),
  });
  return new PrismaClient({ adapter });
}
