import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type CheckedTarget } from '@credit/webhook-delivery/url-guard';

/** What one POST came to: the endpoint's status, or why there was none. */
export type PostOutcome = { kind: 'answered'; statusCode: number } | { kind: 'failed'; error: string };

/** Bytes of the answer read at most (only its status matters; the rest is drained and dropped). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs a signed body to a checked target, connecting to the addresses the guard checked, with one
 * time limit on the whole exchange (connection, headers and answer). Redirects are not followed:
 * a 3xx is a failed attempt, as Standard Webhooks asks.
 */
export function postEvent(target: CheckedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostOutcome> {
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      target.url,
      {
        method: 'POST',
        lookup: pinnedLookup(target),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'credit-webhooks/1',
        },
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('close', () => finish({ kind: 'answered', statusCode: res.statusCode ?? 0 }));
        res.on('error', () => finish({ kind: 'answered', statusCode: res.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'failed', error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'failed', error: error.code ?? error.message }));
    req.end(body);
  });
}
