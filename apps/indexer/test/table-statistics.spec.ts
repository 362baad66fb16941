import { TableStatistics } from '../src/table-statistics';

describe('TableStatistics: when the index tables are analyzed', () => {
  it('after the first minRows rows, then each time the writes have grown by the given share', async () => {
    let analyses = 0;
    const statistics = new TableStatistics(
      async () => {
        analyses += 1;
      },
      { minRows: 100, growth: 0.5 },
    );
    const analyzedAt: number[] = [];
    let written = 0;
    for (let i = 0; i < 60; i++) {
      written += 10;
      if (await statistics.afterWrite(10)) analyzedAt.push(written);
    }
    // at 100; then after max(100, 50 % of the rows at the last analysis) more: 200, 300, 450 (the next is due at 675)
    expect(analyzedAt).toEqual([100, 200, 300, 450]);
    expect(analyses).toBe(4);
    expect(await statistics.afterWrite(0)).toBe(false);
  });

  it('runs one analysis at a time: rows written meanwhile count towards the next one', async () => {
    let release: () => void = () => undefined;
    let analyses = 0;
    const statistics = new TableStatistics(
      () => {
        analyses += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
      { minRows: 10, growth: 0 },
    );
    const first = statistics.afterWrite(10);
    expect(await statistics.afterWrite(50)).toBe(false); // while the first runs
    release();
    expect(await first).toBe(true);
    const second = statistics.afterWrite(0); // the 50 written meanwhile are due now
    release();
    expect(await second).toBe(true);
    expect(analyses).toBe(2);
  });

  it('a failed analysis is thrown to the caller and does not block the next one', async () => {
    let fail = true;
    const statistics = new TableStatistics(
      async () => {
        if (fail) throw new Error('connection lost');
      },
      { minRows: 10, growth: 0 },
    );
    await expect(statistics.afterWrite(10)).rejects.toThrow('connection lost');
    fail = false;
    expect(await statistics.afterWrite(10)).toBe(true);
  });
});
