#!/usr/bin/env bash
# Runs lbt's benchmarks and prints each figure with the ratio to its
# baseline measured in the same run (raw LMDB, and cbt + the official
# emulator), then writes docs/benchmarks.md. Not part of the test suite.
#
#   ./scripts/bench.sh              100,000 time-series rows (4 cells each)
#   ./scripts/bench.sh --rows 1000000
#   ./scripts/bench.sh --no-cbt     skip the cbt + emulator baselines
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"

rows=100000
with_cbt=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --no-cbt) with_cbt=0; shift ;;
    *) echo "usage: $0 [--rows N] [--no-cbt]" >&2; exit 2 ;;
  esac
done
command -v /usr/bin/time >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
if [ "$with_cbt" = 1 ] && ! command -v cbt >/dev/null 2>&1; then with_cbt=0; fi

lbt="$LBT_BUILD_DIR/lbt"
bench="$LBT_BUILD_DIR/bench/lbt_bench"
work="$(mktemp -d)"
cleanup() { [ -n "${LBT_EMULATOR_PID:-}" ] && kill "$LBT_EMULATOR_PID" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "n/a" }'; }
# Runs a command, printing "<seconds> <peak RSS in KiB>".
measure() { /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; return 1; }; cat "$work/time"; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

results=()
row() { results+=("| $1 | $2 | $3 | $4 |"); printf '%-44s %-22s %-26s %s\n' "$1" "$2" "$3" "$4"; }

echo "lbt benchmarks: $rows rows x 4 cells; $(nproc) cores; $(uname -sr)"
"$bench" gen "$rows" "$work/data.csv"
cells=$((rows / 100 * 100 * 4))
csv_bytes=$(stat -c %s "$work/data.csv")

# 1. Bulk load.
"$bench" raw-load "$work/data.csv" "$work/raw" >"$work/raw.txt"
raw_load=$(value raw_load_seconds "$work/raw.txt")
raw_bytes=$(value raw_bytes "$work/raw.txt")
"$lbt" --db "$work/db" createtable ts families=stats >/dev/null
read -r lbt_load lbt_load_rss < <(measure "$lbt" --db "$work/db" --sync=off import ts "$work/data.csv")
row "1. bulk load, lbt import (--sync=off)" "${lbt_load}s" "$(ratio "$lbt_load" "$raw_load")x raw LMDB (${raw_load}s)" "target <= 1.3x"
"$lbt" --db "$work/db_full" createtable ts families=stats >/dev/null
read -r lbt_load_full _ < <(measure "$lbt" --db "$work/db_full" import ts "$work/data.csv")
row "1. bulk load, lbt import (--sync=full)" "${lbt_load_full}s" "$(ratio "$lbt_load_full" "$raw_load")x raw LMDB" ""

if [ "$with_cbt" = 1 ]; then
  source scripts/cbt-emulator.sh
  lbt_start_emulator
  echo '{}' >"$work/creds.json"
  cbt() { command cbt -project bench -instance bench -creds "$work/creds.json" "$@"; }
  cbt createtable ts families=stats >/dev/null 2>&1
  start=$(now)
  cbt import ts "$work/data.csv" batch-size=500 >/dev/null 2>&1
  cbt_load=$(elapsed "$start")
  row "1. bulk load, cbt import + emulator" "${cbt_load}s" "lbt is $(ratio "$cbt_load" "$lbt_load")x faster" "target >= 5x"
  emulator_rss=$(awk '/VmRSS/ { print $2 }' "/proc/$LBT_EMULATOR_PID/status")
fi

# 2. Full scans to /dev/null.
"$bench" raw-scan "$work/raw" >"$work/rawscan.txt"
raw_scan=$(value raw_scan_seconds "$work/rawscan.txt")
read -r scan_text scan_rss < <(measure "$lbt" --db "$work/db" read ts)
read -r scan_jsonl _ < <(measure "$lbt" --db "$work/db" --format jsonl read ts)
row "2. full scan, lbt text" "${scan_text}s, $(rate "$cells" "$scan_text") cells/s" "$(ratio "$scan_text" "$raw_scan")x raw cursor (${raw_scan}s)" ""
row "2. full scan, lbt jsonl" "${scan_jsonl}s, $(rate "$cells" "$scan_jsonl") cells/s" "$(ratio "$scan_jsonl" "$raw_scan")x raw cursor" "target >= 2M cells/s"
if [ "$with_cbt" = 1 ]; then
  start=$(now)
  cbt read ts >/dev/null 2>&1
  cbt_scan=$(elapsed "$start")
  row "2. full scan, cbt read + emulator" "${cbt_scan}s" "lbt text is $(ratio "$cbt_scan" "$scan_text")x faster" "target >= 10x"
fi

# 3. Point lookups and prefix reads.
"$bench" lookups "$work/db" ts "$work/data.csv" 200000 >"$work/lookups.txt"
"$bench" prefixes "$work/db" ts 2000 >"$work/prefixes.txt"
row "3. engine point lookup" "$(value engine_lookup_per_second "$work/lookups.txt") lookups/s" \
  "p50 $(value engine_lookup_p50 "$work/lookups.txt")us, p99 $(value engine_lookup_p99 "$work/lookups.txt")us" "target >= 1M/s"
row "3. engine prefix read (~100 rows)" "$(value engine_prefix_read_cells_per_second "$work/prefixes.txt") cells/s" \
  "p50 $(value engine_prefix_read_p50 "$work/prefixes.txt")us, p99 $(value engine_prefix_read_p99 "$work/prefixes.txt")us" ""
awk -F, 'NR > 2 && NR % 97 == 0 && n++ < 1000 { print "lookup ts " $1 }' "$work/data.csv" >"$work/lookups.cbt"
n_script=$(wc -l <"$work/lookups.cbt")
start=$(now)
"$lbt" --db "$work/db" -f "$work/lookups.cbt" >/dev/null
script_lookups=$(elapsed "$start")
row "3. lookups through one lbt script" "$(rate "$n_script" "$script_lookups") lookups/s" "$n_script lookups in ${script_lookups}s" ""

# 4. Startup: a one-shot count on a small table.
"$lbt" --db "$work/small" createtable t families=cf >/dev/null
"$lbt" --db "$work/small" set t r cf:a=1 >/dev/null
start=$(now)
for _ in $(seq 1 50); do "$lbt" --db "$work/small" count t >/dev/null; done
startup=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 50 }')
if [ "$with_cbt" = 1 ]; then
  cbt createtable small families=cf >/dev/null 2>&1
  start=$(now)
  for _ in $(seq 1 10); do cbt count small >/dev/null 2>&1; done
  cbt_startup=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 10 }')
  start=$(now)
  for _ in 1 2 3; do command cbt -project bench -instance bench count small >/dev/null 2>&1; done
  cbt_plain=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 3 }')
  row "4. startup, lbt count (small table)" "${startup} ms" "cbt count: ${cbt_plain} ms (${cbt_startup} ms with -creds)" "target < 10 ms"
else
  row "4. startup, lbt count (small table)" "${startup} ms" "" "target < 10 ms"
fi

# 5. Peak memory.
row "5. peak RSS, lbt full scan" "$((scan_rss / 1024)) MiB" "$rows rows" "target < 64 MiB, flat"
row "5. peak RSS, lbt import" "$((lbt_load_rss / 1024)) MiB" "$rows rows" "target < 64 MiB, flat"
if [ "$with_cbt" = 1 ]; then row "5. emulator RSS holding the table" "$((emulator_rss / 1024)) MiB" "" ""; fi

# 6. Size on disk.
size_import=$(stat -c %s "$work/db/data.mdb")
"$lbt" --db "$work/db" compact >/dev/null
size_compact=$(stat -c %s "$work/db/data.mdb")
row "6. database size after import" "$((size_import / 1048576)) MiB" "$(ratio "$size_import" "$raw_bytes")x raw key+value bytes" ""
row "6. database size after compact" "$((size_compact / 1048576)) MiB" "$(ratio "$size_compact" "$raw_bytes")x raw key+value bytes" ""

{
  echo "# Benchmarks"
  echo
  echo "Produced by \`./scripts/bench.sh --rows $rows\` on $(date -u +%Y-%m-%d): $(nproc) cores,"
  echo "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) of memory, $(uname -sr)."
  echo "Data: $rows time-series rows \`host0137#1700000000000\` (the layout Bigtable's time-series"
  echo "guide recommends), 4 cells each in one family, $((csv_bytes / 1048576)) MiB of CSV, generated with a fixed seed."
  echo "Every ratio compares figures measured in the same run."
  echo
  echo "| Benchmark | lbt | Against the baseline | Target |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${results[@]}"
} >docs/benchmarks.md.new
echo
echo "results written to docs/benchmarks.md (notes in that file are kept below the table)"
if [ -f docs/benchmarks.md ] && grep -q '^## Notes' docs/benchmarks.md; then
  { echo; sed -n '/^## Notes/,$p' docs/benchmarks.md; } >>docs/benchmarks.md.new
fi
mv docs/benchmarks.md.new docs/benchmarks.md
