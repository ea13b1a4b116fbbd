#!/usr/bin/env bash
# What one step of lua/limiter.lua costs Redis, with nothing else in the way: the script's step is
# run 1,000 times in one call, each on its own subject, two limits (requests and tokens per minute,
# as the anchor harness sets them), on a throw-away redis-server. Prints µs per step: the median and
# the least of 20 calls (commandstats). Needs redis-server and redis-cli on the PATH.
# From the project's root:  bench/step/step-cost.sh [limiter.lua ...]   (default lua/limiter.lua)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
port=${PORT:-6396}
work=$(mktemp -d)
redis-server --port "$port" --save '' --appendonly no --daemonize yes --pidfile "$work/redis.pid" \
  --dir "$work" > /dev/null
trap 'kill "$(cat "$work/redis.pid")" 2> /dev/null; rm -rf "$work"' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done
for script in "${@:-$root/lua/limiter.lua}"; do
  # the script without its last three lines (the loop over KEYS), then 1,000 steps
  { head -n -3 "$script"
    cat <<'LUA'
local run = struct.pack('<Bi8i8i8i8i8i8i8i8i8', 0, 1, 50, 0, 0, 0, 0, 0, 0, 2)
  .. struct.pack('<sBi8i8i8i8', 'rb60000000:100000', 0, 100000, 60000000, 1, 0)
  .. struct.pack('<sBi8i8i8i8', 'tb60000000:10000000', 1, 10000000, 60000000, 1, 0)
local reply
for i = 1, 1000 do reply = step('{step}:' .. i, run) end
return reply
LUA
  } > "$work/steps.lua"
  sha=$(redis-cli -p "$port" script load "$(cat "$work/steps.lua")")
  redis-cli -p "$port" flushall > /dev/null
  redis-cli -p "$port" evalsha "$sha" 0 > /dev/null
  for _ in $(seq 20); do
    redis-cli -p "$port" config resetstat > /dev/null
    redis-cli -p "$port" evalsha "$sha" 0 > /dev/null
    redis-cli -p "$port" info commandstats | sed -n 's/^cmdstat_evalsha:.*usec_per_call=\([0-9.]*\).*/\1/p'
  done | sort -n | awk -v s="$script" '{ a[NR] = $1 }
    END { printf "%s: %.2f µs a step (median), %.2f (least)\n", s, a[int(NR / 2) + 1] / 1000, a[1] / 1000 }'
done
