#!/usr/bin/env bash
# What materialized views cost and how far they trail: single-row writes
# through lbt serve into a table without views and into the same table
# with two (a per-row aggregate keyed by _key, and a secondary index), in
# the same run, alternating, the median of each; and the lag of the view
# (from a write's answer to the view showing it) idle and under that load.
# Not part of the test suite. Prints a Markdown table for
# docs/benchmarks.md.
#
#   ./scripts/bench-materialized-views.sh            100,000 time-series rows, 3 rounds
#   ./scripts/bench-materialized-views.sh --rounds 5
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
lag="$LBT_BUILD_DIR/bench/view_lag"
work="$(mktemp -d)"
serve_pid=""
load_pid=""
cleanup() {
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

"$bench" gen-timeorder "$rows" "$work/ts.csv"

serve() {
  "$lbt" serve --db "$1" --host 127.0.0.1 --port 0 >"$work/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 100); do grep -q BIGTABLE_EMULATOR_HOST= "$work/serve.log" && break; sleep 0.05; done
  host="$(grep -o 'BIGTABLE_EMULATOR_HOST=[0-9.:]*' "$work/serve.log" | cut -d= -f2)"
}
# A table of $rows rows (imported), with the two views or none; the views
# are built (backfilled) before the load starts.
prepare() {
  "$lbt" --db "$1" createtable ts families=stats
  "$lbt" --db "$1" import ts "$work/ts.csv" >/dev/null 2>&1
  if [ "$2" = on ]; then
    "$lbt" --db "$1" creatematerializedview per_row "SELECT _key, COUNT(*) AS cells, MAX(CAST(stats['load'] AS STRING)) AS latest FROM ts GROUP BY _key" >/dev/null
    "$lbt" --db "$1" creatematerializedview by_load "SELECT CAST(stats['load'] AS STRING) AS load, _key AS k FROM ts WHERE stats['load'] IS NOT NULL ORDER BY load, k" >/dev/null
    "$lbt" --db "$1" sql "SELECT COUNT(*) AS n FROM per_row" >/dev/null
  fi
}
for round in $(seq 1 "$rounds"); do
  for views in off on; do
    db="$work/db-$views-$round"
    prepare "$db" "$views"
    serve "$db"
    LBT_LOAD_INSTANCE=projects/lbt/instances/local "$load" "$host" ts write 8 3 "$work/ts.csv" >"$work/load.txt"
    value ops_per_second "$work/load.txt" >>"$work/write-$views"
    if [ "$views" = on ]; then
      "$lag" "$host" ts per_row 3 >"$work/lag.txt"
      value lag_p50_ms "$work/lag.txt" >>"$work/idle-p50"
      value lag_p99_ms "$work/lag.txt" >>"$work/idle-p99"
      LBT_LOAD_INSTANCE=projects/lbt/instances/local "$load" "$host" ts write 8 5 "$work/ts.csv" >/dev/null &
      load_pid=$!
      sleep 0.5
      "$lag" "$host" ts per_row 4 >"$work/lag.txt"
      wait "$load_pid" || true
      load_pid=""
      value lag_p50_ms "$work/lag.txt" >>"$work/load-p50"
      value lag_p99_ms "$work/lag.txt" >>"$work/load-p99"
      value lag_max_ms "$work/lag.txt" >>"$work/load-max"
    fi
    kill "$serve_pid"
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
    rm -rf "$db"
  done
done

off=$(median <"$work/write-off")
on=$(median <"$work/write-on")
echo "| Benchmark | without views | with two views | with / without |"
echo "| --- | --- | --- | --- |"
echo "| lbt serve single-row writes, 8 clients, into $rows rows | ${off}/s | ${on}/s | $(ratio "$on" "$off")x |"
echo
echo "| View lag (write answered → view shows it) | p50 | p99 |"
echo "| --- | --- | --- |"
echo "| idle | $(median <"$work/idle-p50") ms | $(median <"$work/idle-p99") ms |"
echo "| under 8 writing clients | $(median <"$work/load-p50") ms | $(median <"$work/load-p99") ms (max $(median <"$work/load-max") ms) |"
