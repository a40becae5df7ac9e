#!/usr/bin/env bash
# Runs every lesson of examples/ through scripts/example.sh, at small sizes
# (counters at its default size, as a newcomer runs it), and checks what
# each one shows: the script succeeds, the tables hold the
# generated rows, the good and bad designs hold the same data, the reads
# the lesson relies on examine what it says they do, and the schema lab
# (advise, stats, hotspots, keyviz) gives the lesson's verdicts.
#
# Usage: examples_test.sh LBT_BINARY [--data-only]
#
# --data-only skips the schema lab's verdicts and accepts lab commands that
# lbt does not know yet ("unknown command"); every other step must succeed.
#
# The lab's JSON is read loosely, so that its exact layout can change:
# advise's findings are the objects that carry a rule id in "rule" (or
# "rule_id"); hotspots' share is the first "peak_node_share" number; stats'
# row count is the first "rows" number (or "rows": {"count": N}). Both
# --format json and jsonl are accepted.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 LBT_BINARY [--data-only]" >&2; exit 2; }
lbt="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
data_only=false
[ "${2:-}" = --data-only ] && data_only=true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TZ=UTC

failures=0
fail() {
  echo "FAIL [$lesson]: $*" >&2
  failures=$((failures + 1))
}
# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
  [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}
# expect_cmp WHAT VALUE OP LIMIT, with OP one of < <= > >= (numbers, may be fractional)
expect_cmp() {
  if ! awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN {
      if (v == "" || v == "null") exit 1
      if (op == "<") exit !(v + 0 < l + 0); if (op == "<=") exit !(v + 0 <= l + 0)
      if (op == ">") exit !(v + 0 > l + 0); exit !(v + 0 >= l + 0) }'; then
    fail "$1: got '$2', expected $3 $4"
  fi
}

# Runs a lesson through the runner (at ROWS, or the lesson's default size
# when ROWS is "default"), into $work/LESSON (data) and $work/LESSON/db,
# then points q at that database.
lesson=""
run_lesson() {
  lesson="$1"
  local rows=() status=0
  [ "$2" = default ] || rows=(--rows "$2")
  data="$work/$lesson"
  db="$data/db"
  LBT_BINARY="$lbt" "$root/scripts/example.sh" "$lesson" ${rows[@]+"${rows[@]}"} --data "$data" \
    >"$work/$lesson.out" 2>"$work/$lesson.err" || status=$?
  if $data_only; then
    # Only the lab's commands may fail, and only for not being known yet.
    local unexpected
    unexpected="$(grep -E '^ *lesson\.cbt:[0-9]+: ' "$work/$lesson.err" |
      grep -vE "error: unknown command '(advise|stats|hotspots|keyviz)'" || true)"
    [ -z "$unexpected" ] || fail "steps failed: $unexpected"
    [ "$status" -le 1 ] || fail "example.sh exited $status: $(tail -n 3 "$work/$lesson.err")"
  else
    [ "$status" = 0 ] || fail "example.sh exited $status: $(grep -E '^ *lesson\.cbt:' "$work/$lesson.err" | head -n 5)"
  fi
  [ -d "$db" ] || { fail "no database at $db"; return 1; }
}

q() { "$lbt" --db "$db" --read-only "$@"; }
count() { q count "$@"; }
# sql_value COLUMN QUERY: the first row's COLUMN.
sql_value() { q --format json sql "$2" | jq -r --arg c "$1" '.rows[0][$c]'; }
explain() { q --format json sql "EXPLAIN $2" | jq -r --arg c "$1" '.stats[$c]'; }
read_stat() { local stat="$1"; shift; q --format json "$@" include-stats=full | jq -r --arg s "$stat" '.stats[$s]'; }

# The schema lab, read loosely (see the header). A lab command's error goes
# to $work/lab.err and into the failure message.
lab() { q --format json "$@" 2>"$work/lab.err"; }
lab_error() { [ -s "$work/lab.err" ] && echo " ($(head -n 1 "$work/lab.err"))"; }
rules() {
  lab advise "$1" | jq -rs '[.. | objects | (.rule? // .rule_id? // empty) | strings] | unique | .[]'
}
expect_rule() {
  $data_only && return 0
  rules "$1" >"$work/rules" || { fail "advise $1 failed$(lab_error)"; return 0; }
  grep -qx -- "$2" "$work/rules" || fail "advise $1 should report $2; it reported: $(tr '\n' ' ' <"$work/rules")"
}
expect_no_rule() {
  $data_only && return 0
  rules "$1" >"$work/rules" || { fail "advise $1 failed$(lab_error)"; return 0; }
  ! grep -qx -- "$2" "$work/rules" || fail "advise $1 should not report $2"
}
expect_no_key_rule() {
  $data_only && return 0
  rules "$1" >"$work/rules" || { fail "advise $1 failed$(lab_error)"; return 0; }
  ! grep -q '^key-' "$work/rules" || fail "advise $1 should report no key-* finding; it reported: $(grep '^key-' "$work/rules" | tr '\n' ' ')"
}
expect_peak() {
  $data_only && return 0
  local peak
  peak="$(lab hotspots "$1" nodes=3 | jq -rs '[.. | objects | .peak_node_share? | numbers] | first' || true)"
  expect_cmp "hotspots $1 nodes=3 peak_node_share$(lab_error)" "$peak" "$2" "$3"
}
expect_lab_basics() {
  $data_only && return 0
  local table="$1" rows
  rows="$(lab stats "$table" | jq -rs '[.. | objects | (.rows? // empty) |
    if type == "number" then . elif type == "object" then (.count? // empty) else empty end] | first' || true)"
  expect_eq "stats $table rows$(lab_error)" "$rows" "$(count "$table")"
  [ -s "$data/$table.html" ] || fail "keyviz wrote no $table.html"
}

# --- The runner itself -------------------------------------------------------
lesson=runner
listed="$("$root/scripts/example.sh" --list | awk 'NR > 1 { print $1 }' | tr '\n' ' ')"
expect_eq "example.sh --list" "$listed" \
  "counters field-promotion-vs-salting materialized-views mobile-time-series reversed-domains reversed-timestamps structured-row-keys weather-balloons "
status=0
LBT_BINARY="$lbt" "$root/scripts/example.sh" no-such-lesson >/dev/null 2>&1 || status=$?
expect_eq "an unknown lesson's exit status" "$status" 2
mkdir -p "$work/busy" && touch "$work/busy/file"
status=0
LBT_BINARY="$lbt" "$root/scripts/example.sh" counters --db "$work/busy" >/dev/null 2>&1 || status=$?
expect_eq "a non-empty --db's exit status" "$status" 2
expect_eq "a non-empty --db is left alone" "$(ls "$work/busy")" file

# --- mobile-time-series: 20 devices x 31 days -------------------------------
if run_lesson mobile-time-series 620; then
  t=mobile_time_series
  expect_eq "rows" "$(count $t)" 620
  expect_eq "phones + tablets" "$(($(count $t prefix=phone#) + $(count $t prefix=tablet#)))" 620
  expect_eq "one device's month" "$(count $t prefix=phone#4c410523#)" 31
  expect_eq "device prefix: rows examined" "$(explain rows_examined "SELECT _key FROM $t WHERE _key LIKE 'phone#4c410523#%'")" 31
  expect_eq "one day across devices" "$(sql_value n "SELECT COUNT(*) AS n FROM $t WHERE _key LIKE '%#20190515'")" 20
  expect_eq "date suffix: rows examined (a full scan)" \
    "$(explain rows_examined "SELECT _key FROM $t WHERE _key LIKE '%#20190515'")" 620
  expect_eq "the seeds' tablet is wifi-only (no cell_plan)" \
    "$(q --format json lookup $t tablet#a0b81f74#20190505 | jq -r '[.rows[0].cells[].family] | unique | join(",")')" stats_summary
  expect_cmp "resent summaries keep two versions" \
    "$(sql_value n "SELECT COUNT(*) AS n FROM $t(with_history => TRUE) WHERE ARRAY_LENGTH(stats_summary['connected_wifi']) = 2")" ">" 0
  expect_no_rule $t key-starts-with-timestamp
  expect_peak $t "<" 0.5
  expect_lab_basics $t
fi

# --- weather-balloons: 24 balloons x 100 minutes ----------------------------
if run_lesson weather-balloons 2400; then
  expect_eq "tall rows" "$(count balloons_tall)" 2400
  expect_eq "wide rows" "$(count balloons_wide)" 24
  expect_eq "tall cells" "$(sql_value n "SELECT SUM(ARRAY_LENGTH(MAP_KEYS(m))) AS n FROM balloons_tall")" 9600
  expect_eq "wide cells (the same readings)" "$(sql_value n "SELECT SUM(ARRAY_LENGTH(MAP_KEYS(pressure)) +
    ARRAY_LENGTH(MAP_KEYS(temperature)) + ARRAY_LENGTH(MAP_KEYS(humidity)) + ARRAY_LENGTH(MAP_KEYS(altitude))) AS n FROM balloons_wide")" 9600
  expect_eq "five minutes, tall: cells seen" \
    "$(read_stat cells_seen read balloons_tall start=us-west2#3698#2021-03-05-1200 end=us-west2#3698#2021-03-05-1205)" 20
  filter='{"timestampRangeFilter":{"startTimestampMicros":"1614945600000000","endTimestampMicros":"1614945900000000"}}'
  expect_eq "five minutes, wide: cells returned" "$(read_stat cells_returned lookup balloons_wide us-west2#3698 filter="$filter")" 20
  expect_eq "five minutes, wide: cells seen (the whole row)" "$(read_stat cells_seen lookup balloons_wide us-west2#3698 filter="$filter")" 400
  expect_rule balloons_wide row-unbounded-wide
  expect_no_rule balloons_tall row-unbounded-wide
  expect_lab_basics balloons_tall
  expect_lab_basics balloons_wide
fi

# --- reversed-timestamps: 2,500 events --------------------------------------
if run_lesson reversed-timestamps 2500; then
  expect_eq "oldest-first rows" "$(count activity_oldest_first)" 2500
  expect_eq "newest-first rows" "$(count activity_newest_first)" 2500
  # The first 5 newest-first keys, turned back into times, are the last 5
  # oldest-first keys read backwards.
  newest="$(q --format jsonl read activity_newest_first prefix=u204718# count=5 | jq -r '.key | split("#")[1]' |
    node -e 'for (const r of require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean))
               console.log(String(9223372036854775807n - BigInt(r)))' | tr '\n' ' ' || true)"
  backwards="$(q --format jsonl read activity_oldest_first prefix=u204718# reversed=true count=5 |
    jq -r '.key | split("#")[1]' | tr '\n' ' ' || true)"
  expect_eq "latest 5 events, both designs" "$newest" "$backwards"
  expect_eq "newest-first: rows examined for the latest 5" \
    "$(read_stat rows_seen read activity_newest_first prefix=u204718# count=5)" 5
  day_plain="$(sql_value n "SELECT COUNT(*) AS n FROM activity_oldest_first WHERE _key >= 'u204718#1715126400000' AND _key < 'u204718#1715212800000'" || true)"
  day_reversed="$(sql_value n "SELECT COUNT(*) AS n FROM activity_newest_first WHERE _key >= 'u204718#9223370321641975808' AND _key < 'u204718#9223370321728375808'" || true)"
  expect_cmp "a day of u204718's events" "$day_plain" ">" 0
  expect_eq "the same day through reversed bounds" "$day_reversed" "$day_plain"
  expect_no_rule activity_oldest_first key-starts-with-timestamp
  expect_no_rule activity_newest_first key-starts-with-timestamp
  expect_peak activity_oldest_first "<" 0.5
  expect_peak activity_newest_first "<" 0.5
  expect_lab_basics activity_newest_first
fi

# --- field-promotion-vs-salting: 77 devices x 38 readings -------------------
if run_lesson field-promotion-vs-salting 3000; then
  for t in battery_timestamp_first battery_field_promoted battery_salted; do
    expect_eq "$t rows" "$(count $t)" 2926
  done
  expect_eq "one device's readings, promoted" "$(count battery_field_promoted prefix=device#4c410523#)" 38
  expect_eq "one device's half hour, promoted: rows examined" \
    "$(explain rows_examined "SELECT _key FROM battery_field_promoted WHERE _key >= 'device#4c410523#20150301120000000' AND _key < 'device#4c410523#20150301123000000'")" 30
  expect_cmp "one device's half hour, timestamp-first: rows examined" \
    "$(explain rows_examined "SELECT _key FROM battery_timestamp_first WHERE _key >= '20150301120000000' AND _key < '20150301123000000' AND ENDS_WITH(_key, '#4c410523')")" ">" 1000
  for bucket in 0 1 2; do
    expect_cmp "salt bucket $bucket's share of rows" "$(count battery_salted prefix=$bucket#)" ">" 800
  done
  expect_rule battery_timestamp_first key-starts-with-timestamp
  expect_no_key_rule battery_field_promoted
  expect_peak battery_timestamp_first ">" 0.8
  expect_peak battery_field_promoted "<" 0.5
  expect_peak battery_salted "<" 0.5
  expect_lab_basics battery_timestamp_first
  expect_lab_basics battery_field_promoted
fi

# --- reversed-domains: 2,000 pages ------------------------------------------
if run_lesson reversed-domains 2000; then
  expect_eq "plain rows" "$(count pages_plain_domain)" 2000
  expect_eq "reversed rows" "$(count pages_reversed_domain)" 2000
  expect_eq "one host, both designs" "$(count pages_plain_domain prefix=maps.google.com/)" "$(count pages_reversed_domain prefix=com.google.maps/)"
  google_reversed="SELECT _key FROM pages_reversed_domain WHERE _key LIKE 'com.google/%' OR _key LIKE 'com.google.%'"
  google_plain="SELECT _key FROM pages_plain_domain WHERE _key LIKE 'google.com/%' OR REGEXP_CONTAINS(_key, r'^[^/]*[.]google[.]com/')"
  expect_eq "google.com's pages, both designs" "$(explain rows_returned "$google_reversed")" "$(explain rows_returned "$google_plain")"
  expect_eq "google.com, reversed: nothing examined beyond them" \
    "$(explain rows_examined "$google_reversed")" "$(explain rows_returned "$google_reversed")"
  expect_eq "google.com, plain: a full scan" "$(explain rows_examined "$google_plain")" 2000
  expect_rule pages_plain_domain key-domain-not-reversed
  expect_no_rule pages_reversed_domain key-domain-not-reversed
  expect_lab_basics pages_reversed_domain
fi

# --- materialized-views: 24 balloons x 100 minutes ---------------------------
if run_lesson materialized-views 2400; then
  expect_eq "readings" "$(count readings)" 2400
  expect_eq "the index: a view row per reading" "$(count by_balloon)" 2400
  expect_eq "balloon 3698's hours (100 minutes from 12:00)" \
    "$(sql_value n "SELECT COUNT(*) AS n FROM hourly WHERE balloon = '3698'")" 2
  # The hourly view holds what its query returns over the table.
  balloon="SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(1)]"
  hour="SUBSTR(SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(2)], 1, 13)"
  q --format jsonl sql "SELECT balloon, hour, readings, max_altitude FROM hourly ORDER BY balloon, hour" \
    >"$work/view" || true
  q --format jsonl sql "SELECT $balloon AS balloon, $hour AS hour, COUNT(*) AS readings,
    MAX(CAST(CAST(m['altitude'] AS STRING) AS INT64)) AS max_altitude FROM readings GROUP BY balloon, hour
    ORDER BY balloon, hour" >"$work/direct" || true
  [ -s "$work/view" ] && cmp -s "$work/view" "$work/direct" || fail "the hourly view differs from its query over the table"
  expect_eq "the late reading came and went" \
    "$(sql_value n "SELECT COUNT(*) AS n FROM by_balloon WHERE balloon = '3698' AND reading = b'us-west2#3698#2021-03-09-0000'")" 0
  expect_eq "views listed" "$(q listmaterializedviews | tr '\n' ' ')" "by_balloon hourly "
  expect_eq "the index, read by its key: rows examined" \
    "$(explain rows_examined "SELECT reading FROM by_balloon WHERE balloon = '3698'")" 100
  expect_eq "the same question of the table: rows examined (a full scan)" \
    "$(explain rows_examined "SELECT _key FROM readings WHERE $balloon = '3698'")" 2400
fi

# --- structured-row-keys: 3,000 readings (5 devices of 576, one of 120) ----
if run_lesson structured-row-keys 3000; then
  expect_eq "readings" "$(count readings)" 3000
  expect_eq "the schema, shown" "$(q ls readings | grep '^Row key:')" \
    "Row key: type:string#device:string#reverse_ts:string (delimited by '#')"
  device="WHERE type = 'phone' AND device = '4c410523'"
  expect_eq "one device's readings, by its fields" "$(sql_value n "SELECT COUNT(*) AS n FROM readings $device")" 576
  expect_eq "one device: rows examined" "$(explain rows_examined "SELECT reverse_ts FROM readings $device")" 576
  expect_eq "the device alone, not a leading field: rows examined (a full scan)" \
    "$(explain rows_examined "SELECT reverse_ts FROM readings WHERE device = '4c410523'")" 3000
  expect_eq "the device's first row is its newest reading" \
    "$(sql_value r "SELECT reverse_ts AS r FROM readings $device LIMIT 1")" \
    "$(sql_value r "SELECT MIN(reverse_ts) AS r FROM readings $device")"
  expect_eq "SELECT * lists the fields, not _key" \
    "$(q --format json sql "SELECT * FROM readings LIMIT 1" | jq -r '.rows[0] | keys_unsorted | join(",")')" \
    "type,device,reverse_ts,stats"
  expect_no_rule readings undeclared-key-fields
fi

# --- counters: its default size, 20,000 page views (the runner without --rows)
if run_lesson counters default; then
  expect_eq "pages, both designs" "$(count page_views)" "$(count page_views_versions)"
  expect_eq "all-time views" "$(sql_value n "SELECT SUM(total['views']) AS n FROM page_views")" 20000
  expect_eq "versions kept (one per view)" \
    "$(sql_value n "SELECT SUM(ARRAY_LENGTH(count['views'])) AS n FROM page_views_versions(with_history => TRUE)")" 20000
  expect_cmp "hourly cells per page (maxversions=24)" \
    "$(sql_value n "SELECT MAX(ARRAY_LENGTH(hourly['views'])) AS n FROM page_views(with_history => TRUE)")" "<=" 24
  # Every page's all-time cell equals its newest running total.
  q --format jsonl sql "SELECT _key, total['views'] AS n FROM page_views ORDER BY _key" >"$work/aggregate" || true
  q --format jsonl sql "SELECT _key, CAST(CAST(count['views'] AS STRING) AS INT64) AS n FROM page_views_versions ORDER BY _key" \
    >"$work/versions" || true
  [ -s "$work/aggregate" ] && cmp -s "$work/aggregate" "$work/versions" || fail "per-page totals differ between the two designs"
  expect_eq "read-modify-write counter" "$(q get_counter "'page_views_rmw', '/pricing', 'count:views'" | head -n 1)" "COUNTER VALUE = 2"
  expect_rule page_views_versions versions-as-time-series
  expect_no_rule page_views versions-as-time-series
  expect_lab_basics page_views
fi

lesson=all
if [ "$failures" -gt 0 ]; then
  echo "examples: $failures check(s) failed" >&2
  exit 1
fi
if $data_only; then
  echo "examples: ok (data only: the schema lab's verdicts were not checked)"
else
  echo "examples: ok"
fi
