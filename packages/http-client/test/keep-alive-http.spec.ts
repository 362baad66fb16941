import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { BodyTooLargeError, keepAliveHttp, onlyReads, sendHttp } from '../src/keep-alive-http';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A local HTTP server answering with `handler`; counts the TCP connections it accepted. */
async function server(handler: Handler): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const s: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => handler(request, body, response));
  });
  s.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => s.close(() => resolve())).then(() => undefined),
  };
}

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

describe('sendHttp', () => {
  it('sends the method, headers and body, reads the status, headers and text, and keeps the socket for the next request', async () => {
    const seen: { method?: string; type?: string; auth?: string; body: string }[] = [];
    const s = await server((request, body, response) => {
      seen.push({ method: request.method, type: request.headers['content-type'], auth: request.headers.authorization, body });
      response.writeHead(201, { 'x-answer': 'yes' });
      response.end('é'.repeat(3));
    });
    try {
      const first = await sendHttp({
        url: `${s.url}/a`,
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
        maxBodyBytes: 100,
      });
      const second = await sendHttp({
        url: `${s.url.replace('http://', 'http://me:p%40ss@')}/b`,
        method: 'GET',
        headers: {},
        maxBodyBytes: 100,
      });
      expect([first.status, first.headers['x-answer'], first.text]).toEqual([201, 'yes', 'ééé']);
      expect(second.status).toBe(201);
      expect(seen).toEqual([
        { method: 'POST', type: 'text/plain', auth: undefined, body: 'hello' },
        { method: 'GET', type: undefined, auth: `Basic ${Buffer.from('me:p@ss').toString('base64')}`, body: '' },
      ]);
      expect(s.connections()).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('stops reading an answer larger than its limit', async () => {
    const s = await server((_request, _body, response) => response.end('x'.repeat(5_000)));
    try {
      const sending = sendHttp({ url: s.url, method: 'GET', headers: {}, maxBodyBytes: 1_000 });
      await expect(sending).rejects.toBeInstanceOf(BodyTooLargeError);
    } finally {
      await s.close();
    }
  });

  it('rejects with the signal’s reason when it aborts, before or during the request', async () => {
    const s = await server(() => undefined); // never answers
    try {
      const reason = new Error('caller gave up');
      const controller = new AbortController();
      const sending = sendHttp({ url: s.url, method: 'GET', headers: {}, signal: controller.signal, maxBodyBytes: 100 });
      setTimeout(() => controller.abort(reason), 50);
      await expect(sending).rejects.toBe(reason);
      await expect(sendHttp({ url: s.url, method: 'GET', headers: {}, signal: controller.signal, maxBodyBytes: 100 })).rejects.toBe(reason);
    } finally {
      await s.close();
    }
  });

  it('sends a read once more on a fresh socket when the server closed the kept one under it, and fails a write', async () => {
    const served = new Map<unknown, number>();
    const s = await server((request, _body, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      if (n === 2) return request.socket.destroy(); // the kept socket, closed as the request arrives
      response.end(`answer ${n}`);
    });
    try {
      const ask = (repeatable: boolean) => sendHttp({ url: s.url, method: 'POST', headers: {}, body: '{}', maxBodyBytes: 100, repeatable });
      expect((await ask(true)).text).toBe('answer 1');
      expect((await ask(true)).text).toBe('answer 1'); // on a second socket
      expect(s.connections()).toBe(2);
      // a write that may have reached the server is not sent twice: it fails, as through fetch
      await expect(ask(false)).rejects.toThrow(/ECONNRESET|socket hang up/);
      expect(s.connections()).toBe(2);
      expect((await ask(false)).text).toBe('answer 1'); // the next one opens a fresh socket
      // the body's own test, run when the socket fails: a JSON-RPC read is sent again, a transaction is not
      const call = (method: string) =>
        sendHttp({ url: s.url, method: 'POST', headers: {}, body: JSON.stringify({ method }), maxBodyBytes: 100, repeatable: onlyReads });
      expect((await call('eth_call')).text).toBe('answer 1'); // its kept socket closed, sent again on a fourth
      expect(s.connections()).toBe(4);
      await expect(call('eth_sendRawTransaction')).rejects.toThrow(/ECONNRESET|socket hang up/);
      expect(s.connections()).toBe(4);
    } finally {
      await s.close();
    }
  });

  it('counts a JSON-RPC body as a read only when every call of it reads', () => {
    const call = (method: string) => ({ jsonrpc: '2.0', id: 1, method, params: [] });
    expect(onlyReads(JSON.stringify(call('eth_call')))).toBe(true);
    expect(onlyReads(JSON.stringify([call('eth_blockNumber'), call('eth_getLogs'), call('eth_getBlockByNumber')]))).toBe(true);
    expect(onlyReads(JSON.stringify(call('eth_sendRawTransaction')))).toBe(false);
    expect(onlyReads(JSON.stringify([call('eth_call'), call('eth_sendTransaction')]))).toBe(false);
    expect(onlyReads(JSON.stringify(call('evm_mine')))).toBe(false);
    expect(onlyReads(JSON.stringify([]))).toBe(false);
    expect(onlyReads('not json')).toBe(false);
  });

  it('rejects when nothing listens', async () => {
    const s = await server(() => undefined);
    const { url } = s;
    await s.close();
    await expect(sendHttp({ url, method: 'GET', headers: {}, maxBodyBytes: 100 })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("keepAliveHttp, viem's transport through it", () => {
  it('answers JSON-RPC, and gives viem its own errors for an RPC error, an HTTP error and a timeout', async () => {
    let mode: 'ok' | 'rpc-error' | 'http-error' | 'silent' = 'ok';
    const s = await server((_request, body, response) => {
      const { id } = JSON.parse(body) as { id: number };
      if (mode === 'ok') return json(response, 200, { jsonrpc: '2.0', id, result: '0x2a' });
      if (mode === 'rpc-error') return json(response, 500, { jsonrpc: '2.0', id, error: { code: -32000, message: 'nope' } });
      if (mode === 'http-error') {
        response.writeHead(502, { 'content-type': 'text/html' });
        return response.end('<html>bad gateway</html>');
      }
    });
    try {
      const client = createPublicClient({ transport: keepAliveHttp(s.url, { retryCount: 0, timeout: 300 }) });
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n);
      mode = 'rpc-error';
      await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toMatchObject({ cause: expect.any(RpcRequestError) as unknown });
      mode = 'http-error';
      const failed = await client.getBlockNumber({ cacheTime: 0 }).catch((e: unknown) => e);
      expect(JSON.stringify((failed as Error).message)).toMatch(/502|bad gateway/i);
      expect((failed as { walk: (f: (e: unknown) => boolean) => unknown }).walk((e) => e instanceof HttpRequestError)).toBeInstanceOf(
        HttpRequestError,
      );
      mode = 'silent';
      const late = await client.getBlockNumber({ cacheTime: 0 }).catch((e: unknown) => e);
      expect((late as { walk: (f: (e: unknown) => boolean) => unknown }).walk((e) => e instanceof TimeoutError)).toBeInstanceOf(
        TimeoutError,
      );
    } finally {
      await s.close();
    }
  });
});
