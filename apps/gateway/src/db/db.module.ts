import { Module } from '@nestjs/common';
import { DB, DbCloser, dbProvider } from './db.providers';

/** The gateway's one Prisma client; every feature that reads Postgres imports it, so its pool closes after theirs stop. */
@Module({
  providers: [dbProvider, DbCloser],
  exports: [DB],
})
export class DbModule {}
