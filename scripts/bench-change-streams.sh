#!/usr/bin/env bash
# What a change stream costs: the same import, and the same single-row
# writes through lbt serve, into a table without one and into a table with
# one, in the same run, alternating, the median of each. Not part of the
# test suite. Prints a Markdown table for docs/benchmarks.md.
#
#   ./scripts/bench-change-streams.sh              100,000 time-series rows, 3 rounds
#   ./scripts/bench-change-streams.sh --rows 300000 --rounds 5
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"

rows=100000
rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "usage: $0 [--rows N] [--rounds N]" >&2; exit 2 ;;
  esac
done

lbt="$LBT_BUILD_DIR/lbt"
bench="$LBT_BUILD_DIR/bench/lbt_bench"
load="$LBT_BUILD_DIR/bench/serve_load"
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

"$bench" gen-timeorder "$rows" "$work/ts.csv"
options() { [ "$1" = on ] && echo "change-stream-retention=1d" || true; }

# 1. import into a new table, --sync=full.
for round in $(seq 1 "$rounds"); do
  for stream in off on; do
    db="$work/import-$stream-$round"
    "$lbt" --db "$db" createtable ts families=stats $(options "$stream")
    start=$(now)
    "$lbt" --db "$db" import ts "$work/ts.csv" >/dev/null 2>&1
    echo "$(elapsed "$start")" >>"$work/import-$stream"
    echo
    rm -rf "$db"
  done
done >/dev/null
import_off=$(median <"$work/import-off")
import_on=$(median <"$work/import-on")

# 2. single-row writes through lbt serve, --sync=full, 1 and 8 clients, 3 s.
serve() {
  "$lbt" serve --db "$1" --host 127.0.0.1 --port 0 >"$work/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 100); do grep -q BIGTABLE_EMULATOR_HOST= "$work/serve.log" && break; sleep 0.05; done
  host="$(grep -o 'BIGTABLE_EMULATOR_HOST=[0-9.:]*' "$work/serve.log" | cut -d= -f2)"
}
for round in $(seq 1 "$rounds"); do
  for stream in off on; do
    db="$work/serve-$stream-$round"
    "$lbt" --db "$db" createtable ts families=stats $(options "$stream")
    serve "$db"
    for clients in 1 8; do
      LBT_LOAD_INSTANCE=projects/lbt/instances/local "$load" "$host" ts write "$clients" 3 "$work/ts.csv" >"$work/load.txt"
      value ops_per_second "$work/load.txt" >>"$work/write-$clients-$stream"
    done
    kill "$serve_pid"
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
    rm -rf "$db"
  done
done

echo "| Benchmark | without a change stream | with one | with / without |"
echo "| --- | --- | --- | --- |"
echo "| import of $rows rows, --sync=full | ${import_off}s | ${import_on}s | $(ratio "$import_off" "$import_on")x the speed |"
for clients in 1 8; do
  off=$(median <"$work/write-$clients-off")
  on=$(median <"$work/write-$clients-on")
  echo "| lbt serve single-row writes, $clients client(s), --sync=full | ${off}/s | ${on}/s | $(ratio "$on" "$off")x |"
done
