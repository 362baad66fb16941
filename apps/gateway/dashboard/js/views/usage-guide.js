// The usage page's explanations (issue 39): the month's quota as a bar with its warnings, the
// plan's rate limit, what CU are with each operation's price, the CU of each key, and the plans
// side by side with how to move to another. Every figure comes from the usage reply (the counter,
// the ledger, the contracts' prices and plans, the gateway's rate-limit policies); none is written here.
import { h } from '../dom.js';
import { dateFormat, formatCu } from '../format.js';
import { table } from '../widgets.js';

/** Share of the allowance at which the bar warns, and at which calls are refused. */
const WARN_AT = 0.8;

/** The quota bar and, from 80 % of the allowance, a warning; nothing for an unlimited plan. */
export function quotaSection(usage) {
  const limit = usage.monthly_limit;
  if (limit === null || limit === undefined) {
    return h('section', { class: 'card quota', 'data-testid': 'quota' }, h('p', {}, 'Your plan has no monthly CU limit.'));
  }
  const percent = limit > 0 ? Math.floor((usage.used * 100) / limit) : 100;
  const resets = dateFormat.format(new Date(usage.period_end));
  // A native meter: high is just under the limit, so a used-up month shows in the "bad" colour.
  const bar = h('meter', {
    'aria-labelledby': 'quota-title',
    min: 0,
    max: limit,
    low: limit * WARN_AT,
    high: Math.max(limit - 0.5, 0),
    optimum: 0,
    value: Math.min(usage.used, limit),
    'data-testid': 'quota-meter',
  });
  const level = usage.used >= limit ? 'full' : usage.used >= limit * WARN_AT ? 'warn' : 'ok';
  const warning =
    level === 'full'
      ? `You have used all of this month’s ${formatCu(limit)} CU. Calls that cost CU are refused (429, credit_limit_exceeded) until ${resets}.`
      : level === 'warn'
        ? `You have used ${percent} % of this month’s CU. At ${formatCu(limit)} CU, calls that cost CU are refused until ${resets}.`
        : null;
  return h(
    'section',
    { class: `card quota quota--${level}`, 'aria-labelledby': 'quota-title', 'data-testid': 'quota', 'data-level': level },
    h(
      'div',
      { class: 'quota__head' },
      h('h2', { id: 'quota-title' }, 'This month’s CU'),
      h('span', { 'data-testid': 'quota-percent' }, `${percent} %`),
    ),
    bar,
    h('p', { class: 'hint' }, `${formatCu(usage.used)} of ${formatCu(limit)} CU used; the allowance starts again on ${resets}.`),
    warning && h('p', { class: `quota__warning quota__warning--${level}`, role: 'status', 'data-testid': 'quota-warning' }, warning),
  );
}

/** "10 requests a minute", as the RateLimit-Policy header states it (q requests per w seconds). */
function rateLimitText(rate) {
  const per = rate.window_seconds === 60 ? 'a minute' : `every ${formatCu(rate.window_seconds)} seconds`;
  return `${formatCu(rate.requests)} requests ${per}`;
}

/** What CU are, the plan's rate limit and the price of each operation. */
export function pricesSection(usage) {
  const rate = usage.rate_limit;
  const price = (p) => (p.cu === 0 ? 'free' : `${formatCu(p.cu)} CU ${p.kind === 'per_address' ? 'an address' : 'a call'}`);
  const rows = usage.prices.map((p) =>
    h(
      'tr',
      { 'data-operation': p.operation },
      // The operation and what it does in one cell, the price beside it: two columns fit a phone.
      h('th', { scope: 'row' }, h('code', { class: 'operation' }, p.operation), h('span', { class: 'operation-summary' }, p.summary)),
      h('td', { class: 'num price' }, price(p)),
    ),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'prices-title', 'data-testid': 'prices' },
    h('h2', { id: 'prices-title' }, 'What a call costs'),
    h(
      'p',
      {},
      'CU (compute units) are what API calls are counted in. Each operation has a price in CU, charged when it is called; ',
      'what a call could not serve is given back. Your plan includes the monthly allowance above.',
    ),
    h(
      'p',
      { 'data-testid': 'rate-limit' },
      `Rate limit of the ${usage.plan} plan: `,
      h('strong', {}, rateLimitText(rate)),
      '. Every answer says so in its ',
      h('code', {}, 'RateLimit-Policy'),
      ' header ',
      h('code', {}, `"api";q=${rate.requests};w=${rate.window_seconds}`),
      '; a call beyond it gets 429 with Retry-After.',
    ),
    wrapping(
      table(
        'prices-table',
        h('caption', { class: 'visually-hidden' }, 'Price of each operation'),
        [h('th', { scope: 'col' }, 'Operation'), h('th', { scope: 'col', class: 'num' }, 'Price')],
        rows,
      ),
    ),
  );
}

/**
 * Every plan side by side, its allowance and rate limit, the account's marked. A plan is changed
 * by the API's operator (the CLI's `accounts:set-plan`, README "API keys"): there is no billing
 * here, so the way to move is to ask them.
 */
export function plansSection(usage) {
  const allowance = (cu) => (cu === null || cu === undefined ? 'Unlimited CU a month' : `${formatCu(cu)} CU a month`);
  const card = (plan) => {
    const current = plan.name === usage.plan;
    return h(
      'li',
      { class: `plan${current ? ' plan--current' : ''}`, 'data-plan': plan.name, 'aria-current': current ? 'true' : null },
      h('h3', {}, plan.name, current && h('span', { class: 'plan__badge', 'data-testid': 'current-plan' }, 'Your plan')),
      h('p', { class: 'plan__figure', 'data-testid': 'plan-allowance' }, allowance(plan.monthly_cu)),
      h('p', { class: 'plan__figure', 'data-testid': 'plan-rate-limit' }, rateLimitText(plan.rate_limit)),
    );
  };
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'plans-title', 'data-testid': 'plans' },
    h('h2', { id: 'plans-title' }, 'Plans'),
    h('ul', { class: 'plans', 'aria-label': 'Plans' }, usage.plans.map(card)),
    h(
      'p',
      { 'data-testid': 'plan-change' },
      'To move to another plan, ask your operator: plans are changed by the operator of this API, not in the dashboard. ',
      'The new allowance and rate limit apply from your next call. ',
      h('a', { href: '/docs', 'data-testid': 'plans-docs-link' }, 'Read the API documentation'),
      '.',
    ),
  );
}

/** How a request was answered, as the usage reply counts it, in the table's order. */
const STATUS_COLUMNS = [
  { key: '2xx', label: 'Served (2xx)' },
  { key: '4xx', label: 'Refused (4xx)' },
  { key: '429', label: 'Rate-limited (429)' },
  { key: '5xx', label: 'Failed (5xx)' },
];

/** The month's CU of each key, from the ledger, and its requests by how they were answered. */
export function keysUsageSection(usage) {
  const rows = usage.by_key.map((key) =>
    h(
      'tr',
      { 'data-key-id': key.key_id },
      h('th', { scope: 'row' }, key.name, ' ', key.start && h('code', { class: 'muted' }, `${key.start}…`)),
      h('td', { class: 'num', 'data-label': 'CU this month' }, `${formatCu(key.cu)} CU`),
      ...STATUS_COLUMNS.map((column) =>
        h('td', { class: 'num', 'data-label': column.label, 'data-status': column.key }, formatCu(key.requests[column.key])),
      ),
    ),
  );
  const empty = h('tr', {}, h('td', { colspan: 2 + STATUS_COLUMNS.length, class: 'muted' }, 'No key has made a request this month.'));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'by-key-title' },
    h('h2', { id: 'by-key-title' }, 'Usage by key'),
    h(
      'p',
      { class: 'muted' },
      'Production requests this month by how they were answered. Only served requests cost CU: ',
      'a refused, rate-limited or failed request is given its CU back. Counts follow your calls within a few seconds.',
    ),
    asCards(
      table(
        'usage-by-key',
        h('caption', { class: 'visually-hidden' }, 'CU and requests this month by each API key'),
        [
          h('th', { scope: 'col' }, 'Key'),
          h('th', { scope: 'col', class: 'num' }, 'CU this month'),
          ...STATUS_COLUMNS.map((column) => h('th', { scope: 'col', class: 'num' }, column.label)),
        ],
        rows.length ? rows : empty,
      ),
    ),
  );
}

/** A table shown as a card a row on a phone (css/tables.css), each cell named by its data-label. */
function asCards(tableEl) {
  tableEl.classList.add('table--cards');
  return tableEl;
}

/** A table whose cells wrap (css/tables.css), so it fits a phone without scrolling. */
function wrapping(tableEl) {
  tableEl.classList.add('table--wrap');
  return tableEl;
}
