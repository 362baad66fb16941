import { createServer, type AddressInfo } from 'node:net';
import { AccountRepository } from '../src/account-repository';
import { classifyDbError } from '../src/db-errors';
import { createPrismaClient } from '../src/prisma-client';
import { ADMIN_URL, dropDatabase, freshDatabaseUrl, withClient } from './throwaway-database';

jest.setTimeout(60_000);

/** The error a repository call throws against `databaseUrl`. */
async function failureOf(databaseUrl: string): Promise<unknown> {
  const db = createPrismaClient(databaseUrl);
  try {
    await new AccountRepository(db).findByEmail('someone@example.com');
  } catch (error) {
    return error;
  } finally {
    await db.$disconnect();
  }
  throw new Error('the call succeeded');
}

describe('classifyDbError', () => {
  it('reads a missing database as a missing schema', async () => {
    const url = freshDatabaseUrl();
    expect(classifyDbError(await failureOf(url))).toBe('schema_missing');
    await dropDatabase(url);
  });

  it('reads missing tables as a missing schema', async () => {
    const url = freshDatabaseUrl();
    const name = new URL(url).pathname.slice(1);
    await withClient(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
    expect(classifyDbError(await failureOf(url))).toBe('schema_missing');
    await dropDatabase(url);
  });

  it('reads a closed port as unreachable', async () => {
    const url = new URL(ADMIN_URL);
    url.port = '1';
    expect(classifyDbError(await failureOf(url.toString()))).toBe('unreachable');
  });

  it('reads a server that accepts and never answers as timed out', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(ADMIN_URL);
    url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const db = createPrismaClient(url.toString(), { applicationName: 'db-errors test', connectTimeoutMs: 300, statementTimeoutMs: 500 });
    try {
      const error = await new AccountRepository(db).findByEmail('someone@example.com').then(
        () => new Error('the call succeeded'),
        (e: unknown) => e,
      );
      expect(classifyDbError(error)).toBe('timed_out');
    } finally {
      await db.$disconnect();
      server.close();
    }
  });

  it('reads a statement timeout as timed out', async () => {
    const db = createPrismaClient(ADMIN_URL, { applicationName: 'db-errors test', connectTimeoutMs: 2_000, statementTimeoutMs: 100 });
    try {
      const error = await db.$queryRaw`SELECT pg_sleep(1)`.then(
        () => new Error('the call succeeded'),
        (e: unknown) => e,
      );
      expect(classifyDbError(error)).toBe('timed_out');
    } finally {
      await db.$disconnect();
    }
  });

  it('knows nothing of other errors', () => {
    expect(classifyDbError(new Error('boom'))).toBeNull();
    expect(classifyDbError(undefined)).toBeNull();
  });
});
