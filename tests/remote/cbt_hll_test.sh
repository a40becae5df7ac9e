#!/usr/bin/env bash
# Google's cbt and an inthll family (hllpp_unique_count over int64 inputs)
# on lbt serve: cbt creates the family and shows its type as it shows the
# emulator's, its addtocell counts distinct values into a sketch (the
# emulator keeps only the last input), and SQL's HLL_COUNT.EXTRACT reads
# the count back within HLL++'s error.
# Usage: cbt_hll_test.sh LBT_BINARY
set -uo pipefail
lbt="$1"
here="$(cd "$(dirname "$0")" && pwd)"
results="$(mktemp -d)"
lbt_pid=""
cleanup() {
  [ -n "$lbt_pid" ] && kill "$lbt_pid" 2>/dev/null
  rm -rf "$results"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=../lib/servers.sh
. "$here/../lib/servers.sh"
require_cbt

start_lbt "$results/db" "$results/serve.log"

run_cbt createtable visits "families=users:never:inthll" || fail "cbt createtable with an inthll family"
run_cbt ls visits >"$results/ls" || fail "cbt ls"
grep -q '"hllppUniqueCount":{}' "$results/ls" || fail "cbt ls does not show the HLL type: $(cat "$results/ls")"
# 300 distinct users, each seen three times, a hundred cells per call.
for round in 1 2 3; do
  for start in 0 100 200; do
    cells=()
    for ((n = start; n < start + 100; n++)); do cells+=("users:day1=$((n * 7919))@1000"); done
    run_cbt addtocell visits site1 "${cells[@]}" || fail "cbt addtocell round $round"
  done
done
run_cbt read visits >"$results/read" || fail "cbt read"
grep -q '"LH\\x01' "$results/read" || fail "the cell does not hold a sketch: $(head -c 300 "$results/read")"
count="$(BIGTABLE_EMULATOR_HOST="$lbt_host" "$lbt" -project p -instance i --format json \
  sql "SELECT HLL_COUNT.EXTRACT(users['day1']) AS n FROM visits" | node -e \
  'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).rows[0].n)')"
# 300 distinct values in 32,768 registers: within a few of 300.
[ "$count" -ge 295 ] && [ "$count" -le 305 ] || fail "HLL_COUNT.EXTRACT gave '$count' for 300 distinct users"
echo "cbt inthll: ok (estimated $count of 300)"
