import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import '@credit/observability/cache-metrics';
import '@credit/observability/chain-rpc-metrics';
import '@credit/observability/publish-metrics';
import '@credit/observability/request-metrics';
import '@credit/gateway/observability/gateway-metrics';
import '@credit/gateway/observability/ledger-outbox-gauges';
import '@credit/identity/identity-metrics';
import '@credit/indexer/index-progress-gauges';
import '@credit/webhooks/webhook-metrics';
import { METRICS } from '@credit/observability/process-registry';

/**
 * What a platform team deploys to watch the apps (infra/grafana, infra/prometheus) names only
 * metric families the apps export: every family is read from the registry the apps register in
 * (each module that defines one is imported above, as the apps import them; prom-client's process
 * metrics included). Every alert has a severity, a summary and a runbook link to a heading of
 * docs/OPERATIONS.md that exists.
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];
const exported = new Map(METRICS.getMetricsAsArray().map((m) => [m.name, (m as unknown as { type: string }).type] as const));

/** A sample name in an expression → the family it belongs to (a histogram's `_bucket` → the histogram), or undefined. */
function familyOf(sample: string): string | undefined {
  if (exported.has(sample)) return sample;
  const suffix = HISTOGRAM_SUFFIXES.find((s) => sample.endsWith(s));
  const base = suffix && sample.slice(0, -suffix.length);
  return base && exported.get(base) === 'histogram' ? base : undefined;
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);

/** The metric names an expression reads: label matchers, grouping labels, ranges, strings and functions removed. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((m) => m[2] === undefined && !PROMQL_WORDS.has(m[1]!))
    .map((m) => m[1]!);
  return [...new Set(names)];
}

it('reads metric names out of an expression, and only those', () => {
  expect(
    metricNamesIn(
      'histogram_quantile(0.99, sum by (service, le) (rate(credit_request_duration_seconds_bucket{outcome=~"a|b"}[5m]))) / on(service) up > 2',
    ),
  ).toEqual(['credit_request_duration_seconds_bucket', 'up']);
});

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets: { expr: string }[];
}
const dashboard = JSON.parse(read('infra/grafana/credit-platform.json')) as { uid: string; panels: Panel[] };
/** Rows only group the panels after them: no query of their own. */
const queryPanels = dashboard.panels.filter((p) => p.type !== 'row');

interface Rule {
  alert: string;
  expr: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; runbook_url?: string };
}
const alerts = parse(read('infra/prometheus/alerts.yml')) as { groups: { name: string; rules: Rule[] }[] };
const rules = alerts.groups.flatMap((g) => g.rules);

it.each(queryPanels.map((p) => [p.title, p] as const))('dashboard panel "%s" reads only exported families', (_, panel) => {
  expect(panel.targets.length).toBeGreaterThan(0);
  for (const { expr } of panel.targets) {
    const names = metricNamesIn(expr);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => familyOf(name) === undefined)).toEqual([]);
  }
});

it.each(rules.map((r) => [r.alert, r] as const))(
  'alert %s reads only exported families, with severity, summary and a runbook',
  (_, rule) => {
    const names = metricNamesIn(rule.expr);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => familyOf(name) === undefined)).toEqual([]);
    expect(['page', 'warning']).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toEqual(expect.any(String));
    const [file, anchor] = (rule.annotations?.runbook_url ?? '').split('#');
    expect(file).toBe('docs/OPERATIONS.md');
    expect(headingAnchors(read('docs/OPERATIONS.md'))).toContain(anchor);
  },
);

it('the dashboard panels have distinct ids and do not overlap on its 24-column grid', () => {
  const panels = dashboard.panels;
  expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
  for (const { gridPos: g } of panels) expect(g.x + g.w).toBeLessThanOrEqual(24);
  const overlapping = panels.flatMap((a, i) =>
    panels
      .slice(i + 1)
      .filter(
        (b) =>
          a.gridPos.x < b.gridPos.x + b.gridPos.w &&
          b.gridPos.x < a.gridPos.x + a.gridPos.w &&
          a.gridPos.y < b.gridPos.y + b.gridPos.h &&
          b.gridPos.y < a.gridPos.y + a.gridPos.h,
      )
      .map((b) => `${a.title} / ${b.title}`),
  );
  expect(overlapping).toEqual([]);
});

/** GitHub's anchors for a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
}

it('the dashboard and the alerts cover every family of issue 35, and the alerts the six it names and the two of the webhooks', () => {
  const used = new Set(
    [...queryPanels.flatMap((p) => p.targets.map((t) => t.expr)), ...rules.map((r) => r.expr)].flatMap(metricNamesIn).map(familyOf),
  );
  const ours = [...exported.keys()].filter((name) => name.startsWith('credit_'));
  // every app's families are in the registry read (an app whose module is not imported above would pass unseen)
  expect(ours).toEqual(
    expect.arrayContaining([
      'credit_webhook_attempts_total',
      'credit_webhook_attempt_duration_seconds',
      'credit_webhook_events_given_up_total',
    ]),
  );
  expect(ours.filter((name) => !used.has(name))).toEqual([]);
  expect(rules.map((r) => r.alert)).toEqual(
    expect.arrayContaining([
      'CreditErrorRatioHigh',
      'CreditLatencyP99High',
      'CreditIndexLagging',
      'CreditLedgerOutboxStale',
      'CreditX402SettlementFailures',
      'CreditEventPublishRefused',
      'CreditWebhookEventsGivenUp',
      'CreditWebhookAttemptsFailing',
    ]),
  );
});
