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

/** An account-scoped route the gateway serves itself (no NATS subject): its path after `/api/v2` and its price. */
export interface AccountOperation {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  /** CU per request; `per_address` counts the addresses the request names. */
  readonly price: Price;
}

/**
 * The webhook management routes (issue 38; docs/API.md §4.7): served by the gateway's webhooks
 * module against Postgres and the delivery queue, not forwarded over NATS. A watched address costs
 * 1 CU once, when the webhook is created; an event costs 1 CU when it is queued (the test's ping
 * included), however many attempts its delivery takes. Reading and deleting are free.
 */
export const WEBHOOK_OPERATIONS = {
  webhooksCreate: { method: 'POST', path: '/webhooks', summary: 'Register a webhook', price: { kind: 'per_address', cu: 1 } },
  webhooksList: { method: 'GET', path: '/webhooks', summary: "List the account's webhooks", price: FREE },
  webhooksGet: { method: 'GET', path: '/webhooks/{id}', summary: 'Read one webhook', price: FREE },
  webhooksDelete: { method: 'DELETE', path: '/webhooks/{id}', summary: 'Delete a webhook', price: FREE },
  webhooksDeliveries: { method: 'GET', path: '/webhooks/{id}/deliveries', summary: 'Latest delivery attempts', price: FREE },
  webhooksTest: { method: 'POST', path: '/webhooks/{id}/test', summary: 'Send a ping event', price: { kind: 'fixed', cu: 1 } },
} as const satisfies Record<string, AccountOperation>;

export type WebhookOperationId = keyof typeof WEBHOOK_OPERATIONS;
