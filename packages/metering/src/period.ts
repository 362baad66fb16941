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

export function periodAt(ms: number): Period {
  const at = new Date(ms);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
  };
}
