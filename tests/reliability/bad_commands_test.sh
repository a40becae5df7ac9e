#!/usr/bin/env bash
# Feeds every line of bad_commands.txt to lbt as a script and checks: exit
# status 1, exactly one line on stderr naming the problem, nothing on stdout,
# and a database identical before and after. Usage: bad_commands_test.sh LBT
set -uo pipefail
lbt="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/db"

"$lbt" --db "$db" -c "createtable t families=cf:maxversions=3,agg:never:intsum" \
  -c "set t r cf:a=1@1000 cf:a=2@2000 cf:b=x@1000" -c "set t r2 cf:a=3@1000" -c "addtocell t r agg:c=5@1000" \
  || { echo "FAIL: setup"; exit 1; }
dump() {
  { "$lbt" --db "$db" ls; "$lbt" --db "$db" ls t; "$lbt" --db "$db" --format jsonl read t; } 2>&1
}
before="$(dump)"
longkey="$(head -c 4097 /dev/zero | tr '\0' k)"
longqual="$(head -c 16385 /dev/zero | tr '\0' q)"

failures=0 count=0
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in ''|'#'*) continue ;; esac
  line="${line//LONGKEY/$longkey}"
  line="${line//LONGQUAL/$longqual}"
  count=$((count + 1))
  printf '%s\n' "$line" >"$work/cmd.cbt"
  "$lbt" --db "$db" <"$work/cmd.cbt" >"$work/out" 2>"$work/err"
  status=$?
  shown="${line:0:80}"
  if [ "$status" != 1 ]; then echo "FAIL [$shown]: exit status $status, expected 1"; failures=$((failures + 1)); fi
  if [ -s "$work/out" ]; then echo "FAIL [$shown]: printed on stdout: $(head -c 200 "$work/out")"; failures=$((failures + 1)); fi
  lines=$(wc -l <"$work/err")
  if [ "$lines" != 1 ] || ! grep -qE '^<stdin>:1: (error|ERROR): .{10,}' "$work/err"; then
    echo "FAIL [$shown]: expected one error line, got: $(head -c 300 "$work/err")"; failures=$((failures + 1))
  fi
done <"$here/bad_commands.txt"

after="$(dump)"
if [ "$before" != "$after" ]; then
  echo "FAIL: the database changed"; diff <(echo "$before") <(echo "$after") | head -20; failures=$((failures + 1))
fi
echo "$count bad commands, $failures failures"
[ "$failures" = 0 ]
