import { HTTP_OPERATIONS, operationPath, type OperationId, type Variant } from '@credit/contracts/http-operations';

/**
 * One request per operation that its route answers 200 for, given two valid addresses: the query
 * string (its address lists, flags) and the JSON body. Path parameters are filled the same way for
 * every operation (`{address}` the first address, `{chain_id}` 1). The sandbox routes spec sends
 * each case and checks the reply against its subject's schema; an operation without a case fails
 * to compile, and the operation coverage spec fails at run time.
 */
export interface OperationCase {
  readonly query?: (a: string, b: string) => string;
  readonly body?: unknown;
}

export const OPERATION_CASES: { readonly [K in OperationId]: OperationCase } = {
  scoreAddress: { query: () => 'include_factors=true' },
  scoreAggregate: { query: (a, b) => `address=${a},${b}` },
  scoreBatch: { query: (a, b) => `address=${a},${b}&include_factors=true` },
  scoreEnhanced: { body: { total_asset_usd: 50_000 } },
  scoreHistory: { query: () => 'days=30' },
  reportFull: {},
  reportEnhanced: { body: { name: 'bank', total_asset_usd: 1000, count_transactions: 5 } },
  reportAggregate: { query: (a, b) => `address=${a},${b}` },
  reportSummary: {},
  reportChain: {},
  reportTotalUsd: {},
  reportTotalUsdAggregate: {},
  reportChainTotalUsd: {},
  identityAttestations: {},
};

export interface CaseRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** The request of an operation's case on its route in a variant. */
export function caseRequest(id: OperationId, variant: Variant, a: string, b: string): CaseRequest {
  const { query, body } = OPERATION_CASES[id];
  const path = operationPath(id, variant).replace('{address}', a).replace('{chain_id}', '1');
  return {
    method: HTTP_OPERATIONS[id].method,
    path: query === undefined ? path : `${path}?${query(a, b)}`,
    ...(body === undefined ? {} : { body }),
  };
}
