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
 *       tokens to take, operation, n, then its n outbox entries (ledger-line.ts: COPY text lines,
 *       each ending in a newline) together in one argument. An item is either the `n`
 *       consecutive charged requests of one account with the same operation, cost and limits
 *       (cost > 0; each with its own entry), or the free requests of one bucket (cost 0, n = 0:
 *       they take `take` tokens at once, a lease of several).
 * Returns 4 values per item:
 *   a charged item: {passed, admitted, used, tokens}. In order, each of the item's requests takes
 *     a token while one is left (`passed` of them; the rest are rate limited and charge nothing);
 *     of those, the first `admitted` are charged `cost` each while the counter stays within the
 *     allowance (the others are refused for credit, their token used). `used` is the counter
 *     before the item and `tokens` the bucket's tokens before it, as a string (a fraction), so
 *     the caller works out each request's answer exactly as if the requests had come one by one.
 *     `passed` -1: the counter is not seeded (nothing done: seed it from the ledger, ask again);
 *   a free item: {0, tokens taken, tokens left, seconds to full}, or {1, retry after ms, 0,
 *     seconds to full} when rate limited.
 * The bucket refills continuously (capacity per window): a burst of `capacity`, no reset at a
 * minute's edge. The admitted requests' entries go to the outbox as one message of lines.
 * A charged item costs the same few steps whatever its size: no loop per request.
 */
export const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local out = {}
local pieces = {}
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
  local joined = ARGV[a + 7]
  a = a + 8
  local bucket = buckets[bucketKey]
  if bucket == nil then
    local state = redis.call('HMGET', bucketKey, 't', 'at')
    bucket = { tokens = tonumber(state[1]), at = tonumber(state[2]), dirty = false, window = window }
    buckets[bucketKey] = bucket
    bucketOrder[#bucketOrder + 1] = bucketKey
  end
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
  local taken = 0
  if cost > 0 then
    local counter = counters[counterKey]
    if counter == nil then
      counter = { used = redis.call('HGET', counterKey, 'used'), delta = 0, ops = {}, opOrder = {} }
      counters[counterKey] = counter
      counterOrder[#counterOrder + 1] = counterKey
    end
    local passed = 0
    if tokens >= 1 then passed = math.min(n, math.floor(tokens)) end
    if passed > 0 and not counter.used then
      out[#out + 1] = -1
      out[#out + 1] = 0
      out[#out + 1] = 0
      out[#out + 1] = 0
    else
      local used = 0
      local admitted = passed
      if counter.used then used = tonumber(counter.used) + counter.delta end
      if allowance >= 0 then
        admitted = math.max(0, math.min(passed, math.floor((allowance - used) / cost)))
      end
      if admitted > 0 then
        counter.delta = counter.delta + admitted * cost
        if counter.ops[op] == nil then
          counter.ops[op] = 0
          counter.opOrder[#counter.opOrder + 1] = op
        end
        counter.ops[op] = counter.ops[op] + admitted * cost
        if admitted == n then
          pieces[#pieces + 1] = joined
        else
          -- the first admitted entries: each ends at its newline (a newline inside a field is
          -- escaped in the COPY format)
          local cut = 0
          for _ = 1, admitted do cut = string.find(joined, '\\n', cut + 1, true) end
          pieces[#pieces + 1] = string.sub(joined, 1, cut)
        end
      end
      out[#out + 1] = passed
      out[#out + 1] = admitted
      out[#out + 1] = used
      out[#out + 1] = string.format('%.17g', tokens)
      taken = passed
    end
  elseif tokens < 1 then
    out[#out + 1] = 1
    out[#out + 1] = math.ceil((1 - tokens) * window / capacity)
    out[#out + 1] = 0
    out[#out + 1] = math.ceil((capacity - tokens) * window / capacity / 1000)
  else
    taken = math.min(lease, math.floor(tokens))
    out[#out + 1] = 0
    out[#out + 1] = taken
    out[#out + 1] = math.floor(tokens - taken)
    out[#out + 1] = math.ceil((capacity - (tokens - taken)) * window / capacity / 1000)
  end
  if taken > 0 then
    bucket.tokens = tokens - taken
    bucket.at = at
    bucket.dirty = true
    bucket.window = window
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
if #pieces > 0 then
  redis.call('XADD', KEYS[1], '*', 'e', table.concat(pieces))
end
return out
`;

/**
 * Give back CU that were reserved and not served.
 * KEYS: counter, outbox. ARGV: CU to give back, operation, outbox entry (its line).
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

/**
 * Deliver the outbox's next entries to a consumer of the ledger's group, like XREADGROUP … '>',
 * but return only their ids: the entries stay in the stream, where the ledger writer reads them
 * (XRANGE) once their batch is queued. Delivered entries are consecutive in the stream.
 * KEYS: outbox. ARGV: group, consumer, count. Returns the ids, oldest first ({} when none).
 */
export const OUTBOX_CLAIM_SCRIPT = `
local read = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', ARGV[3], 'STREAMS', KEYS[1], '>')
local ids = {}
if read then
  for i, message in ipairs(read[1][2]) do ids[i] = message[1] end
end
return ids
`;
