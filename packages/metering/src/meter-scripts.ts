/**
 * The metering's Lua scripts. Each runs atomically in Redis, so the rate limit, the credit check,
 * the counter and the outbox entry of one request can never be split by another request or a
 * crash. All keys of a call are passed as KEYS (a cluster would need them in one hash slot).
 */

/**
 * Admit a batch of requests, in order, as if each came alone (one script call carries every
 * request a gateway read in one turn of its event loop).
 * KEYS: outbox, then per item its bucket and its counter.
 * ARGV: now ms, then per item: bucket capacity, window ms, cost, allowance (-1: unlimited),
 *       tokens to take, operation, n, then n outbox entries (JSON). An item is either the `n`
 *       consecutive charged requests of one account with the same operation, cost and limits
 *       (cost > 0; each with its own entry), or the free requests of one bucket (cost 0, n = 0:
 *       they take `take` tokens at once, a lease of several).
 * Returns 4 numbers per charged request, and 4 per free item:
 *   {0, used (cost > 0) or tokens taken (cost 0), tokens left, seconds to full}: admitted, charged;
 *   {1, retry after ms, 0, seconds to full}: rate limited, nothing charged;
 *   {2, used, tokens left, seconds to full}: over the allowance, nothing charged;
 *   {3, 0, 0, 0}: the counter is not seeded (nothing done: seed it from the ledger, ask again).
 * The bucket refills continuously (capacity per window): a burst of `capacity`, no reset at a
 * minute's edge. A request refused for credit still used a token. The charged requests' entries go
 * to the outbox as one JSON array.
 */
export const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local out = {}
local entries = {}
-- Each bucket and counter is read once per call and written once at its end: a hot account's
-- requests in one call share them (a redis.call costs far more than the arithmetic).
local buckets, bucketOrder = {}, {}
local counters, counterOrder = {}, {}
local a = 2
for i = 0, (#KEYS - 1) / 2 - 1 do
  local bucketKey = KEYS[2 + i * 2]
  local counterKey = KEYS[3 + i * 2]
  local capacity = tonumber(ARGV[a])
  local window = tonumber(ARGV[a + 1])
  local cost = tonumber(ARGV[a + 2])
  local allowance = tonumber(ARGV[a + 3])
  local lease = tonumber(ARGV[a + 4])
  local op = ARGV[a + 5]
  local n = tonumber(ARGV[a + 6])
  local firstEntry = a + 7
  a = firstEntry + n
  local bucket = buckets[bucketKey]
  if bucket == nil then
    local state = redis.call('HMGET', bucketKey, 't', 'at')
    bucket = { tokens = tonumber(state[1]), at = tonumber(state[2]), dirty = false, window = window }
    buckets[bucketKey] = bucket
    bucketOrder[#bucketOrder + 1] = bucketKey
  end
  local counter = nil
  if cost > 0 then
    counter = counters[counterKey]
    if counter == nil then
      counter = { used = redis.call('HGET', counterKey, 'used'), delta = 0, ops = {}, opOrder = {} }
      counters[counterKey] = counter
      counterOrder[#counterOrder + 1] = counterKey
    end
  else
    n = 1
  end
  for r = 0, n - 1 do
    local tokens = bucket.tokens
    local at = bucket.at
    if tokens == nil or at == nil then
      tokens = capacity
      at = now
    elseif now > at then
      tokens = tokens + (now - at) * capacity / window
      at = now
    end
    if tokens > capacity then tokens = capacity end
    local code = 0
    local value = 0
    local take = lease
    if tokens < 1 then
      code = 1
      value = math.ceil((1 - tokens) * window / capacity)
    else
      if cost > 0 and not counter.used then
        code = 3
      elseif cost > 0 then
        take = 1
        value = tonumber(counter.used) + counter.delta
        if not (allowance >= 0 and value + cost > allowance) then
          counter.delta = counter.delta + cost
          if counter.ops[op] == nil then
            counter.ops[op] = 0
            counter.opOrder[#counter.opOrder + 1] = op
          end
          counter.ops[op] = counter.ops[op] + cost
          value = value + cost
          entries[#entries + 1] = ARGV[firstEntry + r]
        else
          code = 2
        end
      else
        take = math.min(take, math.floor(tokens))
        value = take
      end
      if code ~= 3 then
        tokens = tokens - take
        bucket.tokens = tokens
        bucket.at = at
        bucket.dirty = true
        bucket.window = window
      end
    end
    if code == 3 then
      out[#out + 1] = 3
      out[#out + 1] = 0
      out[#out + 1] = 0
      out[#out + 1] = 0
    else
      out[#out + 1] = code
      out[#out + 1] = value
      out[#out + 1] = math.max(math.floor(tokens), 0)
      out[#out + 1] = math.ceil((capacity - tokens) * window / capacity / 1000)
    end
  end
end
for _, key in ipairs(bucketOrder) do
  local bucket = buckets[key]
  if bucket.dirty then
    redis.call('HSET', key, 't', tostring(bucket.tokens), 'at', tostring(bucket.at))
    redis.call('PEXPIRE', key, math.ceil(bucket.window * 2))
  end
end
for _, key in ipairs(counterOrder) do
  local counter = counters[key]
  if counter.delta > 0 then
    redis.call('HINCRBY', key, 'used', counter.delta)
    for _, op in ipairs(counter.opOrder) do
      redis.call('HINCRBY', key, 'op:' .. op, counter.ops[op])
    end
  end
end
if #entries > 0 then
  redis.call('XADD', KEYS[1], '*', 'e', '[' .. table.concat(entries, ',') .. ']')
end
return out
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
redis.call('XADD', KEYS[2], '*', 'e', '[' .. ARGV[3] .. ']')
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
