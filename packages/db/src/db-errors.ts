/**
 * What went wrong talking to Postgres, in terms an operator can act on. Reads the error codes of
 * Prisma (P…) and of node-postgres (SQLSTATE, errno) without importing either.
 */
export type DbProblem =
  /** The database or its tables do not exist: migrations have not run. */
  | 'schema_missing'
  /** The server cannot be reached or refused the login. */
  | 'unreachable'
  /** The server was reached but did not answer in time (a connection or statement timeout). */
  | 'timed_out';

const SCHEMA_MISSING_CODES = new Set([
  'P2021', // table does not exist
  'P2022', // column does not exist
  'P1003', // database does not exist
  '42P01', // undefined_table
  '42703', // undefined_column
  '42704', // undefined_object (e.g. a missing enum type)
  '3D000', // invalid_catalog_name (database does not exist)
]);

const UNREACHABLE_CODES = new Set([
  'P1000', // authentication failed
  'P1001', // cannot reach database server
  'P1002', // server timed out
  'P1017', // server closed the connection
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  '28P01', // invalid_password
  '28000', // invalid_authorization_specification
  '57P03', // cannot_connect_now
]);

const TIMED_OUT_CODES = new Set([
  '57014', // query_canceled: the statement timeout
]);

/**
 * node-postgres's own failures carry no code, only a message: a connection the server accepted
 * but never answered ("Connection terminated due to connection timeout", "… unexpectedly"), or a
 * pool with no free connection in time.
 */
const TIMED_OUT_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/];

export function classifyDbError(error: unknown): DbProblem | null {
  for (const code of errorCodes(error)) {
    if (SCHEMA_MISSING_CODES.has(code)) return 'schema_missing';
    if (UNREACHABLE_CODES.has(code)) return 'unreachable';
    if (TIMED_OUT_CODES.has(code)) return 'timed_out';
  }
  if (errorMessages(error).some((message) => TIMED_OUT_MESSAGES.some((pattern) => pattern.test(message)))) return 'timed_out';
  return null;
}

const UNIQUE_VIOLATION_CODES = new Set([
  '23505', // unique_violation
  'P2002', // Prisma's unique constraint failed
]);

/** A write refused because a row with the same unique key exists. */
export function isUniqueViolation(error: unknown): boolean {
  return errorCodes(error).some((code) => UNIQUE_VIOLATION_CODES.has(code));
}

/** Messages of the error and its `cause` chain. */
function errorMessages(error: unknown, depth = 0): string[] {
  if (!(error instanceof Error) || depth > 5) return [];
  return [error.message, ...errorMessages(error.cause, depth + 1)];
}

/** Codes found on the error, its `cause` chain, and the driver error or SQLSTATE Prisma wraps. */
function errorCodes(error: unknown, depth = 0): string[] {
  if (error === null || typeof error !== 'object' || depth > 5) return [];
  const record = error as {
    code?: unknown;
    originalCode?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
    errors?: unknown;
  };
  const codes: string[] = [];
  if (typeof record.code === 'string') codes.push(record.code);
  // the driver adapter's error (e.g. of a raw query, P2010) keeps the server's SQLSTATE as `originalCode`
  if (typeof record.originalCode === 'string') codes.push(record.originalCode);
  const nested = [record.cause, record.meta?.driverAdapterError];
  if (Array.isArray(record.errors)) nested.push(...record.errors);
  for (const inner of nested) codes.push(...errorCodes(inner, depth + 1));
  return codes;
}
