import { Agent } from 'node:http';
import { SUBJECTS } from '@credit/contracts/subjects';
import { DOCUMENTED_STATUSES, errorEnvelopeProblem, replyProblem } from './contract-envelope';
import { fuzzRequest, type FuzzRequest } from './http-fuzz-cases';
import { NoAnswer, sendHttp, sendRaw, type HttpAnswer } from './http-send';
import type { Prng } from './prng';
import { subjectOfRoute } from './routes';

export interface FuzzFigures {
  seed: number;
  requests: number;
  answered: number;
  byStatus: Record<string, number>;
  byAuth: Record<string, number>;
  /** Requests the gateway cut without an answer (an oversized request it stopped reading). */
  closedWithoutAnswer: number;
  /**
   * Requests sent again because the kept-alive connection they went out on was closed by the
   * gateway as they were sent (what HTTP clients do for idempotent requests, RFC 9112 §9.3.1).
   */
  resentAfterKeepAliveClose: number;
  maxLatencyMs: number;
  durationMs: number;
  problems: string[];
}

/** Slack over a subject's own deadline for the HTTP hop and a busy 2-core machine. */
const MARGIN_MS = 3_000;
const PUBLIC_PATH = /^\/(health|openapi\.json|docs)(\/|\?|$)/;
/** A request this big may be cut by the gateway before it reads it all: a reset, not a hang. */
const LARGE_REQUEST_BYTES = 16 * 1024;

function deadlineOf(req: FuzzRequest): number {
  return (req.target.kind === 'operation' ? SUBJECTS[req.target.subject].timeoutMs : 5_000) + MARGIN_MS;
}

function okProblem(req: FuzzRequest, answer: HttpAnswer): string | undefined {
  const text = answer.body.toString('utf8');
  if (req.auth !== 'valid' && !PUBLIC_PATH.test(req.path)) return 'a 200 without a valid key';
  const subject = subjectOfRoute(req.method, req.path);
  if (subject !== undefined) return replyProblem(subject, text);
  if (/^\/docs(\/|\?|$)/.test(req.path)) return answer.body.length > 0 ? undefined : 'an empty 200';
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return `a 200 whose body is not JSON: ${text.slice(0, 120)}`;
  }
}

export function answerProblem(req: FuzzRequest, answer: HttpAnswer): string | undefined {
  if (answer.status === 500) return `500: ${answer.body.toString('utf8').slice(0, 200)}`;
  if (!DOCUMENTED_STATUSES.has(answer.status)) return `undocumented status ${answer.status}`;
  if (req.method === 'HEAD') return undefined;
  if (answer.status === 200) return okProblem(req, answer);
  const type = answer.headers['content-type'];
  return errorEnvelopeProblem(answer.status, Array.isArray(type) ? type[0] : type, answer.body.toString('utf8'));
}

function describe(req: FuzzRequest): string {
  const auth = req.headers.authorization ?? req.headers.AUTHORIZATION;
  return `${req.method} ${req.path.slice(0, 160)}${req.path.length > 160 ? `…(${req.path.length})` : ''} auth=${req.auth}${auth ? `(${auth.slice(0, 30)}…)` : ''}${req.body !== undefined ? ` body(${req.headers['content-type'] ?? 'no type'})=${req.body.slice(0, 80)}` : ''}${req.raw ? ' [raw]' : ''}`;
}

const sizeOf = (req: FuzzRequest) =>
  req.path.length + (req.body?.length ?? 0) + Object.values(req.headers).reduce((n, v) => n + v.length, 0);

/** Sends `count` generated requests, `concurrency` at a time, and checks every answer. */
export async function runHttpFuzz(options: {
  baseUrl: string;
  key: string;
  prng: Prng;
  count: number;
  concurrency: number;
}): Promise<FuzzFigures> {
  const url = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const figures: FuzzFigures = {
    seed: options.prng.seed,
    requests: 0,
    answered: 0,
    byStatus: {},
    byAuth: {},
    closedWithoutAnswer: 0,
    resentAfterKeepAliveClose: 0,
    maxLatencyMs: 0,
    durationMs: 0,
    problems: [],
  };
  const started = Date.now();
  // Generated up front and in order, so a seed always means the same requests whatever the timing.
  const requests = Array.from({ length: options.count }, () => fuzzRequest(options.prng, options.key));
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      figures.requests += 1;
      const t0 = Date.now();
      try {
        // Node's client refuses bytes outside Latin-1 and spaces in a path, and a body after a
        // HEAD answer (an error for a request it could not parse): those go over a raw socket.
        const raw = req.raw || req.method === 'HEAD' || /[^\u0021-\u00ff]/.test(req.path);
        const send = () => (raw ? sendRaw(url, req, deadlineOf(req)) : sendHttp(url, agent, req, deadlineOf(req)));
        const answer = await send().catch((error: unknown) => {
          if (!(error instanceof NoAnswer && error.staleKeepAlive)) throw error;
          figures.resentAfterKeepAliveClose += 1;
          return send();
        });
        figures.answered += 1;
        figures.byStatus[answer.status] = (figures.byStatus[answer.status] ?? 0) + 1;
        const key = `${req.auth} → ${answer.status}`;
        figures.byAuth[key] = (figures.byAuth[key] ?? 0) + 1;
        const problem = answerProblem(req, answer);
        if (problem) figures.problems.push(`${problem}\n    request: ${describe(req)}`);
      } catch (error) {
        if (error instanceof NoAnswer && error.reason === 'connection' && sizeOf(req) > LARGE_REQUEST_BYTES)
          figures.closedWithoutAnswer += 1;
        else
          figures.problems.push(
            `${error instanceof NoAnswer ? error.reason : 'error'}: ${(error as Error).message}\n    request: ${describe(req)}`,
          );
      }
      figures.maxLatencyMs = Math.max(figures.maxLatencyMs, Date.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  figures.durationMs = Date.now() - started;
  return figures;
}
