-- Tollgate live overrides: limits set at runtime for a tenant, a provider or a model, read by
-- every instance of the fleet, with an audit list of who changed what and when.
--
-- KEYS[1]  tg:{live}:overrides  hash: target -> JSON { "label", "limits": { key: text }, "by", "at" }
-- KEYS[2]  tg:{live}:version    integer raised by every change: instances poll it
-- KEYS[3]  tg:{live}:audit      list of JSON changes, newest first
-- KEYS[4]  tg:{live}:epoch      when the version count began (server ms): a Redis that lost its
--          data counts versions again from 1, and the epoch tells such a version 3 from the old one
--          (one hash tag: one slot)
-- ARGV[1]  'version' | 'read' | 'set' | 'remove' | 'audit'
--
-- version: reply { version, epoch }
-- read:    reply { version, epoch, target 1, JSON 1, target 2, JSON 2, ... }
-- set:     ARGV[2] target, ARGV[3] its JSON (without "at"), ARGV[4] the audit list's length
--          reply { version, the change's JSON }
-- remove:  ARGV[2] target, ARGV[3] JSON { "label", "by" } of who removes it, ARGV[4] as for set
--          reply { version, the change's JSON }, or { version } when there was nothing to remove
-- audit:   ARGV[2] how many changes, newest first; reply { version, JSON 1, JSON 2, ... }

local overrides, version, audit, epoch = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local op = ARGV[1]

local function current()
  return tonumber(redis.call('GET', version) or '0')
end

local function began()
  return tonumber(redis.call('GET', epoch) or '0')
end

if op == 'version' then
  return { current(), began() }
end

if op == 'read' then
  local reply = { current(), began() }
  local all = redis.call('HGETALL', overrides)
  for i = 1, #all do
    reply[#reply + 1] = all[i]
  end
  return reply
end

if op == 'audit' then
  local reply = { current() }
  local entries = redis.call('LRANGE', audit, 0, tonumber(ARGV[2]) - 1)
  for i = 1, #entries do
    reply[#reply + 1] = entries[i]
  end
  return reply
end

if op ~= 'set' and op ~= 'remove' then
  return redis.error_reply('unknown operation ' .. tostring(op))
end

local target = ARGV[2]
local given = cjson.decode(ARGV[3])
local time = redis.call('TIME')
local at = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local before = redis.call('HGET', overrides, target)

if op == 'remove' and not before then
  return { current() }
end

local change = {
  action = op,
  target = target,
  label = given.label,
  by = given.by,
  at = at,
}
if before then
  change.before = cjson.decode(before).limits
end
if op == 'set' then
  given.at = at
  redis.call('HSET', overrides, target, cjson.encode(given))
  change.after = given.limits
else
  redis.call('HDEL', overrides, target)
end

local v = redis.call('INCR', version)
if v == 1 then
  redis.call('SET', epoch, at)
end
change.version = v
local entry = cjson.encode(change)
redis.call('LPUSH', audit, entry)
redis.call('LTRIM', audit, 0, tonumber(ARGV[4]) - 1)
return { v, entry }
