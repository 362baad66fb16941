/**
 * Closed-loop HTTP load: `connections` callers, each sending its next request as soon as the last
 * one ended, until `stop()` is called. Every request is bounded by its deadline plus a margin;
 * one that is still open then is counted as hung (and aborted so the run ends).
 */
export interface LoadFigures {
  requests: number;
  byStatus: Record<string, number>;
  maxLatencyMs: number;
  /** Requests that ended past their deadline + margin, or never (aborted). */
  late: number;
  /** Answers other than the allowed statuses, and failures to connect. */
  unexpected: string[];
}

export interface LoadRun {
  figures: LoadFigures;
  stop(): Promise<LoadFigures>;
}

export function startLoad(options: {
  connections: number;
  /** The next request: a URL and the deadline (ms) its subject promises. */
  next(): { url: string; deadlineMs: number };
  headers: Record<string, string>;
  allowed: ReadonlySet<number>;
  marginMs: number;
}): LoadRun {
  const figures: LoadFigures = { requests: 0, byStatus: {}, maxLatencyMs: 0, late: 0, unexpected: [] };
  let stopping = false;
  const caller = async () => {
    while (!stopping) {
      const { url, deadlineMs } = options.next();
      const started = Date.now();
      const abort = AbortSignal.timeout(deadlineMs + options.marginMs);
      let status: number | string;
      try {
        const res = await fetch(url, { headers: options.headers, signal: abort });
        await res.arrayBuffer();
        status = res.status;
      } catch (error) {
        status = abort.aborted ? 'hung' : `connection error: ${(error as Error).message}`;
      }
      const latency = Date.now() - started;
      figures.requests += 1;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      figures.maxLatencyMs = Math.max(figures.maxLatencyMs, latency);
      if (status === 'hung' || latency > deadlineMs + options.marginMs) figures.late += 1;
      if (typeof status === 'string' || !options.allowed.has(status)) figures.unexpected.push(`${status} for ${url}`);
    }
  };
  const callers = Array.from({ length: options.connections }, caller);
  return {
    figures,
    async stop() {
      stopping = true;
      await Promise.all(callers);
      return figures;
    },
  };
}
