# Runs one redis-server and guarantees it dies with the JVM that asked for it.
#
# Usage: sh -c "$(cat watchdog.sh)" tollgate-redis-watchdog LOG_FILE WORK_DIR REDIS_SERVER [ARGS...]
#
# Why: a JVM shutdown hook does not run when the JVM is killed with SIGKILL (an IDE's stop
# button, a CI timeout, kill -9 of a surefire fork), and Linux does not kill a process when its
# parent dies. The JVM holds the write end of this script's stdin and never writes to it; the
# kernel closes it however the JVM ends, the read below sees end-of-file, and the server is
# killed and WORK_DIR (may be empty) deleted: no JVM is left to do either.
# Writes: the server's PID as the first line of stdout; everything else goes to LOG_FILE.
log="$1"
work_dir="$2"
shift 2
"$@" >>"$log" 2>&1 &
server=$!
echo "$server"
exec >>"$log" 2>&1
# Background jobs get /dev/null as stdin, so hand the watcher the real stdin through fd 3.
exec 3<&0
(
  while read -r _ignored; do :; done <&3
  trap '' TERM # the JVM is gone: finish the clean-up even when the outer shell says stop
  kill -KILL "$server" 2>/dev/null
  if [ -n "$work_dir" ]; then rm -rf "$work_dir"; fi
) &
watcher=$!
exec 3<&-
# Exit when the server does (SHUTDOWN, crash, SIGKILL), with its status, so the JVM can wait on
# us. The watcher goes too: the JVM still runs and owns the directory, e.g. for a restart.
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
