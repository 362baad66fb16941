import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: its headers and raw body (verified as received). */
export interface ReceivedPost {
  headers: Record<string, string>;
  body: string;
}

/** A customer's endpoint on 127.0.0.1: records every POST and answers 204, or what `answer` says. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedPost[];
  /** Sets the status of every later POST from the POST itself (204 until set). */
  answer(status: (post: ReceivedPost) => number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedPost[] = [];
  let status = (_post: ReceivedPost): number => 204;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const post = { headers: req.headers as Record<string, string>, body };
      received.push(post);
      res.writeHead(status(post)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer(next) {
      status = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it returns a value other than undefined. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
