import { ERROR_TABLE, type ErrorShape } from '@credit/contracts/errors';
import { SUBJECTS, type SubjectName } from '@credit/contracts/subjects';

/**
 * What the contract lets an answer be: 200, or a status of the closed error table in the
 * docs/API.md §7 body shape its code calls for. 500 is in the table (an unknown failure gets an error id), but
 * a fault or fuzz input must never reach it, so it is not accepted here.
 */
export const DOCUMENTED_STATUSES: ReadonlySet<number> = new Set([
  200,
  ...Object.values(ERROR_TABLE)
    .map((e) => e.status)
    .filter((s) => s !== 500),
]);

const SHAPES_BY_STATUS = new Map<number, Set<ErrorShape>>();
for (const { status, shape } of Object.values(ERROR_TABLE)) {
  SHAPES_BY_STATUS.set(status, (SHAPES_BY_STATUS.get(status) ?? new Set()).add(shape));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keys = (v: Record<string, unknown>) => Object.keys(v).sort().join(',');

function matchesShape(shape: ErrorShape, body: unknown, status: number): boolean {
  if (!isObject(body)) return false;
  switch (shape) {
    case 'detail':
      return keys(body) === 'detail' && typeof body.detail === 'string';
    case 'error':
      return keys(body) === 'error' && typeof body.error === 'string';
    case 'error_status':
      return keys(body) === 'error,status_code' && typeof body.error === 'string' && body.status_code === status;
    case 'detail_object':
      return (
        keys(body) === 'detail' && isObject(body.detail) && typeof body.detail.error === 'string' && typeof body.detail.message === 'string'
      );
    case 'challenge':
      return body.error === 'authentication_required' && typeof body.message === 'string';
  }
}

/** Why an error answer breaks the contract, or undefined when it keeps it. */
export function errorEnvelopeProblem(status: number, contentType: string | undefined, text: string): string | undefined {
  if (!DOCUMENTED_STATUSES.has(status)) return `status ${status} is not a documented one`;
  const shapes = SHAPES_BY_STATUS.get(status)!;
  if (!/^application\/json/.test(contentType ?? '')) return `content-type ${contentType ?? '(none)'} for a ${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON: ${text.slice(0, 120)}`;
  }
  if ([...shapes].some((shape) => matchesShape(shape, body, status))) return undefined;
  return `a ${status} body outside its shapes (${[...shapes].join(' | ')}): ${text.slice(0, 200)}`;
}

/** Why a 200 of an operation breaks its subject's reply contract, or undefined. */
export function replyProblem(subject: SubjectName, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a 200 whose body is not JSON: ${text.slice(0, 120)}`;
  }
  const result = SUBJECTS[subject].reply.safeParse(body);
  return result.success ? undefined : `a 200 outside the ${subject} reply schema: ${result.error.issues[0]?.message ?? ''}`;
}
