/** One JSON-RPC call to an anvil (for methods viem has no action for, or before a client exists). */
export async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Many JSON-RPC requests to an anvil in one HTTP request; the responses in the requests' order (by id). */
export async function rpcBatch(url: string, requests: readonly { id: number }[]): Promise<{ id: number }[]> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requests) });
  const out = (await response.json()) as { id: number }[];
  return out.sort((a, b) => a.id - b.id);
}
