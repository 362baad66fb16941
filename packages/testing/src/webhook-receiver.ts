import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: its headers and raw body (verified as received). */
export interface ReceivedPost {
  headers: Record<string, string>;
  body: string;
}

/** What to answer the n-th POST (from 1): a status, or hold it open unanswered (a timeout). */
export type Answer = number | 'hang';

/** A customer's webhook endpoint on 127.0.0.1: it records every POST and answers 204, or as told. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedPost[];
  /** Sets how every later POST is answered, from the POST itself and its number. */
  answer(policy: (post: ReceivedPost, n: number) => Answer): void;
  /** Resolves once `count` POSTs have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedPost[] = [];
  const held: ServerResponse[] = [];
  let policy: (post: ReceivedPost, n: number) => Answer = () => 204;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const post = { headers: req.headers as Record<string, string>, body };
      received.push(post);
      const answer = policy(post, received.length);
      if (answer === 'hang') held.push(res);
      else res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer: (next) => (policy = next),
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of held) res.destroy();
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
    await new Promise((r) => setTimeout(r, 50));
  }
}
