import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { aucMannWhitney, scoreRisk } from '../src/calibration/auc';
import { parseCastTable } from '../src/calibration/model-card';
import { runReferenceCalibration, type ReferenceRun } from '../src/calibration/reference-run';
import type { EvaluationReport } from '../src/evaluation/evaluation-report';
import { evaluationWorlds, protocolHash, tableHash } from '../src/evaluation/protocol';
import type { Registration } from '../src/evaluation/registration';
import { atRisk } from '../src/evaluation/world-dataset';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';

/**
 * The model card's guard: andromeda_1.0 rerun on the reference world (real devnet, real indexer,
 * real readers): the table must be the registered one, fitted on the registered protocol, the cast must still
 * score as the card's table says, no liquidation may raise a score and no repayment lower one; and
 * on a held-out world of the registered evaluation protocol (not the reference world, which is a
 * training world) it must rank the liquidations within the spread the protocol measured.
 */
jest.setTimeout(600_000);

const DOCS = join(__dirname, '..', '..', '..', 'docs');
const MODEL_MD = readFileSync(join(DOCS, 'MODEL.md'), 'utf8');
const EVALUATION = JSON.parse(readFileSync(join(DOCS, 'model-evaluation.json'), 'utf8')) as EvaluationReport;
const REGISTRATION = JSON.parse(readFileSync(join(DOCS, 'model-registration.json'), 'utf8')) as Registration;
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

let run: ReferenceRun;

beforeAll(async () => {
  run = await runReferenceCalibration({ redisUrl: REDIS_URL, natsUrl: NATS_URL, replay: true });
});

describe('andromeda_1.0 on the reference world', () => {
  it('the liquidated wallets scored lower on average at the features moment', () => {
    expect(run.preShock.liquidated).toBeGreaterThan(0);
    expect(run.preShock.meanScoreLiquidated!).toBeLessThan(run.preShock.meanScoreOthers!);
  });

  it('no liquidation raises a score and no repayment lowers one (every event replayed, one block before and after)', () => {
    const liquidations = run.replay.filter((e) => e.kind === 'liquidation');
    const repayments = run.replay.filter((e) => e.kind === 'repay');
    expect(liquidations.length).toBeGreaterThan(20);
    expect(repayments.length).toBeGreaterThan(100);
    const raised = liquidations.filter((e) => e.after! > e.before!);
    const lowered = repayments.filter((e) => e.after! < e.before!);
    expect(run.replay.filter((e) => e.before === null || e.after === null)).toEqual([]);
    expect(raised).toEqual([]);
    expect(lowered).toEqual([]);
    // a liquidation is felt: most lower the score
    expect(liquidations.filter((e) => e.after! < e.before!).length).toBeGreaterThan(liquidations.length / 2);
  });

  it('its table was fitted on the registered protocol, and the registration names this table', () => {
    expect(ANDROMEDA_1_0.fittedOn.protocol).toBe(protocolHash());
    expect(REGISTRATION).toMatchObject({ tableHash: tableHash(), protocolHash: protocolHash(), revision: ANDROMEDA_1_0.revision });
  });

  it("scores each cast wallet as the card's table says", () => {
    const table = parseCastTable(MODEL_MD);
    expect(table.map((row) => row.address)).toEqual(run.cast.map((c) => c.address));
    for (const c of run.cast) {
      const row = table.find((r) => r.address === c.address)!;
      if (c.result === null) {
        expect(row.score).toBeNull();
        continue;
      }
      expect({
        role: c.role,
        score: c.result.score,
        decile: decileOf(c.result.score, ANDROMEDA_1_0.decileCutPoints),
        range: rangeOf(c.result.score),
      }).toEqual({
        role: row.role,
        score: row.score,
        decile: row.decile,
        range: row.range,
      });
      for (const label of FACTOR_LABELS) {
        const factor = c.result.factors.find((f) => f.label === label)!;
        expect({ label, points: factor.points, rating: factor.rating }).toEqual({ label, ...row.factors[label] });
      }
    }
  });

  it("keeps the cast's story: the liquidated wallet below the healthy borrower while it recovers, the new wallet held low, the empty one unscored", () => {
    const score = (role: string) => run.cast.find((c) => c.role === role)!.result?.score ?? null;
    const liquidated = run.cast.find((c) => c.role === 'liquidated')!;
    expect(scoreWallet({ ...liquidated.features, daysSinceLastLiquidation: 30 }).score).toBeLessThan(score('healthy_borrower')!);
    expect(rangeOf(score('new_wallet')!)).toBe('low');
    expect(score('empty')).toBeNull();
  });
});

describe('andromeda_1.0 on a held-out world of the evaluation protocol', () => {
  it('the evaluation in docs/model-evaluation.json is of this very table and protocol', () => {
    expect(EVALUATION.tableHash).toBe(tableHash());
    expect(EVALUATION.protocolHash).toBe(protocolHash());
  });

  it(`ranks the held-out world's liquidations among its wallets at risk within the measured spread (at or above the held-out worlds' 5th percentile)`, async () => {
    const world = evaluationWorlds().find((w) => w.name === EVALUATION.guard.world)!;
    expect(world.role).toBe('held-out');
    const heldOut = await runReferenceCalibration({
      redisUrl: REDIS_URL,
      natsUrl: NATS_URL,
      world: { seed: world.seed, populationSize: world.populationSize, params: world.params },
    });
    const members = heldOut.members.preShock.filter(atRisk);
    const auc = aucMannWhitney(
      members.map((m) => scoreRisk(scoreWallet(m.features).score)),
      members.map((m) => m.liquidated),
    );
    expect(auc).toBeGreaterThanOrEqual(EVALUATION.guard.minWorldAuc);
    // the world is seeded deterministically: the figure is the one the evaluation recorded
    expect(auc).toBeCloseTo(EVALUATION.guard.worldAuc, 10);
  });
});
