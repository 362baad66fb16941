// The usage page: the month's figures and quota, the chart of CU per day (chart.js) and its data as a
// table, the CU of each key, what a call costs and the plans (usage-guide.js).
import { api, reportError } from '../api.js';
import { usageChart } from '../chart.js';
import { h, setTitle, showMessage } from '../dom.js';
import { dateFormat, dayFormat, formatCu, monthFormat, timeEl } from '../format.js';
import { isCurrent, state } from '../state.js';
import { loading, refreshButton, scrollBox, showLoadFailure, table } from '../widgets.js';
import { keysUsageSection, plansSection, pricesSection, quotaSection } from './usage-guide.js';

export function usageView(view, generation) {
  setTitle('Usage');
  const content = h('div', {}, loading('usage'));
  const fail = (error) => isCurrent(generation) && reportError(error);

  async function load(announce) {
    const usage = await api('GET', '/usage');
    if (!isCurrent(generation)) return;
    renderUsage(content, usage);
    if (announce) showMessage('Usage refreshed.', 'info');
  }

  view.append(h('div', { class: 'section-head' }, h('h1', {}, 'Usage'), refreshButton(load, fail)), content);
  const firstLoad = () =>
    load().catch((error) => {
      if (isCurrent(generation)) showLoadFailure(content, 'your usage', error, retry);
    });
  const retry = () => {
    content.replaceChildren(loading('usage'));
    return firstLoad();
  };
  firstLoad();
}

function renderUsage(container, usage) {
  const stat = (label, value, unit) => h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, value, unit));
  const figure = (testid, value) => h('span', { 'data-testid': testid }, value);
  const upTo = (testid, value) =>
    value === null || value === undefined ? figure(testid, 'unlimited') : [figure(testid, formatCu(value)), ' CU'];
  const periodEnd = timeEl(usage.period_end, dateFormat);
  if (periodEnd instanceof Node) periodEnd.setAttribute('data-testid', 'usage-period-end');
  const summary = h(
    'dl',
    { class: 'stats' },
    stat('Plan', figure('usage-plan', usage.plan)),
    stat('Used this month', figure('usage-used', formatCu(usage.used)), ' CU'),
    stat('Remaining', upTo('usage-remaining', usage.remaining)),
    stat('Monthly limit', upTo('usage-limit', usage.monthly_limit)),
    stat('Resets on', periodEnd),
  );

  state.redraw = null;
  const daily = (usage.daily || []).filter((day) => day.cu > 0);
  if (!daily.length && !usage.used) {
    return container.replaceChildren(
      summary,
      quotaSection(usage),
      h('section', { class: 'card' }, h('p', { class: 'empty' }, 'No CU used yet this month.')),
      pricesSection(usage),
      plansSection(usage),
    );
  }

  // Operations ordered by their total, biggest first: the same order in the stack, legend and table.
  const totals = usage.by_operation || {};
  const operations = Object.keys(totals).sort((a, b) => totals[b] - totals[a] || a.localeCompare(b));
  for (const day of daily) for (const op of Object.keys(day.by_operation || {})) if (!operations.includes(op)) operations.push(op);
  const days = periodDays(usage, daily);

  const chartBox = h('div', { class: 'chart-box' });
  const legendItem = (op, i) =>
    h(
      'li',
      {},
      h('span', { class: `swatch op-${i % 12}`, 'aria-hidden': 'true' }),
      `${op} `,
      h('span', { class: 'muted' }, `${formatCu(totals[op] || 0)} CU`),
    );
  const month = monthFormat.format(new Date(days[0] + 'T00:00:00Z')); // the period's month, not today's
  container.replaceChildren(
    summary,
    quotaSection(usage),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, `CU per day, ${month}`),
      chartBox,
      h('ul', { class: 'legend', 'aria-label': 'Operations' }, operations.map(legendItem)),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', { id: 'usage-table-title' }, 'Breakdown'),
      h('p', { class: 'hint' }, 'Days with no usage are left out.'),
      scrollBox('usage-table-title', usageTable(usage, daily, operations)),
    ),
    keysUsageSection(usage),
    pricesSection(usage),
    plansSection(usage),
  );

  // The chart is drawn at the box's real pixel width (so its text stays legible on a phone) and
  // redrawn when that width changes.
  let drawnWidth = 0;
  state.redraw = () => {
    const width = Math.max(260, Math.floor(chartBox.clientWidth));
    if (width === drawnWidth) return;
    drawnWidth = width;
    chartBox.replaceChildren(usageChart(width, days, daily, operations, usage.used));
  };
  state.redraw();
}

/** The period's UTC days, "YYYY-MM-DD", from period_start up to today (or the period's last day). */
function periodDays(usage, daily) {
  const dayOf = (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString().slice(0, 10));
  const first = dayOf(usage.period_start);
  const lastOfPeriod = new Date(Date.parse(usage.period_end) - 1).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  let last = today < lastOfPeriod ? today : lastOfPeriod;
  for (const day of daily) if (day.date > last) last = day.date; // never cut off a day that has CU
  const days = [];
  for (let t = Date.parse(first + 'T00:00:00Z'); days.length < 400; t += 86400000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day > last) break;
    days.push(day);
  }
  return days.length ? days : [first];
}

/** The chart's data as a table: a row per day with CU, its total first (in view on a phone), a column per operation. */
function usageTable(usage, daily, operations) {
  const num = (value) => h('td', { class: 'num' }, value ? formatCu(value) : '–');
  const row = (heading, byOperation, total) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, heading),
      h('td', { class: 'num total' }, formatCu(total)),
      operations.map((op) => num((byOperation || {})[op])),
    );
  const headings = [
    h('th', { scope: 'col' }, 'Day'),
    h('th', { scope: 'col', class: 'num' }, 'Total'),
    operations.map((op) => h('th', { scope: 'col', class: 'num' }, op)),
  ];
  return table(
    'usage-table',
    h('caption', { class: 'visually-hidden' }, 'CU by day and operation'),
    headings,
    daily.map((day) => row(timeEl(day.date, dayFormat), day.by_operation, day.cu)),
    row('Total', usage.by_operation, usage.used),
  );
}
