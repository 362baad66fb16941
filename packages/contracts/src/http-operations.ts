import type { z } from 'zod';
import { PRICES, type Price } from './pricing';
import { EnhancedScoreRequest } from './schemas/score';
import { OffChainSource } from './schemas/report';
import type { SubjectName } from './subjects';

/**
 * The HTTP surface of docs/API.md §4: one entry per operation, served twice by the gateway: under
 * `/api/v2/` against the production service and under `/api/v2/sandbox/` against the sandbox
 * (free, deterministic mock data). The OpenAPI document is generated from this table and the
 * subjects' schemas; the gateway's routes are built from it too, so the three cannot drift.
 */
export type HttpMethod = 'GET' | 'POST';
export type Variant = 'production' | 'sandbox';
export type Tag = 'Scores' | 'Reports' | 'Identity';

export interface QueryParam {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly type: 'string' | 'boolean';
}

export interface HttpOperation {
  readonly method: HttpMethod;
  /** Path after `/api/v2` (or `/api/v2/sandbox`), OpenAPI style: `/score/address/{address}`. */
  readonly path: string;
  readonly subjects: { readonly [V in Variant]: SubjectName };
  readonly price: Price;
  readonly tag: Tag;
  readonly summary: string;
  readonly query: readonly QueryParam[];
  /** JSON body schema of a POST, for the OpenAPI document. */
  readonly body?: z.ZodType;
}

const ADDRESS_LIST: QueryParam = {
  name: 'address',
  description: 'Comma-separated addresses or name-service names',
  required: true,
  type: 'string',
};
const INCLUDE_FACTORS: QueryParam = {
  name: 'include_factors',
  description: 'Add the model factors (Borrowing History, Wallet Composition, …) to each score',
  required: false,
  type: 'boolean',
};

/** Keeps each entry's literal subjects, so an operation's request type follows from its subject. */
function op<const O extends Omit<HttpOperation, 'query'> & { query?: readonly QueryParam[] }>(o: O): O & { query: readonly QueryParam[] } {
  return { query: [], ...o };
}

export const HTTP_OPERATIONS = {
  scoreAddress: op({
    method: 'GET',
    path: '/score/address/{address}',
    subjects: { production: 'credit.score.address.v1', sandbox: 'credit.sandbox.score.address.v1' },
    price: PRICES.scoreAddress,
    tag: 'Scores',
    summary: 'Credit score of one address or name',
    query: [INCLUDE_FACTORS],
  }),
  scoreAggregate: op({
    method: 'GET',
    path: '/score/',
    subjects: { production: 'credit.score.aggregate.v1', sandbox: 'credit.sandbox.score.aggregate.v1' },
    price: PRICES.scoreAggregate,
    tag: 'Scores',
    summary: 'Mean score of several addresses (invalid ones skipped)',
    query: [ADDRESS_LIST],
  }),
  scoreBatch: op({
    method: 'GET',
    path: '/score/batch/',
    subjects: { production: 'credit.score.batch.v1', sandbox: 'credit.sandbox.score.batch.v1' },
    price: PRICES.scoreBatch,
    tag: 'Scores',
    summary: 'One score per address, at most 100',
    query: [ADDRESS_LIST, INCLUDE_FACTORS],
  }),
  scoreEnhanced: op({
    method: 'POST',
    path: '/score/address/{address}',
    subjects: { production: 'credit.score.enhanced.v1', sandbox: 'credit.sandbox.score.enhanced.v1' },
    price: PRICES.scoreEnhanced,
    tag: 'Scores',
    summary: 'Score boosted by off-chain assets',
    query: [INCLUDE_FACTORS],
    body: EnhancedScoreRequest.pick({ total_asset_usd: true }),
  }),
  reportFull: op({
    method: 'GET',
    path: '/report/address/{address}',
    subjects: { production: 'credit.report.full.v1', sandbox: 'credit.sandbox.report.full.v1' },
    price: PRICES.reportFull,
    tag: 'Reports',
    summary: 'Full cross-chain credit report (the sandbox answers the flat form of docs/API.md §2.8)',
  }),
  reportEnhanced: op({
    method: 'POST',
    path: '/report/address/{address}',
    subjects: { production: 'credit.report.enhanced.v1', sandbox: 'credit.sandbox.report.enhanced.v1' },
    price: PRICES.reportEnhanced,
    tag: 'Reports',
    summary: 'Report merged with off-chain figures (never cached)',
    body: OffChainSource,
  }),
  reportAggregate: op({
    method: 'GET',
    path: '/report/',
    subjects: { production: 'credit.report.aggregate.v1', sandbox: 'credit.sandbox.report.aggregate.v1' },
    price: PRICES.reportAggregate,
    tag: 'Reports',
    summary: 'Report summed over several addresses (invalid ones skipped)',
    query: [ADDRESS_LIST],
  }),
  reportSummary: op({
    method: 'GET',
    path: '/report/address/{address}/summary',
    subjects: { production: 'credit.report.summary.v1', sandbox: 'credit.sandbox.report.summary.v1' },
    price: PRICES.reportSummary,
    tag: 'Reports',
    summary: 'Lightweight summary report, no per-chain details',
  }),
  reportChain: op({
    method: 'GET',
    path: '/report/address/{address}/chain/{chain_id}',
    subjects: { production: 'credit.report.chain.v1', sandbox: 'credit.sandbox.report.chain.v1' },
    price: PRICES.reportChain,
    tag: 'Reports',
    summary: 'Report for one chain',
  }),
  reportTotalUsd: op({
    method: 'GET',
    path: '/report/address/{address}/total/usd',
    subjects: { production: 'credit.report.total-usd.v1', sandbox: 'credit.sandbox.report.total-usd.v1' },
    price: PRICES.reportTotalUsd,
    tag: 'Reports',
    summary: 'Portfolio value with its composition by chain',
  }),
  reportTotalUsdAggregate: op({
    method: 'GET',
    path: '/report/address/{address}/total/usd/aggregate',
    subjects: {
      production: 'credit.report.total-usd-aggregate.v1',
      sandbox: 'credit.sandbox.report.total-usd-aggregate.v1',
    },
    price: PRICES.reportTotalUsdAggregate,
    tag: 'Reports',
    summary: 'Total portfolio value across chains',
  }),
  reportChainTotalUsd: op({
    method: 'GET',
    path: '/report/address/{address}/chain/{chain_id}/total/usd',
    subjects: {
      production: 'credit.report.chain-total-usd.v1',
      sandbox: 'credit.sandbox.report.chain-total-usd.v1',
    },
    price: PRICES.reportChainTotalUsd,
    tag: 'Reports',
    summary: 'Portfolio value on one chain',
  }),
  identityAttestations: op({
    method: 'GET',
    path: '/identity/address/{address}/attestations',
    subjects: {
      production: 'credit.identity.attestations.v1',
      sandbox: 'credit.sandbox.identity.attestations.v1',
    },
    price: PRICES.identityAttestations,
    tag: 'Identity',
    summary: 'Identity attestations: name service, passport, attendance tokens, social',
  }),
} as const satisfies Record<string, HttpOperation>;

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
  return variant === 'sandbox' ? PRICES.free : HTTP_OPERATIONS[id].price;
}
