#!/usr/bin/env bash
# Scripts and pipes through the real binary: a failed script keeps what ran
# before it, jsonl output parses line by line with jq, stdout of a script
# holds only results, and a second process reads while a shell holds the
# database open. Usage: pipes_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/db"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Each command commits on its own: those before a failure stay.
printf 'createtable t families=cf\nset t r1 cf:a=1@1000\nset t r2 nope:a=1@1000\nset t r3 cf:a=1@1000\n' >"$work/s.cbt"
if "$lbt" --db "$db" -f "$work/s.cbt" 2>"$work/err"; then fail "a failing script exited 0"; fi
grep -q "s.cbt:3: error:" "$work/err" || fail "the error did not name FILE:LINE: $(cat "$work/err")"
[ "$("$lbt" --db "$db" count t)" = 1 ] || fail "the command before the failure was not committed"

# jsonl: one JSON object per row, nothing else on stdout.
for i in $(seq 1 50); do echo "set t row$i cf:a=$'\\xff$i'@1000 cf:b=v$i@2000"; done >"$work/load.cbt"
"$lbt" --db "$db" -f "$work/load.cbt"
printf 'read t prefix=row\nls\ncount t\n' >"$work/q.cbt"
"$lbt" --db "$db" --format jsonl -f "$work/q.cbt" >"$work/out.jsonl"
lines="$(wc -l <"$work/out.jsonl")"
[ "$lines" = 52 ] || fail "expected 50 rows + ls + count, got $lines lines"
jq -c . "$work/out.jsonl" >/dev/null || fail "jsonl output does not parse"
[ "$(jq -r 'select(.key=="row7") | .cells[1].value' "$work/out.jsonl")" = v7 ] || fail "row7's value"
[ "$(jq -r 'select(.key=="row7") | .cells[0].value_b64' "$work/out.jsonl" | base64 -d | od -An -tx1 | tr -d ' ')" = ff37 ] \
  || fail "binary value not base64"
[ "$(tail -n1 "$work/out.jsonl")" = '{"count":51}' ] || fail "count line: $(tail -n1 "$work/out.jsonl")"
"$lbt" --db "$db" --format json read t count=2 | jq -e '.rows | length == 2' >/dev/null || fail "json read"

# Export to standard output and import from standard input; a JSON-lines
# file is recognized by its content, whatever its name.
"$lbt" --db "$db" export t - prefix=row1 2>/dev/null >"$work/rows.txt"
[ "$(wc -l <"$work/rows.txt")" = 11 ] || fail "export to - wrote $(wc -l <"$work/rows.txt") lines"
"$lbt" --db "$work/db2" createtable t families=cf
"$lbt" --db "$work/db2" import t "$work/rows.txt" 2>/dev/null || fail "a JSON-lines .txt file was not recognized"
"$lbt" --db "$work/db3" createtable t families=cf
"$lbt" --db "$work/db3" import t - format=jsonl <"$work/rows.txt" 2>/dev/null || fail "import from - failed"
cmp -s <("$lbt" --db "$work/db2" --format jsonl read t) <("$lbt" --db "$work/db3" --format jsonl read t) \
  || fail "import from a file and from stdin differ"

# A shell holding the database open does not block another process.
mkfifo "$work/fifo"
"$lbt" --db "$db" <"$work/fifo" >/dev/null &
shell_pid=$!
exec 3>"$work/fifo"
echo "set t held cf:a=1@1000" >&3
seen=""
for _ in $(seq 1 100); do
  seen="$("$lbt" --db "$db" --format jsonl lookup t held | jq -r .key)"
  [ "$seen" = held ] && break
  sleep 0.05
done
[ "$seen" = held ] || fail "a second process could not read what the held shell wrote"
"$lbt" --db "$db" set t other cf:a=2@1000 || fail "a second process could not write"
exec 3>&-
wait "$shell_pid"
echo "pipes and scripts: ok"
