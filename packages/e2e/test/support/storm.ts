import { Agent, request as httpRequest } from 'node:http';

/** What a storm's requests were answered: how many of each status, and of each 429's `error`. */
export interface StormResult {
  statuses: Record<number, number>;
  errors: Record<string, number>;
}

/**
 * `count` concurrent GETs with one key over `sockets` kept-alive connections, spread in turn over
 * the URLs given (`urlFor(i)` for the i-th request).
 */
export async function storm(urlFor: (i: number) => string, key: string, count = 2_000, sockets = 200): Promise<StormResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const result: StormResult = { statuses: {}, errors: {} };
  try {
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        getStatus(urlFor(i), key, agent).then(({ status, error }) => {
          result.statuses[status] = (result.statuses[status] ?? 0) + 1;
          if (status === 429) result.errors[error] = (result.errors[error] ?? 0) + 1;
        }),
      ),
    );
  } finally {
    agent.destroy();
  }
  return result;
}

function getStatus(target: string, key: string, agent: Agent): Promise<{ status: number; error: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let error = '';
        try {
          error = (JSON.parse(text) as { detail?: { error?: string } }).detail?.error ?? '';
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, error });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
