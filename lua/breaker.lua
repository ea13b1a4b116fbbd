-- Tollgate circuit breaker: one provider's open episode, shared by every instance of a fleet.
--
-- KEYS[1]  the open episode, a hash            tg:{breaker:<hash>}:state
--          g  generation: server time in µs when the episode began (tells episodes apart)
--          a  attempt: 1 when opened by failures, one more after each failed probe
--          u  open until, server time in ms; from then on one probe may go
-- KEYS[2]  the probe lock                      tg:{breaker:<hash>}:probe   (same hash tag: one slot)
--          value: the instance id of the elected prober
-- ARGV[1]  op: 'open' | 'sync' | 'succeeded' | 'failed' | 'release'
-- ARGV[2]  the caller's instance id
-- ARGV[3]  probe lock TTL, ms (the prober renews it on every sync while it wants the probe)
-- ARGV[4]  keep, ms: how long an episode outlives its open time when nobody probes it
-- ARGV[5]  open: the attempt to open with      sync: 1 to take or keep the probe, 0 to let it go
--          succeeded, failed: the generation the probe belonged to
-- ARGV[6]  open: the open time, ms             failed: the attempt whose probe failed
-- ARGV[7]  failed: the next open time, ms
--
-- open       starts an episode unless one exists (then the caller adopts it).
-- sync       reads the episode; with ARGV[5] = 1 and the open time over, takes the free probe lock
--            (SET NX PX) or renews it when the caller holds it; with 0, lets go of a lock it holds.
-- succeeded  ends the episode (deletes both keys) if it is still the probed generation.
-- failed     reopens the probed generation for the next open time, once per attempt (a repeated
--            call changes nothing); with no episode left, starts a new one at the next attempt.
-- release    lets go of the caller's probe lock.
--
-- Reply: { generation (0: no episode, the breaker is closed), attempt,
--          ms until the open time ends (<= 0: the probe may go),
--          probe lock: 0 free | 1 held by the caller | 2 held by another instance }
--
-- Time is the server's, one clock for the fleet. Numbers go into strings through
-- string.format('%d'): tostring keeps only 14 digits and a generation has 16.

local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local op, me = ARGV[1], ARGV[2]
local lockTtl, keep = tonumber(ARGV[3]), tonumber(ARGV[4])

local function current()
  local s = redis.call('HMGET', KEYS[1], 'g', 'a', 'u')
  if not s[1] then return nil end
  return { g = s[1], a = tonumber(s[2]), u = tonumber(s[3]) }
end

local function write(s, wait)
  redis.call('HSET', KEYS[1], 'g', s.g, 'a', string.format('%d', s.a), 'u', string.format('%d', s.u))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', wait + keep))
end

local function begin(attempt, wait)
  local s = { g = string.format('%d', tonumber(t[1]) * 1000000 + tonumber(t[2])), a = attempt,
              u = nowMs + wait }
  write(s, wait)
  redis.call('DEL', KEYS[2]) -- a lock left from an earlier episode elects nobody now
  return s
end

-- the episode must outlive its prober's lock, however long the probe takes
local function outliveLock()
  if redis.call('PTTL', KEYS[1]) < lockTtl then
    redis.call('PEXPIRE', KEYS[1], lockTtl)
  end
end

local function reply(s)
  if not s then return { 0, 0, 0, 0 } end
  local holder = redis.call('GET', KEYS[2])
  local probe = 0
  if holder == me then probe = 1 elseif holder then probe = 2 end
  return { tonumber(s.g), s.a, s.u - nowMs, probe }
end

local s = current()

if op == 'open' then
  if not s then
    s = begin(tonumber(ARGV[5]), tonumber(ARGV[6]))
  end
  return reply(s)
end

if op == 'sync' then
  if s then
    local want = ARGV[5] == '1'
    local holder = redis.call('GET', KEYS[2])
    if holder == me then
      if want then
        redis.call('PEXPIRE', KEYS[2], lockTtl)
        outliveLock()
      else
        redis.call('DEL', KEYS[2])
      end
    elseif not holder and want and s.u <= nowMs then
      redis.call('SET', KEYS[2], me, 'PX', lockTtl)
      outliveLock()
    end
  end
  return reply(s)
end

if op == 'succeeded' then
  if s and s.g == ARGV[5] then
    redis.call('DEL', KEYS[1], KEYS[2])
    return reply(nil)
  end
  return reply(s)
end

if op == 'failed' then
  local probed, wait = tonumber(ARGV[6]), tonumber(ARGV[7])
  if not s then
    s = begin(probed + 1, wait)
  elseif s.g == ARGV[5] and s.a == probed then
    s.a = probed + 1
    s.u = nowMs + wait
    write(s, wait)
    redis.call('DEL', KEYS[2])
  end
  return reply(s)
end

if op == 'release' then
  if redis.call('GET', KEYS[2]) == me then
    redis.call('DEL', KEYS[2])
  end
  return reply(s)
end

return redis.error_reply('unknown op ' .. tostring(op))
