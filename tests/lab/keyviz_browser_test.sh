#!/usr/bin/env bash
# keyviz's page in a real browser: headless Chromium opens the HTML page
# with no console errors, and a screenshot of the heatmap shows the
# diagonal band of timestamp-first keys (each key range written in one
# stretch of time, later ranges later) against the even spread of keys with
# the host promoted (every range written all the time).
#
# Usage: keyviz_browser_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=../lib/browsers.sh
. "$here/../lib/browsers.sh"
find_chromium

# 6,000 readings a minute apart from 100 hosts, in both designs.
node -e '
const lines = [",m", ",cpu"], promoted = [",m", ",cpu"];
for (let i = 0; i < 6000; i++) {
  const ms = 1700000000000 + i * 60000, host = "host" + String(i % 100).padStart(4, "0");
  lines.push(`${ms}#${host},${i % 97}@${ms * 1000}`);
  promoted.push(`${host}#${ms},${i % 97}@${ms * 1000}`);
}
require("fs").writeFileSync(process.argv[1] + "/first.csv", lines.join("\n") + "\n");
require("fs").writeFileSync(process.argv[1] + "/promoted.csv", promoted.join("\n") + "\n");' "$work"
for t in first promoted; do
  "$lbt" --db "$work/db" createtable "$t" families=m
  "$lbt" --db "$work/db" import "$t" "$work/$t.csv" timestamp=value-encoded >/dev/null
  "$lbt" --db "$work/db" keyviz "$t" "$work/$t.html" >/dev/null
  "$lbt" --db "$work/db" keyviz "$t" "$work/$t.svg" >/dev/null
done

# The page fits a 1200px-wide window, and every key label fits left of the
# grid (12px monospace: about 7.3px a character), none clipped at x=0.
for t in first promoted; do
  node -e '
const svg = require("fs").readFileSync(process.argv[1], "utf8");
const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)[1]);
if (width > 1200 - 2 * 16) { console.error(`the SVG is ${width}px wide`); process.exit(1); }
for (const m of svg.matchAll(/<text x="(\d+)"[^>]*class="key">([^<]*)<\/text>/g)) {
  const text = m[2].replace(/&[a-z]+;/g, "x");
  if (text.length * 7.3 > Number(m[1])) { console.error(`label "${text}" at x=${m[1]} is clipped`); process.exit(1); }
}' "$work/$t.svg" || fail "the $t page's layout"
done

shoot() {  # shoot PAGE PNG: a screenshot; Chromium's console goes to $work/console
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --window-size=1400,800 \
    --screenshot="$2" "file://$1" 2>>"$work/console" >/dev/null
  [ -s "$2" ] || fail "no screenshot of $1: $(tail -n 5 "$work/console")"
}
: >"$work/console"
shoot "$work/first.html" "$work/first-page.png"
shoot "$work/promoted.html" "$work/promoted-page.png"
if grep -E 'CONSOLE|Uncaught|SyntaxError' "$work/console"; then fail "the page logged errors"; fi

# The SVG alone has the documented geometry: 64 ranges x 96 windows of 10 px.
shoot "$work/first.svg" "$work/first.png"
shoot "$work/promoted.svg" "$work/promoted.png"
shape() { node "$here/keyviz_shape.mjs" "$1" 64 96 10 10; }
first="$(shape "$work/first.png")"
promoted="$(shape "$work/promoted.png")"

# Timestamp-first: each range is lit in few windows, and the brightest
# window moves right as the ranges go down (a diagonal).
jq -e '[.rows[].lit_share] | add / length < 0.15' <<<"$first" >/dev/null ||
  fail "timestamp-first ranges should be lit in few windows: $first"
jq -e '[.rows[].brightest_window] as $w | [range(1; $w | length) | select($w[.] >= $w[. - 1])] | length >= 60' \
  <<<"$first" >/dev/null || fail "timestamp-first's brightest windows should rise down the ranges: $first"
# Promoted: every range is lit in most windows.
jq -e '[.rows[].lit_share] | min > 0.5' <<<"$promoted" >/dev/null ||
  fail "promoted ranges should be lit all the time: $promoted"
echo "keyviz in Chromium: ok"
