-- The baseline Tollgate is measured against: a sorted-set sliding log of requests and tokens, the
-- way many tutorials write it. Not part of Tollgate; only LimiterBench runs it. Its cost grows with
-- the number of entries in the window, which is what the benchmark shows.
--
-- KEYS[1]  the requests log: one member per admitted call, scored by its time in ms
-- KEYS[2]  the tokens log: one member "<id>:<cost>" per admitted call, same score
-- ARGV[1]  window, ms
-- ARGV[2]  max requests per window
-- ARGV[3]  max tokens per window
-- ARGV[4]  this call's id (unique)
-- ARGV[5]  this call's token cost
--
-- Reply: { allowed 1 | 0, requests in the window, tokens in the window } after this call.

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local oldest = now - window

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', oldest)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest)

local requests = redis.call('ZCARD', KEYS[1])
local tokens = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], oldest, '+inf', 'BYSCORE')) do
  tokens = tokens + tonumber(string.match(member, ':(%d+)$'))
end

local cost = tonumber(ARGV[5])
if requests + 1 > tonumber(ARGV[2]) or tokens + cost > tonumber(ARGV[3]) then
  return { 0, requests, tokens }
end

redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('ZADD', KEYS[2], now, ARGV[4] .. ':' .. cost)
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
return { 1, requests + 1, tokens + cost }
