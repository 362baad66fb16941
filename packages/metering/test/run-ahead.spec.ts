import { Meter, type RatePolicy } from '../src/meter';
import { meterWorld } from './meter-world';

/**
 * Reads that run ahead of their admission, against a real Redis and Postgres: only within what the
 * last answer left, batched a moment, refused like any request when another replica outran them.
 */
const w = meterWorld();

describe('reads ahead of their admission', () => {
  it('only within what the last answer left: tokens and CU for every request let ahead, none before an answer or once it is a second old', async () => {
    const id = await w.account('enterprise');
    const m = w.meter();
    const policy: RatePolicy = { name: 'api', capacity: 4, windowMs: 60_000 };
    const read = (cost = 1) => w.request(id, { policy, allowance: 100, cost });
    expect(m.admitAhead(read())).toBeUndefined(); // nothing seen yet: wait
    expect((await m.admit(read())).kind).toBe('admitted'); // 3 tokens left
    const two = [m.admitAhead(read()), m.admitAhead(read())];
    expect(two.every((a) => a !== undefined)).toBe(true);
    expect((await Promise.all(two)).map((a) => a!.kind)).toEqual(['admitted', 'admitted']);
    // answered, they count no longer: the token left lets one more go ahead, and no other
    const last = m.admitAhead(read());
    expect(last).toBeDefined();
    expect(m.admitAhead(read())).toBeUndefined();
    expect((await last!).kind).toBe('admitted');
    // the answer left no token: an account at its limit waits for its admission
    expect(m.admitAhead(read())).toBeUndefined();
    w.now += 15_000; // one token back, but the answer is older than a second
    expect(m.admitAhead(read())).toBeUndefined();
    expect((await m.admit(read())).kind).toBe('admitted');
    expect((await m.usage(id)).used).toBe(5);

    // tokens to spare: an answer is trusted for under a second
    const other = await w.account('enterprise');
    const priced = (cost: number) => w.request(other, { allowance: 100, cost });
    expect((await m.admit(priced(1))).kind).toBe('admitted');
    w.now += 1_000;
    expect(m.admitAhead(priced(1))).toBeUndefined();
    expect((await m.admit(priced(1))).kind).toBe('admitted');
    // CU: of 98 left, a 60-CU read fits, and while it is out a 39-CU one does not; once it is
    // admitted, the 38 CU left let one more go ahead
    const big = m.admitAhead(priced(60));
    expect(big).toBeDefined();
    expect(m.admitAhead(priced(39))).toBeUndefined();
    expect((await big!).kind).toBe('admitted');
    const rest = m.admitAhead(priced(38));
    expect(rest).toBeDefined();
    expect((await rest!).kind).toBe('admitted');
    expect((await m.usage(other)).used).toBe(100);
    expect(m.admitAhead(priced(1))).toBeUndefined();
  });

  it("admissions of reads running ahead wait a moment for others to join their script call; a waiting request's turn sends them all", async () => {
    const id = await w.account('enterprise');
    const m = new Meter(w.redis, w.keys, w.ledger, () => w.now, 60_000); // a window no test waits out
    expect((await m.admit(w.request(id))).kind).toBe('admitted'); // an answer to run ahead on
    const spy = jest.spyOn(w.redis as unknown as { meterAdmit: (...args: unknown[]) => unknown }, 'meterAdmit');
    try {
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      const first = m.admitAhead(w.request(id));
      await turn();
      const second = m.admitAhead(w.request(id));
      await turn();
      await turn();
      expect(spy).not.toHaveBeenCalled();
      const waiting = m.admit(w.request(id)); // waits for its answer: sent at its turn's end
      const answers = await Promise.all([first!, second!, waiting]);
      expect(answers.map((a) => a.kind)).toEqual(['admitted', 'admitted', 'admitted']);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await m.usage(id)).used).toBe(4);
    } finally {
      spy.mockRestore();
    }
    // alone, they go when the window ends
    const quick = new Meter(w.redis, w.keys, w.ledger, () => w.now, 5);
    expect((await quick.admit(w.request(id))).kind).toBe('admitted');
    expect((await quick.admitAhead(w.request(id))!).kind).toBe('admitted');
  });

  it('a read let ahead that another replica outran is refused like any request, and charges nothing', async () => {
    const id = await w.account('enterprise');
    const [a, b] = [w.meter(), w.meter()];
    const read = () => w.request(id, { allowance: 3 });
    expect((await a.admit(read())).kind).toBe('admitted'); // a saw 2 CU left
    expect((await b.admit(read())).kind).toBe('admitted');
    expect((await b.admit(read())).kind).toBe('admitted'); // spent by b
    const ahead = a.admitAhead(read());
    expect(ahead).toBeDefined();
    expect(await ahead).toMatchObject({ kind: 'credit_exceeded', used: 3 });
    expect(a.admitAhead(read())).toBeUndefined(); // a has seen the allowance spent
    expect((await a.usage(id)).used).toBe(3);
    await w.writeLedger();
    expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 3, byOperation: { scoreAddress: 3 } });
  });
});
