#!/usr/bin/env bash
# The anchor benchmark (its path in ANCHOR_BENCH, by default ../shared/anchor-bench) with Tollgate's
# rows on today's API: copies the harness beside a scratch Maven repository, puts
# bench/anchor/Tollgate.java.part in place of its Tollgate class, installs this checkout's core into
# that repository, and runs the harness's run.sh with the arguments given (e.g. --sections matrix
# --threads 16,64).
# From the project's root:  bench/anchor/run.sh [harness arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
harness=${ANCHOR_BENCH:-$root/../shared/anchor-bench}
work=$(mktemp -d)
repo=$work/m2
cp -r "$harness" "$work/anchor-bench"
limiters=$work/anchor-bench/src/main/java/bench/Limiters.java
# everything before the harness's own Tollgate class, then ours, then the file's closing brace
awk '/^  \/\*\*$/ { held = $0; next }
     held != "" && /f\.\/g\. The project/ { exit }
     held != "" { print held; held = "" }
     { print }' "$limiters" > "$limiters.new"
cat "$root/bench/anchor/Tollgate.java.part" >> "$limiters.new"
mv "$limiters.new" "$limiters"
grep -q "bench/anchor/run.sh puts it in place" "$limiters" \
  || { echo "could not put Tollgate's class in place in $limiters" >&2; exit 1; }
# as the version the harness's pom names, whatever .mvn/maven.config says
(cd "$root" && mvn -q -B -ntp -Dmaven.repo.local="$repo" -Drevision=0.1.0-SNAPSHOT install -DskipTests -pl core -am)
cd "$work/anchor-bench"
export MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$repo"
./run.sh "$@"
echo "harness copy (with results/) in $work/anchor-bench"
