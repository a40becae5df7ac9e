#!/usr/bin/env bash
# The examples people copy. README's quick start runs as written, from a
# folder laid out as a clone after its build (build/ holds the binaries;
# only its first line, which builds, is left out, and its port is a free
# one), and then the schema lab's examples, on the quick start's table.
# Every example of `help` runs against the shipped lessons' tables
# (examples/mobile-time-series and examples/counters, in one database), in
# one sequence: what creates first, what deletes last (see order_examples).
# Usage: docs_examples_test.sh LBT_BINARY
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 LBT_BINARY" >&2; exit 2; }
lbt="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
bin="$(dirname "$lbt")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
lbt_pid=""
trap '[ -n "$lbt_pid" ] && kill "$lbt_pid" 2>/dev/null; wait; rm -rf "$work"' EXIT
export TZ=UTC LBT_HISTFILE=/dev/null
unset LBT_DB BIGTABLE_EMULATOR_HOST

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# shellcheck source=../lib/servers.sh
. "$here/../lib/servers.sh"

# --- README's quick start ----------------------------------------------------

clone="$work/clone"
mkdir -p "$clone"
ln -s "$bin" "$clone/build"
ln -s "$root/examples" "$clone/examples"
ln -s "$root/scripts" "$clone/scripts"
awk '/^## Quick start/ { q = 1 } q && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b' "$root/README.md" \
  >"$work/quickstart.sh"
[ "$(grep -c . "$work/quickstart.sh")" -ge 10 ] || fail "README has no quick start block"
grep -q '^\./scripts/run\.sh ' "$work/quickstart.sh" || fail "the quick start does not begin with ./scripts/run.sh"
grep -q 'exec .*lbt' "$root/scripts/run.sh" || grep -q '"\$@"' "$root/scripts/run.sh" ||
  fail "scripts/run.sh does not pass its arguments to lbt"
# The schema lab's examples, which read the quick start's table, run after it.
awk '/^## The schema lab/ { q = 1 } q && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b' "$root/README.md" \
  >"$work/schema_lab.sh"
grep -q 'mobile_time_series' "$work/schema_lab.sh" || fail "README's schema lab examples do not read the quick start's table"
port="$(free_port)"
{
  echo 'set -ex'
  grep -v '^\./scripts/run\.sh ' "$work/quickstart.sh" | sed "s/8086/$port/g"
  echo 'wait'  # for the server the quick start stopped
  cat "$work/schema_lab.sh"
} >"$work/quickstart.run.sh"
if ! (cd "$clone" && bash "$work/quickstart.run.sh") </dev/null >"$work/quick.out" 2>"$work/quick.err"; then
  fail "the quick start failed: $(grep -v '^+' "$work/quick.err" | tail -n 3)"
fi
grep -q 'phone#4c410523#20190501' "$work/quick.out" || fail "the quick start's read showed no row"
grep -qE '^Done importing [0-9]+ rows' "$work/quick.out" "$work/quick.err" || fail "the quick start's import"
[ -s "$clone/mobile_time_series.html" ] || fail "the quick start's keyviz wrote no page"
[ -s "$clone/kv.html" ] || fail "the schema lab's keyviz example wrote no page"
counts="$(grep -xE '[0-9]+' "$work/quick.out" | sort -u)"
[ "$(wc -l <<<"$counts")" = 1 ] && [ "$counts" -gt 3000 ] ||
  fail "the counts through lbt serve differ or are short: $counts"
! grep -q 'failed to connect' "$work/quick.err" || fail "a command did not reach the server"

# --- help's examples ---------------------------------------------------------

# The lessons' tables, in one database; examples run from the
# mobile-time-series lesson's folder, beside its data file.
db="$work/lessons-db"
for lesson in mobile-time-series counters; do
  data="$work/$lesson"
  mkdir -p "$data"
  node "$root/examples/$lesson/generate.mjs" 3100 "$data" >/dev/null
  cp "$root/examples/$lesson/lesson.cbt" "$data/"
  (cd "$data" && "$lbt" --db "$db" --sync=off -f lesson.cbt) >"$work/$lesson.out" 2>&1 ||
    fail "the $lesson lesson failed: $(tail -n 3 "$work/$lesson.out")"
done

# Each example of `help <command>`: "Example: X" lines, and the lines of an
# "Example(s):" block (a deeper indent continues the line above).
examples_of() {
  "$lbt" help "$1" | awk '
    function flush() { if (cur != "") print cur; cur = "" }
    /^  Examples?:/ {
      flush()
      rest = $0; sub(/^  Examples?: */, "", rest)
      if (rest != "") { print rest; block = 0 } else block = 1
      next
    }
    block && /^      / { line = $0; sub(/^ +/, "", line); cur = cur " " line; next }
    block && /^    [^ ]/ { flush(); cur = substr($0, 5); next }
    { flush(); block = 0 }
    END { flush() }'
}

# The order they run in: creating commands first (an instance before its
# cluster), then the rest, then changes, then deletions, innermost first,
# so that each finds what it names.
rank() {
  local creates=(createinstance createcluster createappprofile createtable createfamily createauthorizedview
    createlogicalview creatematerializedview createbackup)
  # undeletetable brings back what deletetable deleted.
  # setchangestream's second example turns the stream off, which waits
  # for the materialized views that read it to go.
  local deletes=(deletecolumn deleterow deleteappprofile deleteauthorizedview deletelogicalview
    deletematerializedview setchangestream deletebackup deletecluster deleteallrows deletefamily deletetable undeletetable
    deleteinstance)
  local i
  for i in "${!creates[@]}"; do [ "$1" = "${creates[$i]}" ] && { printf '1%02d' "$i"; return; }; done
  for i in "${!deletes[@]}"; do [ "$1" = "${deletes[$i]}" ] && { printf '4%02d' "$i"; return; }; done
  case "$1" in
    faults) echo 500 ;;  # last: through a server on the database
    update* | restoretable | copybackup) echo 300 ;;
    *) echo 200 ;;
  esac
}

"$lbt" --format json help | jq -r '.. | objects | (.command? // empty) | strings' | sort -u >"$work/commands"
[ "$(wc -l <"$work/commands")" -gt 40 ] || fail "help lists only $(wc -l <"$work/commands") commands"
while IFS= read -r command; do
  while IFS= read -r example; do
    printf '%s\t%s\t%s\n' "$(rank "$command")" "$command" "$example"
  done < <(examples_of "$command")
done <"$work/commands" | sort -s -t $'\t' -k1,1 -k2,2 | awk -F '\t' '!seen[$3]++' >"$work/examples"
[ "$(wc -l <"$work/examples")" -gt 50 ] || fail "only $(wc -l <"$work/examples") help examples found"

while IFS=$'\t' read -r _ command example; do
  # faults are a server's: the shell on a database lbt serve holds reaches it.
  if [ "$command" = faults ] && [ -z "$lbt_pid" ]; then start_lbt "$db" "$work/serve.log"; fi
  if ! (cd "$work/mobile-time-series" && "$lbt" --db "$db" <<<"$example") >"$work/example.out" 2>&1; then
    fail "help $command: '$example': $(tail -n 2 "$work/example.out")"
  fi
done <"$work/examples"

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "docs examples: ok ($(wc -l <"$work/examples") help examples)"
