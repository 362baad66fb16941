import { z } from 'zod';
import { codeOfIssue, type RequestErrorMap } from '../src/request-errors';
import { SUBJECTS, SUBJECT_NAMES } from '../src/subjects';

/** The error code of a request failure comes from the subject's declared map, not from field names. */
const issueOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues[0]!;

describe('codeOfIssue', () => {
  const schema = z.object({ list: z.array(z.string().max(3)).min(1).max(2), body: z.object({ name: z.string().min(1), n: z.number() }) });
  const map: RequestErrorMap = {
    list: { too_big: 'batch_too_large', too_small: 'no_valid_address' },
    'body.*': 'invalid_body',
    'body.name': { too_small: 'missing_source_name' },
  };
  const ok = { list: ['a'], body: { name: 'x', n: 1 } };

  it('an exact key applies to that field only, per kind of failure', () => {
    expect(codeOfIssue(map, issueOf(schema, { ...ok, list: ['a', 'b', 'c'] }))).toBe('batch_too_large');
    expect(codeOfIssue(map, issueOf(schema, { ...ok, list: [] }))).toBe('no_valid_address');
    expect(codeOfIssue(map, issueOf(schema, { ...ok, list: 'x' }))).toBe('invalid_parameter'); // a kind it does not list
    expect(codeOfIssue(map, issueOf(schema, { ...ok, list: ['abcd'] }))).toBe('invalid_parameter'); // an item, not the list
  });

  it('a prefix covers the fields under it; the longest key wins', () => {
    expect(codeOfIssue(map, issueOf(schema, { ...ok, body: { name: 'x', n: 'y' } }))).toBe('invalid_body');
    expect(codeOfIssue(map, issueOf(schema, { ...ok, body: { name: '', n: 1 } }))).toBe('missing_source_name');
  });

  it('without a map every failure is invalid_parameter', () => {
    expect(codeOfIssue(undefined, issueOf(schema, { ...ok, body: { name: 'x', n: 'y' } }))).toBe('invalid_parameter');
  });
});

describe('the subjects’ maps', () => {
  it('every subject that takes an address list or a body declares how its failures map', () => {
    const declared = SUBJECT_NAMES.filter((s) => SUBJECTS[s].requestErrors !== undefined).sort();
    expect(declared).toEqual(
      [
        'credit.report.aggregate.v1',
        'credit.report.enhanced.v1',
        'credit.sandbox.report.aggregate.v1',
        'credit.sandbox.report.enhanced.v1',
        'credit.sandbox.score.aggregate.v1',
        'credit.sandbox.score.batch.v1',
        'credit.sandbox.score.enhanced.v1',
        'credit.score.aggregate.v1',
        'credit.score.batch.v1',
        'credit.score.enhanced.v1',
      ].sort(),
    );
  });
});
