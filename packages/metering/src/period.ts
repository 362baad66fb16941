/**
 * A metering period: the calendar month in UTC. The counter's key names it, so a new month starts
 * at zero by itself (docs/ARCHITECTURE.md, "Metering").
 */
export interface Period {
  /** `YYYY-MM` */
  id: string;
  /** The month's first instant. */
  start: Date;
  /** The next month's first instant: the allowance starts again then. */
  end: Date;
}

/** The last period asked for (every request asks, and the month seldom changes). */
let last: { period: Period; startMs: number; endMs: number } | undefined;

/** The month of `ms`. The same object is given for every instant of one month: do not change it. */
export function periodAt(ms: number): Period {
  if (last !== undefined && ms >= last.startMs && ms < last.endMs) return last.period;
  const period = computePeriod(ms);
  last = { period, startMs: period.start.getTime(), endMs: period.end.getTime() };
  return period;
}

function computePeriod(ms: number): Period {
  const at = new Date(ms);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
  };
}
