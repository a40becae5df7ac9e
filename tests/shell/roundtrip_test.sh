#!/usr/bin/env bash
# Export then import must give back exactly the same table: random binary
# keys, qualifiers and values (NUL and 0xFF included), many versions, in
# both export formats (CSV keeps the newest cell of each column).
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
echo "export/import round trip: ok ($(wc -l <"$work/a.jsonl") rows)"
