import { enhancedScore } from '@credit/score-model/boost';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { SANDBOX_DECILE_CUT_POINTS } from '../src/generator/decile-cut-points';
import { sandboxProfile } from '../src/generator/profile';
import { sandboxAddressOfName } from '../src/domain/resolve';
import { scoreAddress } from '../src/use-cases/score-address';
import { scoreAggregate } from '../src/use-cases/score-aggregate';
import { scoreBatch } from '../src/use-cases/score-batch';
import { scoreEnhanced } from '../src/use-cases/score-enhanced';
import { A, B, INVALID, NAME, NOW, codeOf, req, valid } from './support/use-case-calls';

describe('score use cases', () => {
  it('score: docs/API.md §2.1, deterministic, factors only when asked', () => {
    const plain = valid('credit.sandbox.score.address.v1', scoreAddress(req('credit.sandbox.score.address.v1', { address: A }), NOW));
    expect(plain).toEqual({
      address: A,
      score: sandboxProfile(A).score,
      decile: decileOf(sandboxProfile(A).score, SANDBOX_DECILE_CUT_POINTS),
      range: rangeOf(sandboxProfile(A).score),
      model_version: 'andromeda_1.0',
      timestamp: NOW.toISOString(),
    });
    expect(scoreAddress(req('credit.sandbox.score.address.v1', { address: A }), NOW)).toEqual(plain);
    const withFactors = valid(
      'credit.sandbox.score.address.v1',
      scoreAddress(req('credit.sandbox.score.address.v1', { address: A, include_factors: true }), NOW),
    );
    expect(withFactors.factors?.map((f) => f.label)).toEqual([
      'Borrowing History',
      'Wallet Composition',
      'Wallet Health',
      'Interactions',
      'Trust',
      'New Credit',
    ]);
    expect(withFactors.factors?.[0]).toEqual({ label: 'Borrowing History', rating: expect.any(String), description: expect.any(String) });
  });

  it('aggregate: mean of the valid scores rounded, invalid skipped, repeats once', () => {
    const reply = valid(
      'credit.sandbox.score.aggregate.v1',
      scoreAggregate(req('credit.sandbox.score.aggregate.v1', { addresses: [A, INVALID, B, A.toLowerCase(), NAME] }), NOW),
    );
    const scores = [A, B, NAME].map((k) => sandboxProfile(k).score);
    const mean = Math.round((scores[0]! + scores[1]! + scores[2]!) / 3);
    expect(reply.address).toEqual([A, B, sandboxAddressOfName(NAME)]);
    expect(reply.score).toBe(mean);
    expect(reply.decile).toBe(decileOf(mean, SANDBOX_DECILE_CUT_POINTS));
    expect(reply.range).toBe(rangeOf(mean));
  });

  it('aggregate: no valid address is 400 no_valid_address', () => {
    expect(codeOf(() => scoreAggregate(req('credit.sandbox.score.aggregate.v1', { addresses: [INVALID, 'nope'] }), NOW))).toBe(
      'no_valid_address',
    );
  });

  it('batch: one score per valid address, count matches', () => {
    const reply = valid(
      'credit.sandbox.score.batch.v1',
      scoreBatch(req('credit.sandbox.score.batch.v1', { addresses: [A, INVALID, B] }), NOW),
    );
    expect(reply.count).toBe(2);
    expect(reply.scores.map((s) => [s.address, s.score])).toEqual([
      [A, sandboxProfile(A).score],
      [B, sandboxProfile(B).score],
    ]);
    expect(reply.scores[0]!.factors).toBeUndefined();
    expect(codeOf(() => scoreBatch(req('credit.sandbox.score.batch.v1', { addresses: [INVALID] }), NOW))).toBe('no_valid_address');
  });

  it('batch: more than 100 addresses is batch_too_large (request schema)', () => {
    expect(codeOf(() => req('credit.sandbox.score.batch.v1', { addresses: Array.from({ length: 101 }, () => A) }))).toBe('batch_too_large');
  });

  it('enhanced: the profile score plus the boost', () => {
    const base = sandboxProfile(A).score;
    const reply = valid(
      'credit.sandbox.score.enhanced.v1',
      scoreEnhanced(req('credit.sandbox.score.enhanced.v1', { address: A, total_asset_usd: 50_000 }), NOW),
    );
    expect(reply.score).toBe(enhancedScore(base, 50_000));
    expect(reply.score).toBe(base + Math.round(0.15 * (1000 - base)));
    expect(reply.decile).toBe(decileOf(reply.score, SANDBOX_DECILE_CUT_POINTS));
    const none = scoreEnhanced(req('credit.sandbox.score.enhanced.v1', { address: A }), NOW);
    expect(none.score).toBe(base);
    expect(codeOf(() => req('credit.sandbox.score.enhanced.v1', { address: A, total_asset_usd: -1 }))).toBe('invalid_body');
    expect(codeOf(() => scoreEnhanced(req('credit.sandbox.score.enhanced.v1', { address: INVALID }), NOW))).toBe('address_not_found');
  });
});
