#!/usr/bin/env bash
# Statements given on lbt's command line: one argument holding a whole
# statement keeps its quotes (HBase, SQL and explain need them), separate
# arguments stay the words the calling shell made, and source runs a file.
# Usage: argv_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/db"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$lbt" --db "$db" "create 'promoted', 'cf'" >/dev/null
"$lbt" --db "$db" "put 'promoted', 'sensor007#1', 'cf:a', 'v'" >/dev/null
"$lbt" --db "$db" set promoted 'sensor008#1' 'cf:a=hello world'

# explain of an HBase read, quoted whole: its quotes reach the HBase parser.
out="$("$lbt" --db "$db" "explain analyze scan 'promoted', {ROWPREFIXFILTER => 'sensor007#'}")" \
  || fail "explain analyze of a quoted HBase scan failed"
grep -q 'access: prefix scan' <<<"$out" || fail "no prefix scan in: $out"
grep -q 'returned: 1 row, 1 cell' <<<"$out" || fail "the scan's counts: $out"

# explain of a query, typed with sql or as SELECT.
out="$("$lbt" --db "$db" "explain sql SELECT _key FROM promoted WHERE _key = 'sensor007#1'")" \
  || fail "explain sql failed"
grep -q 'sensor007#1' <<<"$out" || fail "explain sql did not show the range read: $out"
"$lbt" --db "$db" explain SELECT 'COUNT(*)' FROM promoted >/dev/null || fail "explain SELECT failed"

# Separate words keep a value with a space whole.
[ "$("$lbt" --db "$db" --format jsonl lookup promoted 'sensor008#1' | jq -r '.cells[0].value')" = "hello world" ] \
  || fail "a word with a space was split"

# --help shows each option's values, not CLI11's type names.
help="$("$lbt" --help)"
grep -qE -- '--sync full\|off' <<<"$help" || fail "--help does not show --sync full|off: $(grep -- --sync <<<"$help")"
! grep -q 'BOOLEAN' <<<"$help" || fail "--help shows a type name: $(grep BOOLEAN <<<"$help")"
# -project and -instance also name an instance of --db's database.
grep -qE -- '--instance .*with --db' <<<"$help" || fail "--help says --instance is remote only: $(grep -- --instance <<<"$help")"

# source runs a script from the command line.
printf 'count promoted\n' >"$work/s.cbt"
[ "$("$lbt" --db "$db" source "$work/s.cbt")" = 2 ] || fail "source from the command line"
echo PASS
