# Runs one redis-server and guarantees it dies with the JVM that asked for it.
#
# Usage: sh -c "$(cat watchdog.sh)" tollgate-redis-watchdog LOG_FILE REDIS_SERVER [ARGS...]
#
# Why: a JVM shutdown hook does not run when the JVM is killed with SIGKILL (an IDE's stop
# button, a CI timeout, kill -9 of a surefire fork), and Linux does not kill a process when its
# parent dies. The JVM holds the write end of this script's stdin and never writes to it; the
# kernel closes it however the JVM ends, the read below sees end-of-file, and the server is
# killed. Writes: the server's PID as the first line of stdout; everything else goes to LOG_FILE.
log="$1"
shift
"$@" >>"$log" 2>&1 &
server=$!
echo "$server"
exec >>"$log" 2>&1
# Background jobs get /dev/null as stdin, so hand the watcher the real stdin through fd 3.
exec 3<&0
( while read -r _ignored; do :; done <&3; kill -KILL "$server" 2>/dev/null ) &
watcher=$!
exec 3<&-
# Exit when the server does (SHUTDOWN, crash, SIGKILL), with its status, so the JVM can wait on us.
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
