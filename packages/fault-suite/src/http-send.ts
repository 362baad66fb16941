import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface RawHttpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Why a request did not end with an answer. */
export class NoAnswer extends Error {
  constructor(
    readonly reason: 'timeout' | 'connection' | 'refused-by-client',
    message: string,
    /** The connection was a kept-alive one the server closed as it was reused: safe to send again. */
    readonly staleKeepAlive = false,
  ) {
    super(message);
  }
}

/** One request over a keep-alive agent; the path is sent as given (Node only refuses spaces and controls). */
export function sendHttp(url: URL, agent: Agent, req: RawHttpRequest, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line prefer-const -- assigned once the request exists, read by its handlers before
    let timer: NodeJS.Timeout | undefined;
    let call: ReturnType<typeof request>;
    try {
      call = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers: req.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(new NoAnswer('connection', e.message));
        });
      });
    } catch (error) {
      reject(new NoAnswer('refused-by-client', (error as Error).message));
      return;
    }
    timer = setTimeout(() => {
      call.destroy();
      reject(new NoAnswer('timeout', `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    call.on('error', (e) => {
      clearTimeout(timer);
      reject(new NoAnswer('connection', e.message, call.reusedSocket && /socket hang up|ECONNRESET|EPIPE/.test(e.message)));
    });
    call.end(req.body);
  });
}

/** One request written byte for byte on a fresh connection (`Connection: close`), answer parsed by hand. */
export function sendRaw(url: URL, req: RawHttpRequest, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new NoAnswer('timeout', `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer is fine; no answer is reported at close
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) resolve(answer);
      else reject(new NoAnswer('connection', 'the connection closed without an answer'));
    });
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
    for (const [name, value] of Object.entries(req.headers)) lines.push(`${name}: ${value}`);
    if (body) lines.push(`Content-Length: ${body.length}`);
    socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body ?? Buffer.alloc(0)]));
  });
}

function parseAnswer(data: Buffer): HttpAnswer | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
