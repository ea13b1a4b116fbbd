-- Tollgate limiter: every limit of one subject, checked and changed in one atomic step; one call
-- of the script makes a batch of such steps, one per key, each on its own subject.
--
-- KEYS[i]  step i's subject state hash          tg:{<scope>:<hash>}:s
-- ARGV[i]  step i, packed little-endian (RunArgs): op (1 byte: 0 reserve, 1 lease, 2 adjust,
--          3 lower), then
--          eight 8-byte integers: requests, tokens (to take: reserve, lease; to add, signed:
--          adjust, > 0 charges, < 0 gives back), then
--            adjust: when the amounts were taken (server µs), so that a sliding window gives back
--                    to the window that was charged; the rest 0
--            lease:  requests and tokens wanted on top of the call's own cost, requests and tokens
--                    an ending lease gives back, and when they were taken (µs)
--            lower:  the room to leave at most, in requests, then tokens (-1: that dimension as it
--                    is); requests and tokens to take are 0
--          then spend in micro-dollars (to take or add, as requests and tokens; never leased), then
--          the limits (LimitArgs): their count n (8 bytes), then per limit its state field
--          (zero-terminated), kind (1 byte: bits 0-1 the dimension: 0 requests, 1 tokens, 2 spend;
--          bits 2-3 the algorithm: 0 token bucket, 1 sliding window, 2 calendar day, 3 calendar
--          month, UTC), capacity (units per window), window (ticks), tick (µs), keep (units a
--          reserve or lease must leave unused: held for calls of a higher priority class)
--
-- Reply: one reply per step, in order: { outcome, wait µs, server time µs, then per limit:
-- remaining units, µs until full }
--   reserve: outcome 1 allowed and charged | 0 denied, nothing changed;
--            wait = time until every limit has room for this cost
--   adjust:  outcome 1, applied (a charge may go into debt, a refund stops at full)
--   lower:   outcome 1; each limit's room is now at most the room asked for its dimension (what a
--            provider reports left of its own limit): never raised
--   lease:   as reserve, after the give-back (which is applied even when the call is denied); when
--            allowed, the reply ends with the requests and tokens granted on top of the call's cost:
--            at most what was wanted, and at most half of what the call leaves in any limit, scaled
--            alike in both dimensions, so that a nearly empty bucket grants nothing
--
-- No record of a reservation is kept: the client holds what it took, and settles or releases it
-- with an adjust of the difference (none when the estimate was right). On a Redis Cluster every
-- call holds one step (one key, one slot); on a standalone Redis the client sends the steps of many
-- threads in one call, which spares Redis a command, a read and a reply per step.
--
-- Integers only, all below 2^53: the client picks the tick so that capacity * window < 2^50, and
-- debt is bounded, so no result depends on float rounding. Numbers reach Redis as numbers (which
-- Redis writes with 17 significant digits), never through tostring (which keeps only 14). Time is
-- the server's, read once per call. A lease's scale is a float, but what it grants is then capped
-- by an integer bound, so rounding can only grant less. The Java twin (LimiterStep) has no lease
-- step: only the Redis limiter leases.
--
-- A limit in a group (a provider's model: field 'g|rb...') refills from the group's own clock 'g|t',
-- written with its level; the subject's own limits refill from 't'.
--
-- The hash also holds 'x', when the key is set to expire (ms, whole seconds): the expiry is moved
-- only when the state needs it to be later, so most steps write no PEXPIREAT.

local FULL_DEBT_WINDOWS = 3 -- a bucket's debt is capped at 3 windows of refill
local floor, ceil, min, max = math.floor, math.ceil, math.min, math.max

local DAY = 86400000000 -- µs

-- Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's algorithm).
local function daysFromCivil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = floor(y / 400)
  local yoe = y - era * 400
  local mp = m > 2 and m - 3 or m + 9
  local doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + floor((153 * mp + 2) / 5) + d - 1
  return era * 146097 + doe - 719468
end

-- The calendar day or month (UTC) that µs `at` falls in: its number, and when the next begins (µs).
local function period(at, monthly)
  local day = floor(at / DAY)
  if not monthly then return day, (day + 1) * DAY end
  local z = day + 719468
  local era = floor(z / 146097)
  local doe = z - era * 146097
  local yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100))
  local mp = floor((5 * doy + 2) / 153)
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  local nextY, nextM = y, m + 1
  if nextM > 12 then nextY, nextM = y + 1, 1 end
  return y * 12 + m - 1, daysFromCivil(nextY, nextM, 1) * DAY
end

local t = redis.call('TIME')
local serverNow = tonumber(t[1]) * 1000000 + tonumber(t[2])

-- Numbers go to HSET as decimal text: Redis would format each one itself, with 17 significant
-- digits, at a higher cost. Every state value is an integer below 2^53, which '%d' writes exactly.
local function decimal(n) return string.format('%d', n) end
local serverNowText = decimal(serverNow)

-- The limits of a step, decoded once per distinct packed set in this call (the steps of one call
-- mostly share a set): per limit what never changes, and the fields to read, in HMGET's order.
local sets = {}
local function limitsOf(packed)
  local set = sets[packed]
  if set then return set end
  local n, at = struct.unpack('<i8', packed)
  local fields = { 't', 'x' }
  set = { n = n, fields = fields }
  for i = 1, n do
    local field, kind, capacity, window, tick, keep
    field, kind, capacity, window, tick, keep, at = struct.unpack('<sBi8i8i8i8', packed, at)
    local dimension, algorithm = kind % 4, floor(kind / 4)
    local d = { field = field, capacity = capacity, window = window, tick = tick, keep = keep,
                requests = dimension == 0, spend = dimension == 2, bucket = algorithm == 0,
                calendar = algorithm >= 2, monthly = algorithm == 3, full = capacity * window,
                clock = false, at = #fields + 1 }
    fields[d.at] = field
    if d.bucket then
      -- A grouped limit (a model's, 'g|...') keeps its own clock 'g|t': a step of another group
      -- leaves its level alone.
      local sep = string.find(field, '|', 1, true)
      if sep then
        d.clock = string.sub(field, 1, sep) .. 't'
        fields[d.at + 1] = d.clock
      end
    elseif d.calendar then
      d.counted = field .. ':w'
      fields[d.at + 1] = d.counted
    else
      d.previous, d.counted = field .. ':p', field .. ':w'
      fields[d.at + 1] = d.previous
      fields[d.at + 2] = d.counted
    end
    set[i] = d
  end
  sets[packed] = set
  return set
end

-- The packed run's op and numbers take its first 65 bytes; the limits follow.
local LIMITS_AT = 66

-- One step on the subject whose state is at `key`, as `run` (one ARGV) asks.
local function step(key, run)
  local now = serverNow
  local op, deltaRequests, deltaTokens, a, b, c, d, e, deltaSpend =
    struct.unpack('<Bi8i8i8i8i8i8i8i8', run)
  local set = limitsOf(string.sub(run, LIMITS_AT))
  local n = set.n
  local leasing = op == 1
  local takes = op == 0 or leasing -- all-or-none: may be denied
  local reservedAt = now
  if op == 2 then reservedAt = a end

  local giveRequests, giveTokens, givenAt = 0, 0, now
  local wantRequests, wantTokens = 0, 0
  local lowerRequests, lowerTokens = -1, -1
  if op == 3 then lowerRequests, lowerTokens = a, b end
  if leasing then
    wantRequests, wantTokens, giveRequests, giveTokens, givenAt = a, b, c, d, e
  end

  local stored = redis.call('HMGET', key, unpack(set.fields))
  local last = tonumber(stored[1]) or now
  if last > now then now = last end -- a failover's clock step must not run time backwards

  -- Bring each limit up to now and measure the room it has for this call's cost. What changes per
  -- call is kept in `states`, beside the set's limits.
  local states = {}
  local allowed = 1
  local wait = 0
  for i = 1, n do
    local l = set[i]
    local capacity, window, tick = l.capacity, l.window, l.tick
    local delta, give, lowest = deltaTokens, giveTokens, lowerTokens
    if l.requests then delta, give, lowest = deltaRequests, giveRequests, lowerRequests
    elseif l.spend then delta, give, lowest = deltaSpend, 0, -1 end
    local s
    local nowTick = floor(now / tick)
    local intoTick = now - nowTick * tick
    if l.bucket then
      -- Level in 1/window of a unit, so refill is exactly `capacity` per tick.
      local level = tonumber(stored[l.at])
      if level == nil then
        level = l.full
      else
        local since = l.clock and tonumber(stored[l.at + 1]) or last
        local elapsed = nowTick - floor(since / tick)
        if elapsed > 0 then
          if elapsed >= ceil((l.full - level) / capacity) then level = l.full
          else level = level + elapsed * capacity end
        end
      end
      if give > 0 then
        level = min(level + give * window, l.full)
      end
      s = { level = level, room = floor(level / window), delta = delta }
      local need = delta + l.keep
      if takes and level < need * window then
        allowed = 0
        local w = ceil((need * window - level) / capacity) * tick - intoTick
        if w > wait then wait = w end
      end
    elseif l.calendar then
      -- Spend per calendar day or month (UTC): a count that starts again with the next one.
      local index, ends = period(now, l.monthly)
      local current = tonumber(stored[l.at]) or 0
      if (tonumber(stored[l.at + 1]) or index) ~= index then current = 0 end
      s = { current = current, index = index, ends = ends, room = capacity - current, delta = delta }
      if takes and s.room < delta + l.keep then
        allowed = 0
        if ends - now > wait then wait = ends - now end
      end
    else
      -- Sliding window counter: this window's count plus the previous one's, weighted by overlap.
      local index = floor(nowTick / window)
      local elapsed = nowTick - index * window
      local current = tonumber(stored[l.at]) or 0
      local previous = tonumber(stored[l.at + 1]) or 0
      local counted = tonumber(stored[l.at + 2]) or index
      if counted == index - 1 then previous = current; current = 0
      elseif counted < index - 1 then previous = 0; current = 0 end
      if give > 0 then
        local charged = floor(floor(givenAt / tick) / window)
        if charged == index then current = max(0, current - give)
        elseif charged == index - 1 then previous = max(0, previous - give) end
      end
      local room = (capacity - current) * window - previous * (window - elapsed)
      s = { current = current, previous = previous, index = index, elapsed = elapsed,
            room = floor(room / window), delta = delta }
      local need = delta + l.keep
      if takes and room < need * window then
        allowed = 0
        local ticks
        if current + need <= capacity then
          -- room comes once the previous window's weight has slid far enough
          ticks = window - floor((capacity - current - need) * window / previous) - elapsed
        else
          -- room comes only after this window closes and becomes the previous one
          local needed = window - floor((capacity - need) * window / current)
          if needed < 0 then needed = 0 end
          ticks = window - elapsed + needed
        end
        local w = ticks * tick - intoTick
        if w > wait then wait = w end
      end
    end
    if lowest >= 0 and s.room > lowest then
      if l.bucket then s.level = lowest * window
      else s.current = s.current + (s.room - lowest) end
      s.room = lowest
    end
    states[i] = s
  end

  -- A lease takes, on top of the call's cost, what was wanted, scaled down alike in both dimensions
  -- until it leaves at least half of what the call leaves in every limit.
  local grantRequests, grantTokens = 0, 0
  if leasing and allowed == 1 and (wantRequests > 0 or wantTokens > 0) then
    local scale = 1
    for i = 1, n do
      local l, s = set[i], states[i]
      local want = l.requests and wantRequests or wantTokens
      if want > 0 and not l.spend then
        local share = max(0, s.room - s.delta - l.keep) / 2 / want
        if share < scale then scale = share end
      end
    end
    grantRequests = floor(wantRequests * scale)
    grantTokens = floor(wantTokens * scale)
    for i = 1, n do
      local l, s = set[i], states[i]
      -- rounding must never take more than half of what is left
      local half = floor(max(0, s.room - s.delta - l.keep) / 2)
      if l.requests then grantRequests = min(grantRequests, half)
      elseif not l.spend then grantTokens = min(grantTokens, half) end
    end
    for i = 1, n do
      local l, s = set[i], states[i]
      if not l.spend then s.delta = s.delta + (l.requests and grantRequests or grantTokens) end
    end
  end
  if leasing and allowed == 0 then
    -- denied: only the give-back is written
    for i = 1, n do states[i].delta = 0 end
  end

  -- Apply the change (reserve when allowed, adjust, a lease's give-back) and answer what is left.
  local change = (not takes) or allowed == 1 or (leasing and (giveRequests > 0 or giveTokens > 0))
  local writes = { 't', now == serverNow and serverNowText or decimal(now) }
  local w = 2
  local reply = { allowed, wait, now }
  local r = 3
  local ttl = 0
  for i = 1, n do
    local l, s = set[i], states[i]
    local remaining, untilFull
    if l.bucket then
      local level = s.level
      if change then
        level = level - s.delta * l.window
        if level > l.full then level = l.full end
        if level < -FULL_DEBT_WINDOWS * l.full then level = -FULL_DEBT_WINDOWS * l.full end
      end
      writes[w + 1], writes[w + 2] = l.field, decimal(level)
      w = w + 2
      if l.clock then
        writes[w + 1], writes[w + 2] = l.clock, writes[2]
        w = w + 2
      end
      remaining = floor(level / l.window)
      untilFull = ceil((l.full - level) / l.capacity) * l.tick
    elseif l.calendar then
      local current = s.current
      if change and s.delta > 0 then
        current = min(current + s.delta, (FULL_DEBT_WINDOWS + 1) * l.capacity)
      elseif change and s.delta < 0 and period(reservedAt, l.monthly) == s.index then
        -- a refund goes back only to the day or month that was charged
        current = max(0, current + s.delta)
      end
      writes[w + 1], writes[w + 2] = l.field, decimal(current)
      writes[w + 3], writes[w + 4] = l.counted, decimal(s.index)
      w = w + 4
      remaining = l.capacity - current
      if current > 0 then untilFull = s.ends - now else untilFull = 0 end
    else
      local current, previous = s.current, s.previous
      if change and s.delta > 0 then
        current = min(current + s.delta, (FULL_DEBT_WINDOWS + 1) * l.capacity)
      elseif change and s.delta < 0 then
        -- a refund goes back to the window that was charged, while it still counts
        local charged = floor(floor(reservedAt / l.tick) / l.window)
        if charged == s.index then current = max(0, current + s.delta)
        elseif charged == s.index - 1 then previous = max(0, previous + s.delta) end
      end
      writes[w + 1], writes[w + 2] = l.field, decimal(current)
      writes[w + 3], writes[w + 4] = l.previous, decimal(previous)
      writes[w + 5], writes[w + 6] = l.counted, decimal(s.index)
      w = w + 6
      local window, elapsed = l.window, s.elapsed
      remaining = floor(((l.capacity - current) * window - previous * (window - elapsed)) / window)
      if current > 0 then untilFull = (2 * window - elapsed) * l.tick
      elseif previous > 0 then untilFull = (window - elapsed) * l.tick
      else untilFull = 0 end
    end
    if remaining < 0 then remaining = 0 end
    if untilFull > ttl then ttl = untilFull end
    reply[r + 1], reply[r + 2] = remaining, untilFull
    r = r + 2
  end

  if change then
    -- An idle subject disappears when it would be full anyway (+1 s margin for clock steps, rounded
    -- up to a whole second so that the calls of one second share one expiry).
    local expireAt = ceil((now + ttl) / 1000000) * 1000 + 1000
    local expiring = tonumber(stored[2])
    local later = expiring == nil or expireAt > expiring
    if later then
      writes[w + 1], writes[w + 2] = 'x', decimal(expireAt)
    end
    redis.call('HSET', key, unpack(writes))
    if later then
      redis.call('PEXPIREAT', key, expireAt)
    end
  end
  if not takes then reply[1] = 1 end
  if leasing and allowed == 1 then
    reply[r + 1], reply[r + 2] = grantRequests, grantTokens
  end
  return reply
end

local replies = {}
for i = 1, #KEYS do replies[i] = step(KEYS[i], ARGV[i]) end
return replies
