-- Tollgate fleet: which instances share this Redis, for the status page. Each instance beats
-- every few seconds; an instance that stops beating drops out once its beat expires.
--
-- KEYS[1]  tg:{fleet}:seen  sorted set: instance id -> expiry, server time in ms
-- KEYS[2]  tg:{fleet}:info  hash: instance id -> what the instance says of itself (JSON)
--          (one hash tag: one slot)
-- ARGV[1]  the caller's instance id
-- ARGV[2]  its JSON
-- ARGV[3]  how long a beat lasts, ms
-- ARGV[4]  the most instances to answer
--
-- Reply: { server time in ms, id 1, JSON 1, expiry 1, id 2, ... } of the live instances,
--        the latest expiry first.

local seen, info = KEYS[1], KEYS[2]
local ttl = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local stale = redis.call('ZRANGEBYSCORE', seen, '-inf', now)
if #stale > 0 then
  redis.call('ZREMRANGEBYSCORE', seen, '-inf', now)
  for i = 1, #stale, 1000 do
    redis.call('HDEL', info, unpack(stale, i, math.min(i + 999, #stale)))
  end
end

redis.call('ZADD', seen, now + ttl, ARGV[1])
redis.call('HSET', info, ARGV[1], ARGV[2])
-- both go when the whole fleet has stopped
redis.call('PEXPIRE', seen, ttl * 4)
redis.call('PEXPIRE', info, ttl * 4)

local live = redis.call('ZREVRANGE', seen, 0, tonumber(ARGV[4]) - 1, 'WITHSCORES')
local reply = { now }
for i = 1, #live, 2 do
  reply[#reply + 1] = live[i]
  reply[#reply + 1] = redis.call('HGET', info, live[i]) or ''
  reply[#reply + 1] = tonumber(live[i + 1])
end
return reply
