import type { FastifyRequest } from 'fastify';
import { DomainError, errorBody } from '@credit/contracts/errors';
import { parseRequest } from '@credit/contracts/validate';
import { HTTP_ADDRESSES, HTTP_INPUT } from '../src/routes/http-input';

/** HTTP → subject request, read from each operation's definition (path, query and body inputs). */
const req = (parts: { params?: Record<string, string>; query?: Record<string, string | string[]>; body?: unknown }) =>
  ({ params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body }) as unknown as FastifyRequest;

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? [error.code, error.message] : error;
  }
  return undefined;
};

describe('HTTP_INPUT', () => {
  it('a path parameter fills the field of its name; chain_id becomes a number', () => {
    expect(HTTP_INPUT.reportFull(req({ params: { address: 'vitalik.eth' } }))).toEqual({ address: 'vitalik.eth' });
    expect(HTTP_INPUT.reportChainTotalUsd(req({ params: { address: '0xabc', chain_id: '8453' } }))).toEqual({
      address: '0xabc',
      chain_id: 8453,
    });
  });

  it('a chain id that is not a positive integer is invalid_parameter', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '', '1e3', '9'.repeat(16)]) {
      expect([bad, codeOf(() => HTTP_INPUT.reportChain(req({ params: { address: '0xabc', chain_id: bad } })))]).toEqual([
        bad,
        ['invalid_parameter', 'chain_id must be a positive integer'],
      ]);
    }
  });

  it('an address list is split on commas, repeated parameters joined, blanks dropped', () => {
    expect(HTTP_INPUT.scoreAggregate(req({ query: { address: ' a, ,b,' } }))).toEqual({ addresses: ['a', 'b'] });
    expect(HTTP_INPUT.reportAggregate(req({ query: { address: ['a,b', 'c'] } }))).toEqual({ addresses: ['a', 'b', 'c'] });
    expect(HTTP_INPUT.scoreBatch(req({}))).toEqual({ addresses: [], include_factors: false });
  });

  it('a flag is true or false (1 or 0), absent or empty is false, anything else invalid_parameter', () => {
    const flag = (value?: string) =>
      HTTP_INPUT.scoreAddress(req({ params: { address: 'a' }, query: value === undefined ? {} : { include_factors: value } }));
    expect([flag(), flag(''), flag('false'), flag('0')].map((r) => r.include_factors)).toEqual([false, false, false, false]);
    expect([flag('true'), flag('1')].map((r) => r.include_factors)).toEqual([true, true]);
    expect(codeOf(() => flag('yes'))).toEqual(['invalid_parameter', 'include_factors must be true or false']);
  });

  it('a body adds only the fields its schema names, and only those given', () => {
    const body = { total_asset_usd: 50, name: 'x', count_transactions: 3 };
    expect(HTTP_INPUT.scoreEnhanced(req({ params: { address: 'a' }, body }))).toEqual({
      address: 'a',
      include_factors: false,
      total_asset_usd: 50,
    });
    expect(HTTP_INPUT.scoreEnhanced(req({ params: { address: 'a' }, body: {} }))).toEqual({ address: 'a', include_factors: false });
  });

  it('a body under its field goes whole; a missing or non-object body reads as {}', () => {
    const source = { name: 'bank', total_asset_usd: 1 };
    expect(HTTP_INPUT.reportEnhanced(req({ params: { address: 'a' }, body: source }))).toEqual({ address: 'a', source });
    for (const body of [undefined, null, [], 'text']) {
      expect(HTTP_INPUT.reportEnhanced(req({ params: { address: 'a' }, body }))).toEqual({ address: 'a', source: {} });
    }
  });
});

describe('an integer query parameter: scoreHistory days', () => {
  const input = (days?: string) => HTTP_INPUT.scoreHistory(req({ params: { address: 'a' }, query: days === undefined ? {} : { days } }));
  /** What goes on the wire: the HTTP input through the subject's schema, as the gateway's client sends it. */
  const onWire = (days?: string) => parseRequest('credit.score.history.v1', input(days));
  /** The status and body the gateway answers for the first failure on the way. */
  const refusal = (days: string) => {
    try {
      onWire(days);
    } catch (error) {
      if (error instanceof DomainError) return [error.code, error.status, errorBody(error)];
      throw error;
    }
    return undefined;
  };

  it('absent (or empty) is left out, so the schema default applies: 90', () => {
    expect(input()).toEqual({ address: 'a' });
    expect(input('')).toEqual({ address: 'a' });
    expect(onWire()).toEqual({ address: 'a', days: 90 });
  });

  it('decimal digits become the number', () => {
    expect(input('7')).toEqual({ address: 'a', days: 7 });
    expect(onWire('7')).toEqual({ address: 'a', days: 7 });
    expect([onWire('1').days, onWire('365').days, onWire('007').days]).toEqual([1, 365, 7]);
  });

  it('0 and 366 are read, then refused by the schema: 400 invalid_parameter with a {detail} body', () => {
    expect(input('0')).toEqual({ address: 'a', days: 0 });
    expect(refusal('0')).toEqual(['invalid_parameter', 400, { detail: 'days: must be at least 1' }]);
    expect(refusal('366')).toEqual(['invalid_parameter', 400, { detail: 'days: must be at most 365' }]);
  });

  it('anything but digits is 400 invalid_parameter before the schema', () => {
    for (const bad of ['abc', '1.5', '-1', '+7', '1e3', ' 7', '0x10', '9'.repeat(10)]) {
      expect([bad, codeOf(() => input(bad))]).toEqual([bad, ['invalid_parameter', 'days must be a whole number']]);
      expect([bad, refusal(bad)]).toEqual([bad, ['invalid_parameter', 400, { detail: 'days must be a whole number' }]]);
    }
  });

  it('a repeated parameter is not a number either', () => {
    const repeated = () => HTTP_INPUT.scoreHistory(req({ params: { address: 'a' }, query: { days: ['7', '8'] } }));
    expect(codeOf(repeated)).toEqual(['invalid_parameter', 'days must be a whole number']);
  });
});

describe('HTTP_ADDRESSES', () => {
  it('the operations with an address list, and only they, give it to the per-address price', () => {
    expect(Object.keys(HTTP_ADDRESSES).sort()).toEqual(['reportAggregate', 'scoreAggregate', 'scoreBatch']);
    expect(HTTP_ADDRESSES.scoreBatch!(req({ query: { address: ['a,b', 'c'] } }))).toEqual(['a', 'b', 'c']);
  });
});
