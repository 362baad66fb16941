import type { EIP1193RequestFn, Transport } from 'viem';
import { withSpan } from '@credit/telemetry/tracing';

/**
 * A transport whose JSON-RPC calls are each a client span (`eth_call base`, with the method and
 * chain as attributes) while tracing is on; with tracing off, a plain call.
 */
export function tracedTransport(transport: Transport, chain: string): Transport {
  return (params) => {
    const inner = transport(params);
    const request = ((args, options) =>
      withSpan(
        `${args.method} ${chain}`,
        { 'rpc.system': 'jsonrpc', 'rpc.method': args.method, 'credit.chain': chain },
        () => inner.request(args, options),
        'client',
      )) as EIP1193RequestFn;
    return { ...inner, request };
  };
}
