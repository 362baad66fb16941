import type { BatchItem } from './admission-batches';
import type { FreeLeases } from './free-leases';
import type { RatePolicy, RateState } from './meter';

/**
 * Each request of a charged item, answered as if it had come alone: in order, a request takes a
 * token while one is left (`passed` of them), and of those the first `admitted` are charged.
 * `look` keeps what the answer left for the bucket (tokens, and CU; null: unlimited).
 */
export function answerCharged(
  item: BatchItem,
  reply: (number | string)[],
  at: number,
  look: (bucket: string, tokens: number, cu: number | null) => void,
): void {
  const passed = Number(reply[at]);
  const admitted = Number(reply[at + 1]);
  const used = Number(reply[at + 2]);
  const tokens = Number(reply[at + 3]);
  const { cost, requests } = item;
  const { policy, allowance } = requests[0]!.request;
  look(item.bucket, tokens - passed, allowance === null ? null : allowance - used - admitted * cost);
  const rate = (left: number): RateState => ({
    policy,
    remaining: Math.max(Math.floor(left), 0),
    resetSeconds: resetSecondsOf(policy, left),
  });
  for (let r = 0; r < requests.length; r++) {
    const p = requests[r]!;
    if (r >= passed) {
      const left = tokens - passed;
      p.resolve({ kind: 'rate_limited', rate: rate(left), retryAfterMs: Math.ceil(((1 - left) * policy.windowMs) / policy.capacity) });
    } else if (r >= admitted) {
      p.resolve({ kind: 'credit_exceeded', rate: rate(tokens - r - 1), period: p.period, used: used + admitted * cost });
    } else {
      const { request } = p;
      p.resolve({
        kind: 'admitted',
        rate: rate(tokens - r - 1),
        reservation: {
          chargeId: p.chargeId,
          accountId: request.accountId,
          keyId: request.keyId,
          operation: request.operation,
          requestId: request.requestId,
          period: p.period,
          reserved: cost,
          allowance: request.allowance,
          used: used + (r + 1) * cost,
        },
      });
    }
  }
}

/** Free requests: `value` tokens taken for them; what is left over becomes this replica's lease. */
export function answerFree(item: BatchItem, reply: (number | string)[], at: number, leases: FreeLeases): void {
  const code = Number(reply[at]);
  const value = Number(reply[at + 1]);
  const remaining = Number(reply[at + 2]);
  const resetSeconds = Number(reply[at + 3]);
  const first = item.requests[0]!;
  const { request } = first;
  const rate: RateState = { policy: request.policy, remaining, resetSeconds };
  if (code === 1) {
    for (const p of item.requests) p.resolve({ kind: 'rate_limited', rate, retryAfterMs: value });
    return;
  }
  const served = Math.min(value, item.requests.length);
  item.requests.forEach((p, i) => {
    if (i < served) p.resolve({ kind: 'admitted', rate: { ...rate, remaining: remaining + value - served }, reservation: undefined });
    else p.resolve({ kind: 'rate_limited', rate, retryAfterMs: Math.ceil(request.policy.windowMs / request.policy.capacity) });
  });
  if (value > served) leases.keep(item.bucket, first.at, value - served, remaining, resetSeconds);
}

/** Seconds until a bucket with `tokens` left is full again. */
function resetSecondsOf(policy: RatePolicy, tokens: number): number {
  return Math.ceil(((policy.capacity - tokens) * policy.windowMs) / policy.capacity / 1000);
}
