import type { Address } from 'viem';
import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { byPointsLost } from '@credit/score-model/andromeda/factors';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { enhancedScore } from '@credit/score-model/boost';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import type { CastRole } from '@credit/devnet/state-file';
import { codeOf } from '@credit/testing/domain-errors';
import { factorDescription } from '../src/domain/replies';
import { scoringWorld } from './support/scoring-world';

/**
 * The four score subjects over NATS on a seeded, indexed devnet (`support/scoring-world.ts`):
 * every score is the model's applied in the test itself to the same rows, chain state and
 * attestations; and each subject's refusals.
 */
jest.setTimeout(180_000);

const t = scoringWorld();
const { cast, population, expectedScore, expectedScores, expectedFeatures, expectShape } = t;

describe('credit.score.address.v1', () => {
  const roles: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'ens_holder'];

  it.each(roles)('scores the %s as the model does on the same rows and chain state', async (role) => {
    const address = cast(role);
    const expected = await expectedScore(address);
    expect(expected).not.toBeNull();
    const result = await t.client.send('credit.score.address.v1', { address: address.toLowerCase() });
    expectShape(result, address, expected!);
    expect(result).not.toHaveProperty('factors');
  });

  it("names the liquidated wallet's liquidation in its Borrowing History, and would hold it below the healthy borrower while it recovers", async () => {
    const healthy = await t.client.send('credit.score.address.v1', { address: cast('healthy_borrower') });
    const liquidated = await t.client.send('credit.score.address.v1', { address: cast('liquidated'), include_factors: true });
    const history = liquidated.factors!.find((f) => f.label === 'Borrowing History')!.description;
    expect(history).toMatch(/days since the last liquidation \d+ → bin \[730, 100000\)/);
    // the same wallet liquidated a month ago: capped at 300 + 700 × (1 − 2^(−1)) = 650
    const features = (await expectedFeatures([cast('liquidated')])).get(cast('liquidated'))!;
    expect(scoreWallet({ ...features, daysSinceLastLiquidation: 30 }).score).toBe(650);
    expect(650).toBeLessThan(healthy.score);
  });

  it('lists the six factors in adverse-action order (most score points lost first), with points and reasons that add up to the score', async () => {
    const address = cast('healthy_borrower');
    const result = await t.client.send('credit.score.address.v1', { address, include_factors: true });
    expect([...result.factors!.map((f) => f.label)].sort()).toEqual([...FACTOR_LABELS].sort());
    const model = scoreWallet((await expectedFeatures([address])).get(address)!);
    expect(result.factors).toEqual(
      byPointsLost(model.factors).map((f) => ({ label: f.label, rating: f.rating, description: factorDescription(f) })),
    );
    const lost = result.factors!.map((f) => Number(/, ([\d.]+) score points below/.exec(f.description)![1]));
    expect(lost).toEqual([...lost].sort((a, b) => b - a));
  });

  it('answers a wallet without activity with 404 no_activity', async () => {
    expect(await expectedScore(cast('empty'))).toBeNull();
    await expect(t.client.send('credit.score.address.v1', { address: cast('empty') })).rejects.toMatchObject({
      code: 'no_activity',
      message: `No on-chain activity found for ${cast('empty')}`,
    });
  });

  it('resolves an ENS name to the holder: same address, same score', async () => {
    const byName = await t.client.send('credit.score.address.v1', { address: 'ada.eth' });
    const byHex = await t.client.send('credit.score.address.v1', { address: cast('ens_holder') });
    expect(byName.address).toBe(cast('ens_holder'));
    expect(byName.score).toBe(byHex.score);
  });

  it('answers an invalid address or a name that resolves to nothing with 404 address_not_found', async () => {
    expect(await codeOf(t.client.send('credit.score.address.v1', { address: 'not-an-address' }))).toBe('address_not_found');
    expect(await codeOf(t.client.send('credit.score.address.v1', { address: 'nobody-registered-this.eth' }))).toBe('address_not_found');
    const mixedBad = `0x${cast('healthy_borrower').slice(2, 41)}${cast('healthy_borrower').slice(41) === 'a' ? 'B' : 'a'}`;
    expect(await codeOf(t.client.send('credit.score.address.v1', { address: mixedBad }))).toBe('address_not_found');
  });
});

describe('credit.score.aggregate.v1', () => {
  it('averages the valid addresses with activity: invalid and inactive skipped, repeats once', async () => {
    const healthy = cast('healthy_borrower');
    const liquidated = cast('liquidated');
    const result = await t.client.send('credit.score.aggregate.v1', {
      addresses: [healthy, 'bad', liquidated, healthy.toLowerCase(), cast('empty'), 'nobody-registered-this.eth'],
    });
    const scores = await expectedScores([healthy, liquidated]);
    const mean = Math.round((scores.get(healthy)! + scores.get(liquidated)!) / 2);
    expect(result).toMatchObject({
      address: [healthy, liquidated],
      score: mean,
      decile: decileOf(mean, ANDROMEDA_1_0.decileCutPoints),
      range: rangeOf(mean),
      model_version: 'andromeda_1.0',
    });
  });

  it('answers no valid address with 400 no_valid_address, and only inactive ones with 404 no_activity', async () => {
    await expect(t.client.send('credit.score.aggregate.v1', { addresses: ['bad', '0x123'] })).rejects.toMatchObject({
      code: 'no_valid_address',
      message: 'No valid address supplied',
    });
    expect(await codeOf(t.client.send('credit.score.aggregate.v1', { addresses: ['bad', cast('empty')] }))).toBe('no_activity');
  });
});

describe('credit.score.batch.v1', () => {
  it('scores each valid address with activity once, in order; factors only when asked for', async () => {
    const addresses = [cast('multichain'), 'bad', cast('empty'), cast('new_wallet'), cast('multichain').toLowerCase(), 'ada.eth'];
    const plain = await t.client.send('credit.score.batch.v1', { addresses });
    expect(plain.count).toBe(3);
    expect(plain.scores.map((s) => s.address)).toEqual([cast('multichain'), cast('new_wallet'), cast('ens_holder')]);
    const expected = await expectedScores([cast('multichain'), cast('new_wallet'), cast('ens_holder')]);
    for (const s of plain.scores) {
      expectShape(s, s.address as Address, expected.get(s.address as Address)!);
      expect(s).not.toHaveProperty('factors');
    }
    const detailed = await t.client.send('credit.score.batch.v1', { addresses, include_factors: true });
    expect(detailed.count).toBe(3);
    for (const s of detailed.scores) expect([...s.factors!.map((f) => f.label)].sort()).toEqual([...FACTOR_LABELS].sort());
  });

  it('answers no valid address with 400 no_valid_address, inactive ones with an empty batch, more than 100 with 400', async () => {
    expect(await codeOf(t.client.send('credit.score.batch.v1', { addresses: ['bad'] }))).toBe('no_valid_address');
    expect(await t.client.send('credit.score.batch.v1', { addresses: [cast('empty')] })).toEqual({ scores: [], count: 0 });
    expect(await codeOf(t.client.send('credit.score.batch.v1', { addresses: population(0, 101) }))).toBe('batch_too_large');
  });
});

describe('credit.score.enhanced.v1', () => {
  it('boosts the on-chain score by the off-chain assets (docs/MODEL.md), decile and range of the boosted score', async () => {
    const address = cast('liquidated');
    const base = (await expectedScore(address))!;
    for (const assets of [0, 12_345, 50_000, 1_000_000]) {
      const result = await t.client.send('credit.score.enhanced.v1', { address, total_asset_usd: assets });
      const boosted = enhancedScore(base, assets);
      expectShape(result, address, boosted);
      expect(result.score).toBeLessThanOrEqual(1000);
    }
    const none = await t.client.send('credit.score.enhanced.v1', { address });
    expect(none.score).toBe(base);
  });

  it('answers no activity with 404 no_activity and an invalid address with 404 address_not_found', async () => {
    expect(await codeOf(t.client.send('credit.score.enhanced.v1', { address: cast('empty'), total_asset_usd: 50_000 }))).toBe(
      'no_activity',
    );
    expect(await codeOf(t.client.send('credit.score.enhanced.v1', { address: 'bad', total_asset_usd: 50_000 }))).toBe('address_not_found');
  });
});

describe('credit.score.watch.v1', () => {
  it('scores afresh, with the model’s factors and points; the API then answers the same score', async () => {
    const healthy = cast('healthy_borrower');
    const expected = await expectedScore(healthy);
    const { scores } = await t.client.send('credit.score.watch.v1', { addresses: [healthy, cast('empty')] });
    const model = scoreWallet((await expectedFeatures([healthy])).get(healthy)!);
    expect(scores).toEqual([
      {
        address: healthy,
        score: expected,
        decile: decileOf(expected!, ANDROMEDA_1_0.decileCutPoints),
        range: rangeOf(expected!),
        factors: model.factors.map(({ label, points, rating }) => ({ label, points, rating })),
      },
      { address: cast('empty'), score: null, decile: null, range: null, factors: [] },
    ]);
    expect((await t.client.send('credit.score.address.v1', { address: healthy })).score).toBe(expected);
  });

  it('takes checksummed addresses only, 1 to 100 (refused by the contract before anything is sent)', async () => {
    for (const addresses of [[cast('healthy_borrower').toLowerCase()], [], population(0, 101)]) {
      await expect(t.client.send('credit.score.watch.v1', { addresses })).rejects.toThrow();
    }
  });
});
