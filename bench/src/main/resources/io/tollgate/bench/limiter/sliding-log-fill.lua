-- Fills one subject's sliding log (see sliding-log.lua) with ARGV[1] past calls of ARGV[2] tokens
-- each, spread over the last ARGV[1] ms, so that the benchmark starts from a window of that size.
-- Member ids are 22 characters, as long as the ids the benchmark's calls use.
--
-- KEYS[1] the requests log, KEYS[2] the tokens log; ARGV[3] the TTL of both, ms. Reply: entries.

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local batch = 500 -- members per ZADD: bounded, so unpack never overflows Lua's stack
for first = 1, n, batch do
  local requests, tokens = {}, {}
  for i = first, math.min(first + batch - 1, n) do
    local id = string.format('%022d', i)
    local score = now - n + i
    requests[#requests + 1] = score
    requests[#requests + 1] = id
    tokens[#tokens + 1] = score
    tokens[#tokens + 1] = id .. ':' .. ARGV[2]
  end
  redis.call('ZADD', KEYS[1], unpack(requests))
  redis.call('ZADD', KEYS[2], unpack(tokens))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return redis.call('ZCARD', KEYS[2])
