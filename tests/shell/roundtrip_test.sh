#!/usr/bin/env bash
# Export then import must give back exactly the same table: random binary
# keys, qualifiers and values (NUL and 0xFF included), many versions, in
# both export formats (CSV keeps the newest cell of each column). dump then
# running it back must give back the whole database: every instance, its
# tables and rows, change streams, authorized, logical and materialized
# views. Then the bulk load path against `set`, row by row: unsorted input,
# input larger than the sort memory, and a table that has data in the
# range already.
# Usage: roundtrip_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A deterministic script of 3000 cells with arbitrary bytes.
awk 'BEGIN {
  srand(7);
  for (i = 0; i < 1000; i++) {
    line = sprintf("set t $'"'"'r%d", i % 400);
    for (k = 0; k < 3; k++) line = line sprintf("\\x%02x", int(rand() * 256));
    line = line "'"'"'";
    for (c = 0; c < 3; c++) {
      v = "";
      for (k = 0; k < 6; k++) v = v sprintf("\\x%02x", int(rand() * 256));
      line = line sprintf(" cf%d:$'"'"'q%d\\x00\\xff'"'"'=$'"'"'%s'"'"'@%d", c % 2, int(rand() * 3), v, (1 + int(rand() * 50)) * 1000);
    }
    print line;
  }
}' >"$work/load.cbt"

"$lbt" --db "$work/a" createtable t families=cf0,cf1
"$lbt" --db "$work/a" --sync=off -f "$work/load.cbt"
"$lbt" --db "$work/a" --format jsonl read t >"$work/a.jsonl"
[ "$(wc -l <"$work/a.jsonl")" -gt 300 ] || fail "the load wrote too few rows"

"$lbt" --db "$work/a" export t "$work/t.jsonl" 2>/dev/null
"$lbt" --db "$work/b" createtable t families=cf0,cf1
"$lbt" --db "$work/b" import t "$work/t.jsonl" batch-size=37 2>/dev/null
"$lbt" --db "$work/b" --format jsonl read t >"$work/b.jsonl"
cmp -s "$work/a.jsonl" "$work/b.jsonl" || fail "jsonl export/import changed the table"

"$lbt" --db "$work/a" export t "$work/t.csv" 2>/dev/null
"$lbt" --db "$work/c" createtable t families=cf0,cf1
"$lbt" --db "$work/c" import t "$work/t.csv" timestamp=value-encoded 2>/dev/null
"$lbt" --db "$work/a" --format jsonl read t cells-per-column=1 >"$work/a1.jsonl"
"$lbt" --db "$work/c" --format jsonl read t >"$work/c.jsonl"
cmp -s "$work/a1.jsonl" "$work/c.jsonl" || fail "csv export/import changed the newest cells"
# Without timestamp=, the export's <value>@<timestamp> cells are refused,
# naming the choice, rather than stored with the timestamps in the values.
"$lbt" --db "$work/d" createtable t families=cf0,cf1
"$lbt" --db "$work/d" import t "$work/t.csv" 2>"$work/d.err" && fail "a CSV export imported without timestamp= was taken"
grep -q "timestamp=value-encoded" "$work/d.err" || fail "the refusal does not name timestamp=value-encoded: $(cat "$work/d.err")"
[ "$("$lbt" --db "$work/d" count t)" = 0 ] || fail "the refused import wrote rows"
# An empty table's export, in either format, imports back as no rows.
"$lbt" --db "$work/empty" createtable t families=cf0
"$lbt" --db "$work/empty" createtable u families=cf0
for format in jsonl csv; do
  "$lbt" --db "$work/empty" export t "$work/empty.$format" 2>/dev/null
  options=()
  [ "$format" = csv ] && options=(timestamp=value-encoded)
  "$lbt" --db "$work/empty" import u "$work/empty.$format" ${options[@]+"${options[@]}"} 2>"$work/empty.err" ||
    fail "an empty table's $format export did not import: $(cat "$work/empty.err")"
  grep -q '^Done importing 0 rows\.$' "$work/empty.err" || fail "empty $format import: $(cat "$work/empty.err")"
done
[ "$("$lbt" --db "$work/empty" count u)" = 0 ] || fail "the empty imports wrote rows"

echo "export/import round trip: ok ($(wc -l <"$work/a.jsonl") rows)"

# dump writes the schema and every cell as a script; run back into an empty
# database, it rebuilds the same table, binary keys and values included.
"$lbt" --db "$work/a" dump "$work/dump.cbt" 2>/dev/null
"$lbt" --db "$work/e" --sync=off -f "$work/dump.cbt" || fail "the dump did not run back"
"$lbt" --db "$work/e" --format jsonl read t >"$work/e.jsonl"
cmp -s "$work/a.jsonl" "$work/e.jsonl" || fail "dump and run back changed the table"
[ "$("$lbt" --db "$work/e" schema)" = "$("$lbt" --db "$work/a" schema)" ] || fail "dump changed the schema"
# A disabled table's rows cannot be read: dump says so and writes nothing.
"$lbt" --db "$work/e" "disable 't'" >/dev/null
"$lbt" --db "$work/e" dump "$work/e.cbt" 2>"$work/e.err" && fail "dump of a disabled table succeeded"
grep -q "disabled" "$work/e.err" || fail "dump's refusal: $(cat "$work/e.err")"
[ ! -e "$work/e.cbt" ] && [ ! -e "$work/e.cbt.partial" ] || fail "a failed dump left a file"
echo "dump round trip: ok"

# A whole database: change streams, authorized, logical (one reading
# another, listed before it) and materialized views; a created instance
# of another project with two clusters, an app profile and a table; an
# instance that came into being with its table. dump, run back into an
# empty database, rebuilds all of it: schema lists the same, and every
# table and view reads the same.
w="$work/whole"
"$lbt" --db "$w" >/dev/null <<'SCRIPT'
createtable t families=cf,agg:never:intsum
set t r1 cf:a=1@1000 cf:b=2@1000
set t r2 cf:a=1@1000 cf:x1=3@1000
addtocell t r1 agg:n=5@1000
setchangestream t 3d
createauthorizedview t pub row-prefixes=r1,r2 columns=cf:a,cf:x* deletion-protection=true
createauthorizedview t every row-prefixes=
creatematerializedview by_a SELECT cf['a'] AS a, COUNT(*) AS n FROM t GROUP BY a
createlogicalview z_base SELECT _key, cf['a'] AS a FROM t
createlogicalview a_top SELECT a FROM z_base
updatelogicalview z_base deletion-protection=true
useinstance other-inst project=p2
createinstance other-inst $'Other instance' other-inst-c1 us-east1-b 2 HDD
createcluster other-inst-c2 us-west1-a 1 SSD
createappprofile other-inst batch $'Batch reads' route-to=other-inst-c2 transactional-writes=true
createtable u families=m
set u k m:q=v@2000
useinstance implied-inst project=p2
createtable w families=f
set w x f:y=z@3000
SCRIPT
"$lbt" --db "$w" dump "$work/whole.cbt" 2>"$work/whole.err" || fail "dump of the whole database: $(cat "$work/whole.err")"
# All of it but the changes the change stream kept, which no command writes.
[ "$(grep '^  ' "$work/whole.err")" = \
  "  projects/lbt/instances/local/tables/t: the changes its change stream has kept (the copy's stream starts empty)" ] ||
  fail "dump left out more: $(cat "$work/whole.err")"
"$lbt" --db "$work/whole-copy" -f "$work/whole.cbt" >/dev/null || fail "the whole database's dump did not run back"
[ "$("$lbt" --db "$work/whole-copy" schema 2>/dev/null)" = "$("$lbt" --db "$w" schema 2>/dev/null)" ] ||
  fail "the copy's schema differs: $(diff <("$lbt" --db "$w" schema) <("$lbt" --db "$work/whole-copy" schema))"
"$lbt" --db "$w" schema 2>/dev/null | grep -q "^useinstance other-inst project=p2$" || fail "schema does not name the other instance"
for where in ":t" ":by_a" ":a_top" "-project p2 -instance other-inst:u" "-project p2 -instance implied-inst:w"; do
  flags="${where%:*}" table="${where##*:}"
  if [ "$table" = a_top ]; then read_it=(sql "SELECT * FROM a_top"); else read_it=(read "$table"); fi
  # shellcheck disable=SC2086
  "$lbt" --db "$w" $flags --format jsonl "${read_it[@]}" >"$work/whole-$table.jsonl"
  # shellcheck disable=SC2086
  "$lbt" --db "$work/whole-copy" $flags --format jsonl "${read_it[@]}" >"$work/copy-$table.jsonl"
  [ -s "$work/whole-$table.jsonl" ] || fail "$table read nothing"
  cmp -s "$work/whole-$table.jsonl" "$work/copy-$table.jsonl" || fail "$table differs in the copy"
done
[ "$("$lbt" --db "$work/whole-copy" --format jsonl read t authorized-view=pub)" = \
  "$("$lbt" --db "$w" --format jsonl read t authorized-view=pub)" ] || fail "the authorized view reads otherwise"
# What no command recreates is said before anything is written: on
# standard error, and in the script's first lines.
"$lbt" --db "$w" -project p2 -instance other-inst createbackup other-inst-c1 kept u >/dev/null
"$lbt" --db "$w" dump "$work/kept.cbt" 2>"$work/kept.err"
grep -q "dump leaves out" "$work/kept.err" && grep -q "projects/p2/instances/other-inst: its 1 backup" "$work/kept.err" ||
  fail "dump did not say it leaves the backup out: $(cat "$work/kept.err")"
head -2 "$work/kept.cbt" | grep -q "^# left out: projects/p2/instances/other-inst: its 1 backup" ||
  fail "the dump does not begin with what it leaves out: $(head -2 "$work/kept.cbt")"
echo "whole database dump round trip: ok"

# Time-series rows as a fleet sends them: each minute, every host, so that
# consecutive rows are far apart in key order. Some keys come twice.
awk 'BEGIN {
  print ",m,"; print ",cpu,mem";
  for (i = 0; i < 30000; i++) {
    key = sprintf("host%04d#%d", i % 500, 1700000000 + int(i / 500) * 60);
    if (i % 997 == 0) key = sprintf("host%04d#%d", 7, 1700000000);
    printf "%s,%d@%d000,%d@%d000\n", key, i, 1 + i % 5, i % 100, 1 + i % 3;
  }
}' >"$work/fleet.csv"
# The same rows as set commands, in the same order.
awk -F, 'NR > 2 { printf "set t %s m:cpu=%s m:mem=%s\n", $1, $2, $3 }' "$work/fleet.csv" >"$work/fleet.cbt"
# Rows already in the table, in the range the import writes to.
awk 'BEGIN { for (i = 0; i < 500; i += 7) printf "set t host%04d#%d m:cpu=old@1000 m:disk=%d@2000\n", i, 1700000000 + i * 60, i }' \
  >"$work/before.cbt"

for db in set unsorted spilled; do
  "$lbt" --db "$work/$db" createtable t families=m:maxversions=3
  "$lbt" --db "$work/$db" --sync=off -f "$work/before.cbt"
done
"$lbt" --db "$work/set" --sync=off -f "$work/fleet.cbt"
"$lbt" --db "$work/unsorted" import t "$work/fleet.csv" timestamp=value-encoded 2>/dev/null
"$lbt" --db "$work/spilled" import t - timestamp=value-encoded sort-memory=1 <"$work/fleet.csv" 2>/dev/null
"$lbt" --db "$work/set" --format jsonl read t >"$work/set.jsonl"
[ "$(wc -l <"$work/set.jsonl")" -gt 20000 ] || fail "the reference wrote too few rows"
for db in unsorted spilled; do
  "$lbt" --db "$work/$db" --format jsonl read t >"$work/$db.jsonl"
  cmp -s "$work/set.jsonl" "$work/$db.jsonl" || fail "import ($db) wrote another table than set did"
done

# JSON lines on standard input are recognized by their first byte.
"$lbt" --db "$work/set" export t - | "$lbt" --db "$work/fromstdin" import t - 2>"$work/stdin.err" &&
  fail "an import into a missing table succeeded"
"$lbt" --db "$work/fromstdin" createtable t families=m:maxversions=3
"$lbt" --db "$work/set" export t - | "$lbt" --db "$work/fromstdin" import t - 2>/dev/null
"$lbt" --db "$work/fromstdin" --format jsonl read t >"$work/fromstdin.jsonl"
cmp -s "$work/set.jsonl" "$work/fromstdin.jsonl" || fail "JSON lines from standard input were not read as such"
echo "bulk load against set: ok ($(wc -l <"$work/set.jsonl") rows)"
