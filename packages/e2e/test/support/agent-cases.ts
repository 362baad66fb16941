import type { OperationRequest } from '@credit/contracts/agent-tools';
import type { OperationId } from '@credit/contracts/http-operations';

/**
 * One input per operation, on the reference world's cast: the arguments of its MCP tool and of its
 * client method (the production subject's request) and the REST request a client would write by
 * hand for the same input, to compare the agents' paths with REST.
 */
export interface AgentCase<K extends OperationId> {
  args: OperationRequest<K>;
  rest: { method: 'GET' | 'POST'; path: string; body?: unknown };
}

export function agentCases(a: string, b: string, ensHolder: string, chain: number): { [K in OperationId]: AgentCase<K> } {
  const report = `/api/v2/report/address/${a}`;
  return {
    scoreAddress: {
      args: { address: a, include_factors: true },
      rest: { method: 'GET', path: `/api/v2/score/address/${a}?include_factors=true` },
    },
    scoreAggregate: { args: { addresses: [a, b] }, rest: { method: 'GET', path: `/api/v2/score/?address=${a},${b}` } },
    scoreBatch: { args: { addresses: [a, b] }, rest: { method: 'GET', path: `/api/v2/score/batch/?address=${a}&address=${b}` } },
    scoreEnhanced: {
      args: { address: a, total_asset_usd: 50_000 },
      rest: { method: 'POST', path: `/api/v2/score/address/${a}`, body: { total_asset_usd: 50_000 } },
    },
    scoreHistory: {
      args: { address: a, days: 30 },
      rest: { method: 'GET', path: `/api/v2/score/address/${a}/history?days=30` },
    },
    reportFull: { args: { address: a }, rest: { method: 'GET', path: report } },
    reportEnhanced: {
      args: { address: a, source: { name: 'bank', total_asset_usd: 1000, count_transactions: 5 } },
      rest: { method: 'POST', path: report, body: { name: 'bank', total_asset_usd: 1000, count_transactions: 5 } },
    },
    reportAggregate: { args: { addresses: [a, b] }, rest: { method: 'GET', path: `/api/v2/report/?address=${a},${b}` } },
    reportSummary: { args: { address: a }, rest: { method: 'GET', path: `${report}/summary` } },
    reportChain: { args: { address: a, chain_id: chain }, rest: { method: 'GET', path: `${report}/chain/${chain}` } },
    reportTotalUsd: { args: { address: a }, rest: { method: 'GET', path: `${report}/total/usd` } },
    reportTotalUsdAggregate: { args: { address: a }, rest: { method: 'GET', path: `${report}/total/usd/aggregate` } },
    reportChainTotalUsd: { args: { address: a, chain_id: chain }, rest: { method: 'GET', path: `${report}/chain/${chain}/total/usd` } },
    identityAttestations: {
      args: { address: ensHolder },
      rest: { method: 'GET', path: `/api/v2/identity/address/${ensHolder}/attestations` },
    },
  };
}

/** A reply without the fields that record when it was made (equal between two calls only when one cache entry served both). */
export function withoutTimes(body: unknown): unknown {
  const { timestamp: _t, cached: _c, ...rest } = body as Record<string, unknown>;
  return 'report' in rest ? { ...rest, report: withoutTimes(rest.report) } : rest;
}
