import { FREE, type Price } from './pricing';
import type { HttpOperation, Variant } from './operation-def';
import { IDENTITY_OPERATIONS } from './operations/identity';
import { REPORT_OPERATIONS } from './operations/report';
import { SCORE_OPERATIONS } from './operations/score';

export type { HttpMethod, HttpOperation, QueryParam, Tag, Variant } from './operation-def';

/**
 * The HTTP surface of docs/API.md §4: every operation, each defined once in `operations/<area>.ts`
 * (route, inputs, price, summary, subject). The gateway builds its routes from this table, the
 * OpenAPI document and the subject table are generated from it, so none of them can drift.
 */
export const HTTP_OPERATIONS = {
  ...SCORE_OPERATIONS,
  ...REPORT_OPERATIONS,
  ...IDENTITY_OPERATIONS,
} satisfies Record<string, HttpOperation>;

export type OperationId = keyof typeof HTTP_OPERATIONS;
export const OPERATION_IDS = Object.keys(HTTP_OPERATIONS) as OperationId[];

export const API_PREFIX = '/api/v2';
export const SANDBOX_PREFIX = '/api/v2/sandbox';

/** The full OpenAPI-style path of an operation in a variant. */
export function operationPath(id: OperationId, variant: Variant): string {
  return `${variant === 'sandbox' ? SANDBOX_PREFIX : API_PREFIX}${HTTP_OPERATIONS[id].path}`;
}

/** What a variant charges: the sandbox is free (docs/API.md §4.5). */
export function operationPrice(id: OperationId, variant: Variant): Price {
  return variant === 'sandbox' ? FREE : HTTP_OPERATIONS[id].price;
}
