import { MAX_RPC_BODY_BYTES, onlyReads, sendHttp } from '@credit/http-client/keep-alive-http';

/** One JSON-RPC exchange with an anvil, on a kept-alive socket (a seeding sends thousands). */
async function post(url: string, payload: unknown): Promise<unknown> {
  const body = JSON.stringify(payload);
  const answer = await sendHttp({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    maxBodyBytes: MAX_RPC_BODY_BYTES,
    repeatable: onlyReads,
  });
  if (answer.status < 200 || answer.status > 299) throw new Error(`${url} answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
  return JSON.parse(answer.text) as unknown;
}

/** One JSON-RPC call to an anvil (for methods viem has no action for, or before a client exists). */
export async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const body = (await post(url, { jsonrpc: '2.0', id: 1, method, params })) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Many JSON-RPC requests to an anvil in one HTTP request; the responses in the requests' order (by id). */
export async function rpcBatch(url: string, requests: readonly { id: number }[]): Promise<{ id: number }[]> {
  const out = (await post(url, requests)) as { id: number }[];
  return out.sort((a, b) => a.id - b.id);
}
