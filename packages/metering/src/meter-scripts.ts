/**
 * The metering's Lua scripts. Each runs atomically in Redis, so the rate limit, the credit check,
 * the counter and the outbox entry of one request can never be split by another request or a
 * crash. All keys of a call are passed as KEYS (a cluster would need them in one hash slot).
 */

/**
 * Admit one request.
 * KEYS: bucket, counter, outbox.
 * ARGV: now ms, bucket capacity, window ms, cost, allowance (-1: unlimited), operation,
 *       outbox entry (JSON), counter expiry (unix s).
 * Returns {0, used, tokens left, seconds to full} admitted (and charged when cost > 0);
 *         {1, retry after ms, 0, seconds to full} rate limited (nothing charged);
 *         {2, used, tokens left, seconds to full} over the allowance (nothing charged);
 *         {3} the counter is not seeded (nothing done: seed it from the ledger, then call again).
 * The bucket refills continuously (capacity per window), so a burst of `capacity` is allowed and
 * nothing resets at a minute's edge. A request refused for credit still used a token.
 */
export const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local allowance = tonumber(ARGV[5])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
elseif now > at then
  tokens = tokens + (now - at) * capacity / window
  at = now
end
if tokens > capacity then tokens = capacity end
if tokens < 1 then
  return {1, math.ceil((1 - tokens) * window / capacity), 0, math.ceil((capacity - tokens) * window / capacity / 1000)}
end
local used = 0
local code = 0
if cost > 0 then
  if redis.call('EXISTS', KEYS[2]) == 0 then return {3} end
  used = tonumber(redis.call('HGET', KEYS[2], 'used') or '0')
  if allowance >= 0 and used + cost > allowance then
    code = 2
  else
    used = redis.call('HINCRBY', KEYS[2], 'used', cost)
    redis.call('HINCRBY', KEYS[2], 'op:' .. ARGV[6], cost)
    redis.call('XADD', KEYS[3], '*', 'e', ARGV[7])
  end
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 2))
return {code, used, math.floor(tokens), math.ceil((capacity - tokens) * window / capacity / 1000)}
`;

/**
 * Give back CU that were reserved and not served.
 * KEYS: counter, outbox. ARGV: CU to give back, operation, outbox entry (JSON).
 * Returns the counter after the refund, or -1 when the counter is gone (the entry still goes to
 * the ledger, which the counter is rebuilt from).
 */
export const REFUND_SCRIPT = `
local used = -1
local cu = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  used = redis.call('HINCRBY', KEYS[1], 'used', -cu)
  redis.call('HINCRBY', KEYS[1], 'op:' .. ARGV[2], -cu)
end
redis.call('XADD', KEYS[2], '*', 'e', ARGV[3])
return used
`;

/**
 * Create a month's counter from the ledger's totals, unless another replica did first.
 * KEYS: counter. ARGV: expiry (unix s), used, then operation / CU pairs.
 * Returns 1 when this call created it.
 */
export const SEED_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'used', ARGV[2])
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], 'op:' .. ARGV[i], ARGV[i + 1])
end
redis.call('EXPIREAT', KEYS[1], ARGV[1])
return 1
`;
