-- Tollgate limiter: every limit of one subject, checked and changed in one atomic step.
--
-- KEYS[1]  the subject's state hash           tg:{<scope>:<hash>}:s
-- KEYS[2]  the reservation record             tg:{<scope>:<hash>}:r:<id>   (same hash tag: one slot)
--          (reserve, settle, release only; lease and adjust keep no record)
-- ARGV[1]  op: 'reserve' | 'settle' | 'release' | 'lease' | 'adjust'
-- ARGV[2]  reserve, lease: requests to take   settle: actual tokens used     release: unused
--          adjust: requests to add (> 0: charge, < 0: give back)
-- ARGV[3]  reserve, lease: tokens to take     adjust: tokens to add, signed
--          (settle and release read the amounts from KEYS[2])
-- ARGV[4]  reserve: reservation record TTL, ms          adjust: when the amounts were taken, µs
-- ARGV[5]  n, the number of limits, then n groups of 6:
--          field, dimension (0 requests | 1 tokens), algorithm (0 token bucket | 1 sliding window),
--          capacity (units per window), window (ticks), tick (µs)
-- lease only, after the limits (b = 6 + 6n): ARGV[b], ARGV[b+1] requests and tokens wanted on top
--          of the call's own cost; ARGV[b+2], ARGV[b+3], ARGV[b+4] requests and tokens an ending
--          lease gives back, and when they were taken (µs)
--
-- Reply: { outcome, wait µs, server time µs, then per limit: remaining units, µs until full }
--   reserve: outcome 1 allowed and charged (record written) | 0 denied, nothing changed;
--            wait = time until every limit has room for this cost
--   settle, release: outcome 1 applied | 0 no such record (already settled, released or expired)
--   adjust: outcome 1, applied like a settle (a charge may go into debt, a refund stops at full)
--   lease: as reserve, after the give-back (which is applied even when the call is denied); when
--          allowed, the reply ends with the requests and tokens granted on top of the call's cost:
--          at most what was wanted, and at most half of what the call leaves in any limit, scaled
--          alike in both dimensions, so that a nearly empty bucket grants nothing
--
-- Integers only, all below 2^53: the client picks the tick so that capacity * window < 2^50, and
-- debt is bounded, so no result depends on float rounding. Numbers go into strings through
-- string.format('%d'), never tostring (which keeps only 14 digits). Time is the server's. A lease's
-- scale is a float, but what it grants is then capped by an integer bound, so rounding can only
-- grant less. The Java twin (LimiterStep) has no lease step: only the Redis limiter leases; adjust
-- is its adjust without a record.

local FULL_DEBT_WINDOWS = 3 -- a bucket's debt is capped at 3 windows of refill

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local op = ARGV[1]
local n = tonumber(ARGV[5])

local record
local deltaRequests, deltaTokens = 0, 0
local reservedAt = now
local leasing = op == 'lease'
local takes = op == 'reserve' or leasing -- all-or-none: may be denied
if takes then
  deltaRequests, deltaTokens = tonumber(ARGV[2]), tonumber(ARGV[3])
elseif op == 'adjust' then
  deltaRequests, deltaTokens = tonumber(ARGV[2]), tonumber(ARGV[3])
  reservedAt = tonumber(ARGV[4])
else
  record = redis.call('GET', KEYS[2])
  if not record then return { 0, 0, now } end
  redis.call('DEL', KEYS[2])
  local r, k, at = string.match(record, '^(%d+) (%d+) (%d+)$')
  reservedAt = tonumber(at)
  if op == 'settle' then
    deltaTokens = tonumber(ARGV[2]) - tonumber(k)
  else
    deltaRequests, deltaTokens = -tonumber(r), -tonumber(k)
  end
end

local giveRequests, giveTokens, givenAt = 0, 0, now
local wantRequests, wantTokens = 0, 0
if leasing then
  local b = 6 + n * 6
  wantRequests, wantTokens = tonumber(ARGV[b]), tonumber(ARGV[b + 1])
  giveRequests, giveTokens = tonumber(ARGV[b + 2]), tonumber(ARGV[b + 3])
  givenAt = tonumber(ARGV[b + 4])
end

local state = redis.call('HGETALL', KEYS[1])
local stored = {}
for i = 1, #state, 2 do stored[state[i]] = tonumber(state[i + 1]) end
local last = stored['t'] or now
if last > now then now = last end -- a failover's clock step must not run time backwards

-- Bring each limit up to now and measure the room it has for this call's cost.
local limits = {}
local allowed = 1
local wait = 0
for i = 0, n - 1 do
  local b = 6 + i * 6
  local l = { field = ARGV[b], capacity = tonumber(ARGV[b + 3]), window = tonumber(ARGV[b + 4]),
              tick = tonumber(ARGV[b + 5]), bucket = tonumber(ARGV[b + 2]) == 0 }
  l.requests = tonumber(ARGV[b + 1]) == 0
  l.delta = l.requests and deltaRequests or deltaTokens
  local give = l.requests and giveRequests or giveTokens
  local nowTick = math.floor(now / l.tick)
  local intoTick = now - nowTick * l.tick
  if l.bucket then
    -- Level in 1/window of a unit, so refill is exactly `capacity` per tick.
    l.full = l.capacity * l.window
    l.level = stored[l.field]
    if l.level == nil then
      l.level = l.full
    else
      local elapsed = nowTick - math.floor(last / l.tick)
      if elapsed > 0 then
        if elapsed >= math.ceil((l.full - l.level) / l.capacity) then l.level = l.full
        else l.level = l.level + elapsed * l.capacity end
      end
    end
    if give > 0 then
      l.level = math.min(l.level + give * l.window, l.full)
    end
    l.room = math.floor(l.level / l.window)
    if takes and l.level < l.delta * l.window then
      allowed = 0
      local w = math.ceil((l.delta * l.window - l.level) / l.capacity) * l.tick - intoTick
      if w > wait then wait = w end
    end
  else
    -- Sliding window counter: this window's count plus the previous one's, weighted by overlap.
    l.index = math.floor(nowTick / l.window)
    l.elapsed = nowTick - l.index * l.window
    l.current = stored[l.field] or 0
    l.previous = stored[l.field .. ':p'] or 0
    local at = stored[l.field .. ':w'] or l.index
    if at == l.index - 1 then l.previous = l.current; l.current = 0
    elseif at < l.index - 1 then l.previous = 0; l.current = 0 end
    if give > 0 then
      local charged = math.floor(math.floor(givenAt / l.tick) / l.window)
      if charged == l.index then l.current = math.max(0, l.current - give)
      elseif charged == l.index - 1 then l.previous = math.max(0, l.previous - give) end
    end
    local room = (l.capacity - l.current) * l.window - l.previous * (l.window - l.elapsed)
    l.room = math.floor(room / l.window)
    if takes and room < l.delta * l.window then
      allowed = 0
      local ticks
      if l.current + l.delta <= l.capacity then
        -- room comes once the previous window's weight has slid far enough
        ticks = l.window - math.floor((l.capacity - l.current - l.delta) * l.window / l.previous) - l.elapsed
      else
        -- room comes only after this window closes and becomes the previous one
        local needed = l.window - math.floor((l.capacity - l.delta) * l.window / l.current)
        if needed < 0 then needed = 0 end
        ticks = l.window - l.elapsed + needed
      end
      local w = ticks * l.tick - intoTick
      if w > wait then wait = w end
    end
  end
  limits[i + 1] = l
end

-- A lease takes, on top of the call's cost, what was wanted, scaled down alike in both dimensions
-- until it leaves at least half of what the call leaves in every limit.
local grantRequests, grantTokens = 0, 0
if leasing and allowed == 1 and (wantRequests > 0 or wantTokens > 0) then
  local scale = 1
  for i = 1, n do
    local l = limits[i]
    local want = l.requests and wantRequests or wantTokens
    if want > 0 then
      local share = math.max(0, l.room - l.delta) / 2 / want
      if share < scale then scale = share end
    end
  end
  grantRequests = math.floor(wantRequests * scale)
  grantTokens = math.floor(wantTokens * scale)
  for i = 1, n do
    local l = limits[i]
    -- rounding must never take more than half of what is left
    local half = math.floor(math.max(0, l.room - l.delta) / 2)
    if l.requests then grantRequests = math.min(grantRequests, half)
    else grantTokens = math.min(grantTokens, half) end
  end
  for i = 1, n do
    local l = limits[i]
    l.delta = l.delta + (l.requests and grantRequests or grantTokens)
  end
end
if leasing and allowed == 0 then
  -- denied: only the give-back is written
  for i = 1, n do limits[i].delta = 0 end
end

-- Apply the change (reserve when allowed, settle, release, adjust, a lease's give-back) and
-- answer what is left.
local change = (not takes) or allowed == 1 or (leasing and (giveRequests > 0 or giveTokens > 0))
local writes = { 't', now }
local reply = { allowed, wait, now }
local ttl = 0
for i = 1, n do
  local l = limits[i]
  local remaining, untilFull
  if l.bucket then
    if change then
      l.level = l.level - l.delta * l.window
      if l.level > l.full then l.level = l.full end
      if l.level < -FULL_DEBT_WINDOWS * l.full then l.level = -FULL_DEBT_WINDOWS * l.full end
    end
    writes[#writes + 1] = l.field
    writes[#writes + 1] = l.level
    remaining = math.floor(l.level / l.window)
    untilFull = math.ceil((l.full - l.level) / l.capacity) * l.tick
  else
    if change and l.delta > 0 then
      l.current = math.min(l.current + l.delta, (FULL_DEBT_WINDOWS + 1) * l.capacity)
    elseif change and l.delta < 0 then
      -- a refund goes back to the window that was charged, while it still counts
      local charged = math.floor(math.floor(reservedAt / l.tick) / l.window)
      if charged == l.index then l.current = math.max(0, l.current + l.delta)
      elseif charged == l.index - 1 then l.previous = math.max(0, l.previous + l.delta) end
    end
    writes[#writes + 1] = l.field
    writes[#writes + 1] = l.current
    writes[#writes + 1] = l.field .. ':p'
    writes[#writes + 1] = l.previous
    writes[#writes + 1] = l.field .. ':w'
    writes[#writes + 1] = l.index
    remaining = math.floor(((l.capacity - l.current) * l.window - l.previous * (l.window - l.elapsed)) / l.window)
    if l.current > 0 then untilFull = (2 * l.window - l.elapsed) * l.tick
    elseif l.previous > 0 then untilFull = (l.window - l.elapsed) * l.tick
    else untilFull = 0 end
  end
  if remaining < 0 then remaining = 0 end
  if untilFull > ttl then ttl = untilFull end
  reply[#reply + 1] = remaining
  reply[#reply + 1] = untilFull
end

if change then
  redis.call('HSET', KEYS[1], unpack(writes))
  -- An idle subject disappears when it would be full anyway (+1 s margin for clock steps).
  redis.call('PEXPIRE', KEYS[1], math.floor(ttl / 1000) + 1000)
  if op == 'reserve' then
    redis.call('SET', KEYS[2], string.format('%d %d %d', deltaRequests, deltaTokens, now), 'PX', ARGV[4])
  end
end
if not takes then reply[1] = 1 end
if leasing and allowed == 1 then
  reply[#reply + 1] = grantRequests
  reply[#reply + 1] = grantTokens
end
return reply
