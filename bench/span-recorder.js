'use strict';
// An OTLP/HTTP JSON receiver inside a bench process: it keeps every span the traced apps export
// (name, trace id, service, start and end), so a bench can say where a request's time went.
const { createServer } = require('node:http');

/** Starts the receiver on a free port: `{ url, spansOf(traceId), close() }`. */
async function startSpanRecorder() {
  const byTrace = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? []) {
          const service = (resource.resource?.attributes ?? []).find((a) => a.key === 'service.name')?.value?.stringValue ?? '?';
          for (const scope of resource.scopeSpans ?? [])
            for (const s of scope.spans ?? []) {
              const span = { service, name: s.name, start: BigInt(s.startTimeUnixNano), end: BigInt(s.endTimeUnixNano) };
              const list = byTrace.get(s.traceId);
              if (list) list.push(span);
              else byTrace.set(s.traceId, [span]);
            }
        }
      } catch {
        // not OTLP JSON: nothing kept
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spansOf: (traceId) => byTrace.get(traceId) ?? [],
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Where the time of the traced requests went: per stage (a span name, its chain suffix dropped, in
 * its service), the p50 over the requests of the time the stage's spans covered in each request
 * (overlapping spans of one stage counted once), and how many spans it took.
 */
function stageBreakdown(traces) {
  const perStage = new Map();
  for (const spans of traces) {
    const byStage = new Map();
    for (const s of spans) {
      // a JSON-RPC span is `<method> <chain>`: counted by method over every chain
      const stage = `${s.service}: ${/^eth_\w+ /.test(s.name) ? s.name.split(' ')[0] : s.name}`;
      const list = byStage.get(stage);
      if (list) list.push(s);
      else byStage.set(stage, [s]);
    }
    for (const [stage, spans] of byStage) {
      const entry = perStage.get(stage) ?? { ms: [], count: [] };
      entry.ms.push(coveredMs(spans));
      entry.count.push(spans.length);
      perStage.set(stage, entry);
    }
  }
  const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [...perStage]
    .map(([stage, e]) => ({ stage, ms: p50(e.ms), spans: p50(e.count), requests: e.ms.length }))
    .sort((a, b) => b.ms - a.ms);
}

/** Milliseconds of the union of the spans' intervals. */
function coveredMs(spans) {
  const sorted = [...spans].sort((a, b) => (a.start < b.start ? -1 : 1));
  let total = 0n;
  let [start, end] = [sorted[0].start, sorted[0].end];
  for (const s of sorted.slice(1)) {
    if (s.start > end) {
      total += end - start;
      [start, end] = [s.start, s.end];
    } else if (s.end > end) end = s.end;
  }
  total += end - start;
  return Number(total) / 1e6;
}

module.exports = { startSpanRecorder, stageBreakdown };
