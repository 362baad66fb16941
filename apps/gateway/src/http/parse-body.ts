import type { z } from 'zod';
import { DomainError } from '@credit/contracts/errors';

/**
 * A JSON body checked against its schema: a 400 `invalid_body` naming every bad field, the first
 * problem of each, as `field: message; field: message` (the dashboard puts each under its field).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    if (!problems.has(field)) problems.set(field, issue.message);
  }
  throw new DomainError('invalid_body', [...problems].map(([field, message]) => `${field}: ${message}`).join('; '));
}
