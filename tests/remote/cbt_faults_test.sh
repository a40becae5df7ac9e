#!/usr/bin/env bash
# Google's cbt against lbt serve's fault rules, where cbt (Go's client)
# retries: a write of explicitly stamped cells (idempotent) through two
# UNAVAILABLE answers, an import whose batches fail whole or entry by
# entry, a read and a count broken after some rows, which resume and see
# every row once; a PERMISSION_DENIED reaches cbt, which does not retry it.
# The rules are added with lbt's `faults` command, through the server.
# Usage: cbt_faults_test.sh LBT_BINARY
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
log="$results/serve.log"
faults() { BIGTABLE_EMULATOR_HOST="$lbt_host" "$lbt" -project p -instance i faults "$@" >/dev/null || fail "faults $*"; }
# How many faults rule N fired, as the server says.
fired() { grep -c "fault rule $1: " "$log"; }

run_cbt createtable t families=cf || fail "cbt createtable"

# A set of stamped cells is idempotent: cbt retries it through UNAVAILABLE.
faults add '{"rpc": "MutateRow", "table": "t", "code": "UNAVAILABLE", "times": 2}'
run_cbt set t row0 cf:a=0@1000 || fail "cbt set did not retry through UNAVAILABLE: $(tail -3 "$log")"
[ "$(fired 1)" -eq 2 ] || fail "the MutateRow rule fired $(fired 1) times, not 2"

# An import: its first batch fails whole twice, then the entries under "b"
# fail once in their own statuses; cbt retries and every row lands once.
faults clear
faults add '[{"rpc": "MutateRows", "table": "t", "code": "UNAVAILABLE", "times": 2},
             {"rpc": "MutateRows", "row_prefix": "b", "entries": true, "code": "UNAVAILABLE", "times": 1}]'
{
  echo ",cf"
  echo ",q"
  for n in $(seq 10 29); do echo "a$n,v$n@2000"; done
  for n in $(seq 10 29); do echo "b$n,v$n@2000"; done
} >"$results/rows.csv"
run_cbt import t "$results/rows.csv" timestamp=value-encoded >"$results/import.out" 2>&1 ||
  fail "cbt import did not retry: $(cat "$results/import.out")"
grep -q "fails 20 of 40 entries" "$log" || fail "no entry-level failure: $(tail -5 "$log")"
[ "$(run_cbt count t)" = 41 ] || fail "cbt count after the import: $(run_cbt count t)"

# A read and a count broken after 5 rows resume after the last row they got.
faults clear
faults add '{"rpc": "ReadRows", "table": "t", "after_rows": 5, "code": "UNAVAILABLE", "times": 2}'
[ "$(run_cbt count t)" = 41 ] || fail "cbt count did not resume to 41 rows"
run_cbt read t columns=cf:q >"$results/read.out" || fail "cbt read did not resume"
rows="$(grep -c '^[ab][0-9]' "$results/read.out")"
distinct="$(grep '^[ab][0-9]' "$results/read.out" | sort -u | wc -l)"
[ "$rows" -eq 40 ] && [ "$distinct" -eq 40 ] || fail "cbt read returned $rows rows ($distinct distinct), not 40 once each"
grep -q "ReadRows on table t fails with UNAVAILABLE after 5 rows" "$log" || fail "no line for the cut"

# PERMISSION_DENIED is not retried: cbt says it.
faults clear
faults add '{"rpc": "ReadRows", "code": "PERMISSION_DENIED", "message": "denied by the test"}'
if out="$(run_cbt read t 2>&1)"; then fail "cbt read succeeded through PERMISSION_DENIED"; fi
[[ "$out" == *"denied by the test"* ]] || fail "cbt does not show the injected error: $out"
[ "$(grep -c "ReadRows on table t fails with PERMISSION_DENIED" "$log")" -eq 1 ] || fail "cbt retried PERMISSION_DENIED"
echo "ok"
