#!/usr/bin/env bash
# lbt studio on a big table: each statement the page runs, timed through
# the studio's API and, as the baseline in the same run, through the shell
# (`lbt --format jsonl`, the same command and renderer without HTTP); the
# studio's peak anonymous memory during each (its heap, not LMDB's mapped
# file); and how soon Stop ends a long query. Not part of the test suite.
# Prints a Markdown table for docs/benchmarks.md.
#
#   ./scripts/bench-studio.sh                  10,000,000 rows
#   ./scripts/bench-studio.sh --rows 1000000
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"

rows=10000000
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    *) echo "usage: $0 [--rows N]" >&2; exit 2 ;;
  esac
done

lbt="$LBT_BUILD_DIR/lbt"
work="$(mktemp -d)"
studio_pid=""
cleanup() {
  [ -n "$studio_pid" ] && kill "$studio_pid" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Sensor readings: 5,000 sensors, two cells a row, keyed sensor#id#sequence.
echo "importing $rows rows..." >&2
awk -v rows="$rows" 'BEGIN { print ",m,m"; print ",temp,hum";
  for (i = 0; i < rows; i++) printf "sensor#%04d#%010d,%d,%d\n", i % 5000, int(i / 5000), i % 40, i % 100 }' \
  >"$work/rows.csv"
"$lbt" --db "$work/db" createtable readings families=m >/dev/null
import_start=$(date +%s.%N)
"$lbt" --db "$work/db" import readings "$work/rows.csv" >/dev/null 2>&1
import_s=$(echo "$(date +%s.%N) - $import_start" | bc)
rm "$work/rows.csv"

"$lbt" --db "$work/db" studio --port 0 --no-open >"$work/studio.log" 2>&1 &
studio_pid=$!
for _ in $(seq 100); do grep -q "running on http" "$work/studio.log" && break; sleep 0.1; done
url="$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$work/studio.log")"
port="${url#http://127.0.0.1:}"
port="${port%%/*}"
token="${url##*token=}"

# The studio's peak anonymous memory (kB) while FLAG exists.
# Reads /proc with shell builtins, so that watching takes no CPU from the
# statement watched.
watch_memory() {
  local peak=0 key value _
  while [ -e "$1" ]; do
    while read -r key value _; do
      [ "$key" = "RssAnon:" ] && [ "$value" -gt "$peak" ] && peak=$value
    done <"/proc/$studio_pid/status"
    sleep 0.05
  done
  echo "$peak"
}
# Runs STATEMENT through the API: prints "seconds bytes peak_kB".
api() {
  local flag="$work/measuring" body
  body="$(node -e 'console.log(JSON.stringify({statement: process.argv[1]}))' "$1")"
  touch "$flag"
  watch_memory "$flag" >"$work/peak" &
  local timing
  timing=$(curl -s -o "$work/answer" -w "%{time_total} %{size_download}" -H "X-Lbt-Token: $token" -d "$body" \
    "http://127.0.0.1:$port/api/run")
  rm "$flag"
  wait $!
  echo "$timing $(cat "$work/peak")"
}
shell_seconds() {
  local start
  start=$(date +%s.%N)
  "$lbt" --db "$work/db" --format jsonl "$1" >/dev/null 2>&1 || true
  echo "$(date +%s.%N) - $start" | bc
}

echo "| statement ($rows rows, imported in ${import_s%.*} s) | studio | shell | answer | studio's peak heap |"
echo "| --- | --- | --- | --- | --- |"
while IFS= read -r statement; do
  read -r seconds bytes peak < <(api "$statement")
  baseline=$(shell_seconds "$statement")
  printf '| `%s` | %.2f s | %.2f s | %s B | %s MiB |\n' "$statement" "$seconds" "$baseline" "$bytes" "$((peak / 1024))"
done <<'STATEMENTS'
ls readings
stats readings sample=10000
read readings prefix=sensor#0001 count=50 cells-per-column=1
read readings start=sensor#0001#0000000049 end=sensor#0002 count=51 cells-per-column=1
sql SELECT * FROM readings
sql SELECT COUNT(*) AS n FROM readings
advise readings
keyviz readings
hotspots readings
STATEMENTS

# Stop: a whole-table aggregate, stopped a second after it began.
start=$(date +%s.%N)
curl -s -o /dev/null -H "X-Lbt-Token: $token" -d '{"statement": "sql SELECT COUNT(*) AS n FROM readings"}' \
  "http://127.0.0.1:$port/api/run" &
sleep 1
curl -s -o /dev/null -H "X-Lbt-Token: $token" -d '' "http://127.0.0.1:$port/api/cancel"
wait $!
echo
echo "Stop pressed 1 s into \`SELECT COUNT(*)\`: answered after $(echo "$(date +%s.%N) - $start" | bc | cut -c1-4) s."
