import type { FastifyReply } from 'fastify';
import type { RateState } from '@credit/metering/meter';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy (`q` requests
 * per `w` seconds) and the state after this request (`r` left, `t` seconds until the bucket is
 * full again).
 */
export function setRateLimitHeaders(reply: FastifyReply, rate: RateState): void {
  const name = `"${rate.policy.name}"`;
  void reply.header('ratelimit-policy', `${name};q=${rate.policy.capacity};w=${Math.round(rate.policy.windowMs / 1000)}`);
  void reply.header('ratelimit', `${name};r=${rate.remaining};t=${rate.resetSeconds}`);
}

/** `X-CU-Cost` (what this response was charged) and `X-CU-Remaining` (left this month; absent when unlimited). */
export function setCuHeaders(reply: FastifyReply, cost: number, remaining: number | null): void {
  void reply.header('x-cu-cost', String(cost));
  if (remaining !== null) void reply.header('x-cu-remaining', String(Math.max(remaining, 0)));
}
