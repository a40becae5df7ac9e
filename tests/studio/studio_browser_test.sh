#!/usr/bin/env bash
# lbt studio in real headless browsers: Debian's chromium, driven by the
# npm package playwright-core (studio_browser.mjs says what it checks), or
# Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi (the
# core of it, studio_firefox.mjs); both pinned in package.json and
# installed into the build tree.
# Usage: studio_browser_test.sh LBT_BINARY BUILD_DIR [chromium|firefox]
set -euo pipefail
lbt="$1"
build="$2"
kind="${3:-chromium}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
driver="$build/studio-node"
work="$(mktemp -d)"
studio_pid=""
served_studio_pid=""
lbt_pid=""
cleanup() {
  for pid in "$studio_pid" "$served_studio_pid" "$lbt_pid"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

results="$work"
# shellcheck source=../lib/servers.sh
. "$here/../lib/servers.sh"
# shellcheck source=../lib/browsers.sh
. "$here/../lib/browsers.sh"
if [ "$kind" = firefox ]; then find_firefox; else find_chromium; fi

# The drivers as package.json pins them, in the build tree (no browser
# download: they drive Debian's browsers).
mkdir -p "$driver"
if ! cmp -s "$here/package.json" "$driver/package.json" || [ ! -d "$driver/node_modules/playwright-core" ] ||
  [ ! -d "$driver/node_modules/puppeteer-core" ]; then
  cp "$here/package.json" "$driver/package.json"
  npm install --prefix "$driver" --no-package-lock --no-audit --no-fund --ignore-scripts >"$work/npm.log" 2>&1 || {
    cat "$work/npm.log" >&2
    rm -f "$driver/package.json"
    fail "npm could not install the browser drivers"
  }
fi

# Three tables: readings (20 phones, 10 tablets), users and events.
db="$work/db"
"$lbt" --db "$db" createtable readings families=cf:maxversions=2,stats >/dev/null
"$lbt" --db "$db" createtable users families=profile >/dev/null
# readings also has a change stream, two versions of phone#12's battery, a
# big-endian integer, and views of each kind.
{
  echo "setchangestream readings 1d"
  for n in $(seq 10 29); do echo "set readings phone#$n cf:os=android@1000"; done
  for n in $(seq 10 19); do echo "set readings tablet#$n cf:os=ios@1000"; done
  echo "set readings phone#12 stats:battery=90@1000"
  echo "set readings phone#12 stats:battery=80@2000"
  echo "set readings tablet#10 stats:bin=\$'\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00'@1000"
  echo "createauthorizedview readings phones row-prefixes=phone# columns=cf:os"
  echo "createlogicalview by_os SELECT CAST(cf['os'] AS STRING) AS os FROM readings"
  echo "creatematerializedview os_counts SELECT cf['os'] AS os, COUNT(*) AS n FROM readings GROUP BY os"
} | "$lbt" --db "$db" >/dev/null
# A second instance, with a table of its own.
printf '%s\n' "createinstance second-inst \$'Second one' second-inst-c1 us-east1-b 1 SSD" \
  "useinstance second-inst" "createtable archive families=a" | "$lbt" --db "$db" >/dev/null
# users keeps a protobuf message (a schema bundle's demo.Card) beside text.
printf 'syntax = "proto3";\npackage demo;\nmessage Card { string name = 1; int64 age = 2; }\n' >"$work/card.proto"
"$lbt" --db "$db" createschemabundle users cards "$work/card.proto" >/dev/null
"$lbt" --db "$db" "set users u#1 profile:card=\$'\\x0a\\x03Ada\\x10\\x24'@1000 profile:name=ada@1000" >/dev/null
# events: 600 readings a minute apart, keyed timestamp first (advise warns).
"$lbt" --db "$db" createtable events families=m >/dev/null
node -e '
const lines = [",m", ",cpu"];
for (let i = 0; i < 600; i++) {
  const ms = 1700000000000 + i * 60000;
  lines.push(`${ms}#host${String(i % 20).padStart(2, "0")},${i % 97}@${ms * 1000}`);
}
require("fs").writeFileSync(process.argv[1], lines.join("\n") + "\n");' "$work/events.csv"
"$lbt" --db "$db" import events "$work/events.csv" timestamp=value-encoded >/dev/null

# Starts lbt studio with the arguments given, its log in LOG; sets
# studio_url and started_pid.
start_studio() {
  local log="$1"
  shift
  "$@" studio --port 0 --no-open >"$log" 2>&1 &
  started_pid=$!
  wait_for_line "$log" "running on http" "$started_pid" || { cat "$log" >&2; fail "lbt studio did not start"; }
  studio_url="$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$log")" ||
    { cat "$log" >&2; fail "lbt studio printed no address"; }
}
# From the database's folder, named relatively: the header (and so the
# screenshots) says database 'db', not a path of this machine.
start_studio "$work/studio.log" env -C "$work" "$lbt" --db db
studio_pid=$started_pid
url="$studio_url"
# A second studio, over lbt serve, whose queries a fault rule can hold.
start_lbt "$work/served" "$work/serve.log"
start_studio "$work/served-studio.log" env BIGTABLE_EMULATOR_HOST="$lbt_host" "$lbt" -project p -instance i
served_studio_pid=$started_pid
BIGTABLE_EMULATOR_HOST="$lbt_host" "$lbt" -project p -instance i createtable slow families=cf >/dev/null

shots="${LBT_STUDIO_SHOTS:-$work}"
mkdir -p "$shots"
checks="$here/studio_browser.mjs"
[ "$kind" = firefox ] && checks="$here/studio_firefox.mjs"
(cd "$driver" && LBT_BROWSER="$browser" timeout 120 node "$checks" "$url" "$shots" "$lbt" "$db" \
  "$studio_url" "$lbt_host") ||
  fail "the page failed its checks"

kill -TERM "$studio_pid"
wait "$studio_pid" || fail "lbt studio exited with $? on SIGTERM"
studio_pid=""

# SIGTERM also ends a studio while lbt serve holds its query (a day-long
# fault): the statement is stopped, not waited for.
served_faults() {
  BIGTABLE_EMULATOR_HOST="$lbt_host" "$lbt" -project p -instance i --format json faults "$@"
}
served_faults add '{"rpc": "ExecuteQuery", "latency_ms": 86400000}' >/dev/null
node -e '
const u = new URL(process.argv[1]);
const req = require("http").request({host: u.hostname, port: u.port, path: "/api/run", method: "POST",
  headers: {"X-Lbt-Token": u.searchParams.get("token")}}, (res) => res.resume());
req.on("error", () => {});
req.end(JSON.stringify({statement: "sql SELECT COUNT(*) AS n FROM slow"}));' "$studio_url" &
held=""
for _ in $(seq 100); do
  served_faults | grep -q '"fired":1' && { held=1; break; }
  sleep 0.1
done
[ -n "$held" ] || fail "the query never reached lbt serve"
kill -TERM "$served_studio_pid"
for _ in $(seq 100); do kill -0 "$served_studio_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$served_studio_pid" 2>/dev/null && fail "lbt studio did not stop on SIGTERM while its query was held"
wait "$served_studio_pid" || fail "lbt studio exited with $? on SIGTERM while its query was held"
served_studio_pid=""
echo "ok"
