import { SUBJECT_NAMES, SUBJECTS, subjectsOf, type ServiceName, type SubjectName } from '../src/subjects';

/** The subject table: names, services, sandbox mirrors and timeouts (ARCHITECTURE decisions 1, 3, 11). */
const NAME = /^credit\.[a-z-]+(\.[a-z-]+)*\.v\d+$/;
const SANDBOX = 'credit.sandbox.';

/** The production subjects with an HTTP route (internal ones have no sandbox mirror: no caller of the sandbox sends them). */
const production = SUBJECT_NAMES.filter((s) => !s.startsWith(SANDBOX) && !SUBJECTS[s].internal);
const sandbox = SUBJECT_NAMES.filter((s) => s.startsWith(SANDBOX));
const mirrorOf = (subject: string) => subject.replace(/^credit\./, SANDBOX);

describe('SUBJECTS', () => {
  it('has both production and sandbox subjects', () => {
    expect(production.length).toBeGreaterThan(0);
    expect(sandbox.length).toBeGreaterThan(0);
    expect(SUBJECT_NAMES).toEqual(Object.keys(SUBJECTS));
  });

  it.each(SUBJECT_NAMES)('%s: key equals its subject and the name is dotted and versioned', (name) => {
    expect(SUBJECTS[name].subject).toBe(name);
    expect(name).toMatch(NAME);
  });

  it('the name pattern itself rejects malformed names (guards the guard)', () => {
    for (const bad of [
      'credit.score.address',
      'credit.Score.v1',
      'score.address.v1',
      'credit.score.address.v1.',
      'credit..v1',
      'credit.score_x.v1',
      'credit.score.*.v1',
    ]) {
      expect(bad).not.toMatch(NAME);
    }
  });

  it.each(production)('%s has a sandbox mirror with the very same request schema', (name) => {
    const mirror = mirrorOf(name) as SubjectName;
    expect(SUBJECT_NAMES).toContain(mirror);
    expect(SUBJECTS[mirror].request).toBe(SUBJECTS[name].request);
    expect(SUBJECTS[mirror].service).toBe('sandbox');
  });

  it('every sandbox subject mirrors a production one (no orphans)', () => {
    const mirrors = new Set(production.map(mirrorOf));
    expect(sandbox.filter((s) => !mirrors.has(s))).toEqual([]);
    expect(sandbox).toHaveLength(production.length);
  });

  it.each(SUBJECT_NAMES)('%s has a positive finite timeout and a description', (name) => {
    const { timeoutMs, description, request, reply } = SUBJECTS[name];
    expect(Number.isFinite(timeoutMs)).toBe(true);
    expect(timeoutMs).toBeGreaterThan(0);
    expect(description.trim().length).toBeGreaterThan(0);
    expect(typeof request.safeParse).toBe('function');
    expect(typeof reply.safeParse).toBe('function');
  });

  it('the sandbox answers quickly: 3 s for every sandbox subject (ARCHITECTURE 11)', () => {
    for (const name of sandbox) expect([name, SUBJECTS[name].timeoutMs]).toEqual([name, 3_000]);
  });

  it('production subjects belong to the service of their area', () => {
    const byArea: Record<string, ServiceName> = { score: 'scoring', report: 'reports', identity: 'identity' };
    for (const name of production) {
      const area = name.split('.')[1]!;
      expect([name, SUBJECTS[name].service]).toEqual([name, byArea[area]]);
    }
  });

  it('subjectsOf partitions the table by service', () => {
    const services: ServiceName[] = ['scoring', 'reports', 'identity', 'sandbox', 'payments'];
    const all = services.flatMap((s) => subjectsOf(s));
    expect([...all].sort()).toEqual([...SUBJECT_NAMES].sort());
    expect(new Set(all).size).toBe(all.length);
    expect(subjectsOf('sandbox')).toEqual(sandbox);
  });
});
