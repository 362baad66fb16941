import { Counter } from 'prom-client';
import { METRICS, recordingMetrics } from './process-registry';

const rpcCalls = new Counter({
  name: 'credit_rpc_calls_total',
  help: 'JSON-RPC calls to chain nodes (one per call, viem retries included), by chain and outcome (ok, error).',
  labelNames: ['chain', 'outcome'] as const,
  registers: [METRICS],
});

const rpcErrors = new Counter({
  name: 'credit_rpc_errors_total',
  help: 'JSON-RPC calls to chain nodes that failed after their retries (no answer, a timeout, an error reply), by chain.',
  labelNames: ['chain'] as const,
  registers: [METRICS],
});

/** Records one JSON-RPC call to `chain` (its registry name: a closed set). */
export function countRpcCall(chain: string, ok: boolean): void {
  if (!recordingMetrics()) return;
  rpcCalls.inc({ chain, outcome: ok ? 'ok' : 'error' });
  if (!ok) rpcErrors.inc({ chain });
}
