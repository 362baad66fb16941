import { DomainError, type ErrorCode } from '../src/errors';
import { parseReply, parseRequest } from '../src/validate';
import type { SubjectName } from '../src/subjects';
import { MAX_INPUT_COUNT, MAX_INPUT_USD } from '../src/schemas/common';

/**
 * parseRequest / parseReply: the first failing issue decides the code, and so the status
 * and body shape (docs/API.md §4, §7; docs/ARCHITECTURE.md "Error bodies").
 */
const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

function rejection(subject: SubjectName, payload: unknown): DomainError {
  try {
    parseRequest(subject, payload as never);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw new Error(`expected a DomainError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected ${subject} to reject ${JSON.stringify(payload)}`);
}

const codeOf = (subject: SubjectName, payload: unknown): ErrorCode => rejection(subject, payload).code;

describe('parseRequest: address lists', () => {
  it.each(['credit.score.batch.v1', 'credit.sandbox.score.batch.v1'] as const)(
    '%s: 101 addresses → batch_too_large, naming the maximum of 100',
    (subject) => {
      const error = rejection(subject, { addresses: Array.from({ length: 101 }, () => A) });
      expect(error.code).toBe('batch_too_large');
      expect(error.message).toMatch(/\b100\b/);
      expect(error.status).toBe(400);
    },
  );

  it('100 addresses is still a valid batch', () => {
    const parsed = parseRequest('credit.score.batch.v1', { addresses: Array.from({ length: 100 }, () => A) });
    expect(parsed.addresses).toHaveLength(100);
  });

  it.each([
    'credit.score.aggregate.v1',
    'credit.report.aggregate.v1',
    'credit.sandbox.score.aggregate.v1',
    'credit.sandbox.report.aggregate.v1',
  ] as const)('%s: aggregates are bounded at 100 too (ARCHITECTURE 5)', (subject) => {
    expect(codeOf(subject, { addresses: Array.from({ length: 101 }, () => A) })).toBe('batch_too_large');
    expect(parseRequest(subject, { addresses: Array.from({ length: 100 }, () => A) }).addresses).toHaveLength(100);
  });

  it.each(['credit.score.batch.v1', 'credit.score.aggregate.v1', 'credit.report.aggregate.v1', 'credit.sandbox.score.batch.v1'] as const)(
    '%s: an empty list → no_valid_address ({error, status_code} body)',
    (subject) => {
      const error = rejection(subject, { addresses: [] });
      expect(error.code).toBe('no_valid_address');
      expect(error.message.length).toBeGreaterThan(0);
    },
  );

  it('a missing list is a bad parameter, not an empty one', () => {
    expect(codeOf('credit.score.batch.v1', {})).toBe('invalid_parameter');
  });

  it('entries are trimmed and kept in order', () => {
    const parsed = parseRequest('credit.score.aggregate.v1', { addresses: [` ${A} `, 'vitalik.eth  '] });
    expect(parsed.addresses).toEqual([A, 'vitalik.eth']);
  });
});

describe('parseRequest: enhanced report body', () => {
  it.each(['credit.report.enhanced.v1', 'credit.sandbox.report.enhanced.v1'] as const)(
    '%s without source.name → missing_source_name with the message of docs/API.md §4.2',
    (subject) => {
      for (const source of [{}, { total_asset_usd: 5 }, { name: '' }, { name: '   ' }]) {
        const error = rejection(subject, { address: A, source });
        expect(error.code).toBe('missing_source_name');
        expect(error.message).toBe('Additional data must provide a name field');
        expect(error.status).toBe(400);
      }
    },
  );

  it.each([
    [{ name: 'bank', total_asset_usd: -1 }],
    [{ name: 'bank', total_collateral_usd: -0.01 }],
    [{ name: 'bank', total_debt_usd: -5 }],
    [{ name: 'bank', count_transactions: -1 }],
    [{ name: 'bank', count_transfers: -3 }],
    [{ name: 'bank', count_transactions: 1.5 }],
    [{ name: 'bank', count_transfers: 0.1 }],
    [{ name: 'bank', total_asset_usd: '100' }],
  ])('source %j → invalid_body ({error} body)', (source) => {
    const error = rejection('credit.report.enhanced.v1', { address: A, source });
    expect(error.code).toBe('invalid_body');
    // The message names the offending field.
    const field = Object.keys(source).find((k) => k !== 'name')!;
    expect(error.message).toContain(field);
  });

  it('a valid body is accepted, the name trimmed, zero allowed', () => {
    const parsed = parseRequest('credit.report.enhanced.v1', {
      address: A,
      source: { name: ' bank ', total_asset_usd: 0, count_transactions: 0, count_transfers: 12 },
    });
    expect(parsed).toEqual({
      address: A,
      source: { name: 'bank', total_asset_usd: 0, count_transactions: 0, count_transfers: 12 },
    });
  });
});

describe('parseRequest: enhanced score', () => {
  it.each(['credit.score.enhanced.v1', 'credit.sandbox.score.enhanced.v1'] as const)(
    '%s: negative total_asset_usd → invalid_body',
    (subject) => {
      const error = rejection(subject, { address: A, total_asset_usd: -1 });
      expect(error.code).toBe('invalid_body');
      expect(error.message).toContain('total_asset_usd');
    },
  );

  it('a non-number total_asset_usd is also a bad body field', () => {
    expect(codeOf('credit.score.enhanced.v1', { address: A, total_asset_usd: '12' })).toBe('invalid_body');
  });

  it('include_factors defaults to false and is kept when given', () => {
    expect(parseRequest('credit.score.enhanced.v1', { address: A, total_asset_usd: 10 })).toEqual({
      address: A,
      total_asset_usd: 10,
      include_factors: false,
    });
    expect(parseRequest('credit.score.enhanced.v1', { address: A, include_factors: true }).include_factors).toBe(true);
  });
});

describe('parseRequest: bounds of supplied figures (sums stay finite and exact)', () => {
  it.each([
    ['credit.sandbox.report.enhanced.v1', { source: { name: 'bank', total_asset_usd: 1e307 } }, 'total_asset_usd'],
    ['credit.report.enhanced.v1', { source: { name: 'bank', total_debt_usd: MAX_INPUT_USD + 0.01 } }, 'total_debt_usd'],
    ['credit.sandbox.report.enhanced.v1', { source: { name: 'bank', count_transactions: Number.MAX_SAFE_INTEGER } }, 'count_transactions'],
    ['credit.report.enhanced.v1', { source: { name: 'bank', count_transfers: MAX_INPUT_COUNT + 1 } }, 'count_transfers'],
    ['credit.sandbox.score.enhanced.v1', { total_asset_usd: 1e307 }, 'total_asset_usd'],
    ['credit.score.enhanced.v1', { total_asset_usd: MAX_INPUT_USD * 10 }, 'total_asset_usd'],
  ] as const)('%s %j → invalid_body naming the field and its maximum', (subject, body, field) => {
    const error = rejection(subject, { address: A, ...body });
    expect(error.code).toBe('invalid_body');
    expect(error.message).toMatch(new RegExp(`^${field}: must be at most \\d+$`));
  });

  it('the maxima themselves are accepted', () => {
    const source = { name: 'bank', total_asset_usd: MAX_INPUT_USD, count_transactions: MAX_INPUT_COUNT };
    expect(parseRequest('credit.report.enhanced.v1', { address: A, source }).source).toEqual(source);
    expect(parseRequest('credit.score.enhanced.v1', { address: A, total_asset_usd: MAX_INPUT_USD }).total_asset_usd).toBe(MAX_INPUT_USD);
  });
});

describe('parseRequest: parameters', () => {
  it.each(['credit.report.chain.v1', 'credit.report.chain-total-usd.v1', 'credit.sandbox.report.chain.v1'] as const)(
    '%s: chain_id 0, negative, fractional or a string → invalid_parameter ({detail} body)',
    (subject) => {
      for (const chain_id of [0, -1, 1.5, '1']) {
        const error = rejection(subject, { address: A, chain_id });
        expect(error.code).toBe('invalid_parameter');
        expect(error.message).toContain('chain_id');
      }
      expect(parseRequest(subject, { address: A, chain_id: 8453 })).toEqual({ address: A, chain_id: 8453 });
    },
  );

  // BUG (validate.ts `describe`, line 61): every number `too_small` issue is described as
  // "must be a non-negative number", also for ChainId (`.positive()`), so chain_id 0 is rejected
  // with "chain_id: must be a non-negative number" although 0 is non-negative.
  it('chain_id 0 is not rejected with a message claiming it must be non-negative', () => {
    expect(rejection('credit.report.chain.v1', { address: A, chain_id: 0 }).message).not.toMatch(/non-negative/);
  });

  it.each(['credit.score.address.v1', 'credit.sandbox.score.address.v1', 'credit.score.batch.v1'] as const)(
    '%s: include_factors defaults to false',
    (subject) => {
      const payload = subject.includes('batch') ? { addresses: [A] } : { address: A };
      expect((parseRequest(subject, payload) as { include_factors: boolean }).include_factors).toBe(false);
    },
  );

  it('a blank address, a non-boolean flag or a non-object request → invalid_parameter', () => {
    expect(codeOf('credit.score.address.v1', { address: '   ' })).toBe('invalid_parameter');
    expect(codeOf('credit.score.address.v1', {})).toBe('invalid_parameter');
    expect(codeOf('credit.score.address.v1', { address: A, include_factors: 'yes' })).toBe('invalid_parameter');
    expect(codeOf('credit.score.address.v1', null)).toBe('invalid_parameter');
    expect(codeOf('credit.identity.attestations.v1', 'vitalik.eth')).toBe('invalid_parameter');
  });

  it('the address is trimmed but otherwise passed on as given (classification is the service’s job)', () => {
    expect(parseRequest('credit.score.address.v1', { address: '  Vitalik.ETH ' })).toEqual({
      address: 'Vitalik.ETH',
      include_factors: false,
    });
  });
});

describe('parseReply', () => {
  const valid = {
    address: A,
    score: 742,
    decile: 8,
    range: 'good',
    model_version: 'andromeda_1.0',
    timestamp: '2026-01-02T03:04:05.000Z',
  };

  it('returns a valid reply, dropping fields outside the contract', () => {
    expect(parseReply('credit.score.address.v1', { ...valid, internal_note: 'x' })).toEqual(valid);
  });

  it.each([
    ['a score out of range', { ...valid, score: 1001 }, 'score'],
    ['a wrong model version', { ...valid, model_version: 'other' }, 'model_version'],
    ['an unchecksummed-shape address', { ...valid, address: 'vitalik.eth' }, 'address'],
    ['a missing field', { ...valid, decile: undefined }, 'decile'],
    ['nothing at all', undefined, '(root)'],
    ['a string', 'ok', '(root)'],
  ])('%s → internal, naming the subject and the path', (_label, reply, path) => {
    let caught: unknown;
    try {
      parseReply('credit.score.address.v1', reply);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    const e = caught as DomainError;
    expect(e.code).toBe('internal');
    expect(e.status).toBe(500);
    expect(e.message).toContain('credit.score.address.v1');
    expect(e.message).toContain(path);
  });
});

describe('parseRequest: score history days', () => {
  it.each(['credit.score.history.v1', 'credit.sandbox.score.history.v1'] as const)(
    '%s: days defaults to 90; outside 1..365 or not whole → invalid_parameter ({detail} body) naming days',
    (subject) => {
      expect(parseRequest(subject, { address: A })).toEqual({ address: A, days: 90 });
      expect(parseRequest(subject, { address: A, days: 7 }).days).toBe(7);
      for (const days of [0, -1, 366, 1.5, '7']) {
        const error = rejection(subject, { address: A, days });
        expect([days, error.code, error.status]).toEqual([days, 'invalid_parameter', 400]);
        expect(error.message).toMatch(/^days: /);
      }
      expect(rejection(subject, { address: A, days: 0 }).message).toBe('days: must be at least 1');
      expect(rejection(subject, { address: A, days: 366 }).message).toBe('days: must be at most 365');
    },
  );
});
