import type { FastifyReply } from 'fastify';
import type { RatePolicy, RateState } from '@credit/metering/meter';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy (`q` requests
 * per `w` seconds) and the state after this request (`r` left, `t` seconds until the bucket is
 * full again).
 */
export function setRateLimitHeaders(reply: FastifyReply, rate: RateState): void {
  void reply.header('ratelimit-policy', policyHeader(rate.policy));
  void reply.header('ratelimit', `"${rate.policy.name}";r=${rate.remaining};t=${rate.resetSeconds}`);
}

/** The policy field, made once per policy (the gateway's policies live as long as it does). */
const POLICY_HEADERS = new WeakMap<RatePolicy, string>();

function policyHeader(policy: RatePolicy): string {
  let header = POLICY_HEADERS.get(policy);
  if (header === undefined) {
    header = `"${policy.name}";q=${policy.capacity};w=${Math.round(policy.windowMs / 1000)}`;
    POLICY_HEADERS.set(policy, header);
  }
  return header;
}

/** `X-CU-Cost` (what this response was charged) and `X-CU-Remaining` (left this month; absent when unlimited). */
export function setCuHeaders(reply: FastifyReply, cost: number, remaining: number | null): void {
  void reply.header('x-cu-cost', String(cost));
  if (remaining !== null) void reply.header('x-cu-remaining', String(Math.max(remaining, 0)));
}
