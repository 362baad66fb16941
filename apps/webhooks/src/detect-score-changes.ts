import type { WatchedScore } from '@credit/contracts/schemas/score-watch';
import type { StoredScore, Watch, WebhookScoreRepository } from '@credit/db/webhook-score-repository';
import type { DetectJob } from '@credit/webhook-delivery/detect-queue';
import type { ScoreChange } from './queue-score-change';

/** Addresses asked of the scoring service at once (`credit.score.watch.v1` takes 100). */
const SCORED_AT_ONCE = 100;

export interface DetectDeps {
  scores: Pick<WebhookScoreRepository, 'watchedTouched' | 'allWatched' | 'watchesOf' | 'withStoredScore'>;
  /** Fresh scores from the scoring service (`credit.score.watch.v1`). */
  scoreNow(addresses: string[]): Promise<WatchedScore[]>;
  /** Charges and queues one `score.changed` (`queueScoreChange`). */
  notify(change: ScoreChange): Promise<'queued' | 'not_charged' | 'webhook_deleted'>;
}

/**
 * Thrown for a webhook whose baselines its creation has not stored yet (the gateway stores them
 * before it answers 201): the job is retried, and compares with them once they are there.
 */
export class BaselinePending extends Error {
  constructor(watch: Watch) {
    super(`webhook ${watch.webhookId}: no baseline for ${watch.address} yet`);
    this.name = 'BaselinePending';
  }
}

export interface DetectResult {
  scored: number;
  queued: number;
  notCharged: number;
}

/**
 * Score-change detection for one committed range (issue 38; decision 38), run as soon as the
 * range is committed: the watched addresses active in it, or every watched address when a price
 * feed moved in it, are scored afresh (the reading covers the blocks the index has not reached yet
 * from the chain itself, so a range committed before an earlier one is read whole); each (webhook, address) whose
 * score moved by at least the webhook's `min_change` since the last score stored for it gets a
 * `score.changed`, and the new score is stored. The comparison, the event and the store run under
 * the stored score's row lock, so two detections of one address never send one change twice.
 */
export async function detectScoreChanges(job: DetectJob, deps: DetectDeps): Promise<DetectResult> {
  const addresses = job.priceFeedUpdated
    ? await deps.scores.allWatched()
    : await deps.scores.watchedTouched(job.chainId, BigInt(job.fromBlock), BigInt(job.toBlock));
  const result: DetectResult = { scored: 0, queued: 0, notCharged: 0 };
  for (let i = 0; i < addresses.length; i += SCORED_AT_ONCE) {
    const chunk = addresses.slice(i, i + SCORED_AT_ONCE);
    const fresh = new Map((await deps.scoreNow(chunk)).map((s) => [s.address, s]));
    result.scored += fresh.size;
    for (const watch of await deps.scores.watchesOf(chunk)) {
      const current = fresh.get(watch.address);
      if (current === undefined) continue;
      await deps.scores.withStoredScore(watch.webhookId, watch.address, async (stored) => {
        if (stored === null) throw new BaselinePending(watch);
        const verdict = judge(stored, current, watch);
        if (verdict.kind === 'same') return undefined;
        if (verdict.kind === 'changed') {
          const outcome = await deps.notify(verdict.change);
          if (outcome === 'queued') result.queued += 1;
          if (outcome === 'not_charged') result.notCharged += 1;
        }
        return storedOf(current);
      });
    }
  }
  return result;
}

type Verdict = { kind: 'same' } | { kind: 'rebaseline' } | { kind: 'changed'; change: ScoreChange };

/**
 * A move of `min_change` or more is a change. From or to "no activity" (no score on one side), the
 * new score becomes the baseline and nothing is sent: an event shows two scores.
 */
function judge(stored: StoredScore, current: WatchedScore, watch: Watch): Verdict {
  if (stored.score === null || current.score === null) return stored.score === current.score ? { kind: 'same' } : { kind: 'rebaseline' };
  if (Math.abs(current.score - stored.score) < watch.minChange) return { kind: 'same' };
  const before = new Map(stored.factors.map((f) => [f.label, f]));
  const factorsChanged = current.factors
    .filter((f) => before.get(f.label)?.points !== f.points || before.get(f.label)?.rating !== f.rating)
    .map((f) => f.label);
  return {
    kind: 'changed',
    change: {
      watch,
      data: {
        address: watch.address,
        previous: { score: stored.score, decile: stored.decile!, range: stored.range! },
        current: { score: current.score, decile: current.decile!, range: current.range! },
        factors_changed: factorsChanged,
      },
    },
  };
}

function storedOf(score: WatchedScore): StoredScore {
  return { score: score.score, decile: score.decile, range: score.range, factors: score.factors };
}
