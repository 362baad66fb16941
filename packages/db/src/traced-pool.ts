import type { Pool } from 'pg';
import { withSpan } from '@credit/telemetry/tracing';

// The statement's first keyword names its span: `postgres SELECT`, `postgres INSERT`.
const KEYWORD = /^\s*([A-Za-z]+)/;

/**
 * Makes each statement Prisma (or a repository) sends through `pool.query` a client span while
 * tracing is on: the statement's keyword, never its text or parameters. Statements inside an
 * interactive transaction run on a checked-out connection and are not spans of their own.
 */
export function traceQueries(pool: Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    if (typeof args[args.length - 1] === 'function') return query(...args);
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const operation = (KEYWORD.exec(text)?.[1] ?? 'query').toUpperCase();
    return withSpan(
      `postgres ${operation}`,
      { 'db.system.name': 'postgresql', 'db.operation.name': operation },
      () => query(...args) as Promise<unknown>,
      'client',
    );
  }) as Pool['query'];
}
