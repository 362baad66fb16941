// The usage page's chart: CU per day, stacked by operation.
import { svg } from './dom.js';
import { compactFormat, formatCu, formatDay } from './format.js';

/** A stacked bar chart, one bar per day, drawn as SVG with presentation attributes (CSP-safe). */
export function usageChart(width, days, daily, operations, used) {
  const height = 240;
  const pad = { top: 20, right: 8, bottom: 36, left: 48 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const byDate = new Map(daily.map((day) => [day.date, day]));
  const peak = daily.reduce((best, day) => (day.cu > best.cu ? day : best), daily[0] || { cu: 0, date: days[0] });
  const step = niceStep(Math.max(peak.cu, 1) / 4);
  const top = step * 4;
  const yOf = (cu) => pad.top + plotH - (cu / top) * plotH;
  const slot = plotW / days.length;
  const barW = Math.max(2, Math.min(28, slot * 0.7));
  const labelEvery = Math.ceil(days.length / Math.max(1, Math.floor(plotW / 26)));

  const label =
    `Bar chart of CU per day from ${formatDay(days[0])} to ${formatDay(days[days.length - 1])}: ` +
    `${formatCu(used)} CU in total, most on ${formatDay(peak.date)} with ${formatCu(peak.cu)} CU.`;
  const chart = svg('svg', { class: 'chart', width, height, role: 'img', 'aria-label': label, 'data-testid': 'usage-chart' });

  for (let i = 0; i <= 4; i += 1) {
    const y = yOf(step * i);
    chart.append(
      svg('line', { class: i ? 'grid' : 'axis', x1: pad.left, x2: width - pad.right, y1: y, y2: y }),
      svg('text', { class: 'tick', x: pad.left - 6, y: y + 4, 'text-anchor': 'end' }, compactFormat.format(step * i)),
    );
  }
  chart.append(svg('text', { class: 'axis-title', x: pad.left - 6, y: 10, 'text-anchor': 'end' }, 'CU'));

  // Each day's total above its bar, readable without hover (a phone has none); a label that would
  // overlap the previous one is left out (the table under the chart has every figure).
  let labelEnd = -Infinity;
  days.forEach((date, i) => {
    const x = pad.left + i * slot + (slot - barW) / 2;
    const day = byDate.get(date);
    let base = 0;
    operations.forEach((op, opIndex) => {
      const cu = (day && day.by_operation && day.by_operation[op]) || 0;
      if (!cu) return;
      const y = yOf(base + cu);
      const segment = svg('rect', { class: `seg op-${opIndex % 12}`, x, y, width: barW, height: Math.max(1, yOf(base) - y) });
      segment.append(svg('title', {}, `${date} · ${op}: ${formatCu(cu)} CU`));
      chart.append(segment);
      base += cu;
    });
    if (day && day.cu > 0) {
      const text = compactFormat.format(day.cu);
      const half = (text.length * 6.5) / 2;
      const centre = x + barW / 2;
      if (centre - half > labelEnd + 2) {
        chart.append(svg('text', { class: 'bar-value', x: centre, y: yOf(day.cu) - 4, 'text-anchor': 'middle', 'data-date': date }, text));
        labelEnd = centre + half;
      }
    }
    const dayOfMonth = String(Number(date.slice(8)));
    const tick = { class: 'tick', x: x + barW / 2, y: height - pad.bottom + 15, 'text-anchor': 'middle' };
    if (i % labelEvery === 0) chart.append(svg('text', tick, dayOfMonth));
  });
  chart.append(svg('text', { class: 'axis-title', x: width - pad.right, y: height - 2, 'text-anchor': 'end' }, 'Day of month (UTC)'));
  return chart;
}

/** 1, 2 or 5 times a power of ten, at least `raw` and at least 1 (CU are whole numbers). */
function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= raw) return factor * power;
  return 10 * power;
}
