/**
 * When the index's tables get fresh planner statistics. Postgres's autovacuum analyzes a table
 * once 10 % of it has changed, but only when its launcher next visits the database (a minute or
 * more): a backfill that fills empty tables leaves every query planned for empty ones until then,
 * and a wallet reading of ten addresses took 60-90 ms instead of 8 (docs/BENCHMARKS.md). So the
 * writer asks for it itself: after `minRows` rows, then each time its writes have grown by
 * `growth` of what they were at the last analysis (a long backfill analyzes a logarithmic number of
 * times). One analysis at a time; rows written meanwhile count towards the next.
 */
export class TableStatistics {
  private written = 0;
  private writtenAtLastAnalysis = 0;
  private running = false;

  constructor(
    private readonly analyze: () => Promise<void>,
    private readonly options: { minRows: number; growth: number } = { minRows: 1_000, growth: 0.1 },
  ) {}

  /** Counts `rows` just committed; analyzes when they are due. True when this call analyzed. */
  async afterWrite(rows: number): Promise<boolean> {
    this.written += rows;
    const since = this.written - this.writtenAtLastAnalysis;
    if (this.running || since < Math.max(this.options.minRows, this.options.growth * this.writtenAtLastAnalysis)) return false;
    this.running = true;
    this.writtenAtLastAnalysis = this.written;
    try {
      await this.analyze();
      return true;
    } finally {
      this.running = false;
    }
  }
}
