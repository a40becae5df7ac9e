#!/usr/bin/env bash
# The real client library test: Google's Node client for Bigtable
# (@google-cloud/bigtable, pinned in package.json) runs one workload against
# the official Bigtable emulator and against `lbt serve`; the results must
# agree step by step, except where compare.mjs declares that the emulator
# departs from production. Then lbt serve is stopped and started again on
# the same database, and what it reads back must not have changed.
#
# Usage: node_client_test.sh LBT_BINARY BUILD_DIR
#   The client is installed under BUILD_DIR/client-node (once per pinned
#   version); the last run's results and server logs stay in
#   BUILD_DIR/client-node/results.
# Environment:
#   LBT_EMULATOR     the emulator binary (default: the Google Cloud SDK's)
#   LBT_REQUIRE_CBT  1: a missing node, npm or emulator fails the test
#                    instead of skipping it (exit 77)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -ne 2 ]; then
  echo "usage: $0 LBT_BINARY BUILD_DIR" >&2
  exit 2
fi
lbt="$1"
build="$2"
emulator="${LBT_EMULATOR:-/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator}"
client="$build/client-node"
results="$client/results"
work="$(mktemp -d)"
emulator_pid=""
lbt_pid=""

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# What the test needs but the machine may lack: skipped (77) unless required.
skip() {
  if [ "${LBT_REQUIRE_CBT:-}" = 1 ]; then fail "$* (LBT_REQUIRE_CBT=1)"; fi
  echo "SKIP: $*"
  exit 77
}

stop_servers() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  if [ -n "$lbt_pid" ]; then kill "$lbt_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap stop_servers EXIT

check_prerequisites() {
  command -v node >/dev/null || skip "node is not installed"
  command -v npm >/dev/null || skip "npm is not installed"
  node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
    skip "node $(node --version) is older than 18, which the client needs"
  [ -x "$emulator" ] || skip "no Bigtable emulator at $emulator (set LBT_EMULATOR)"
  [ -x "$lbt" ] || fail "no lbt binary at $lbt"
  "$lbt" serve --help >/dev/null || fail "$lbt has no serve command"
}

# The version package.json pins, and the one installed (empty if none).
pinned_version() {
  node -e 'console.log(require(process.argv[1]).dependencies["@google-cloud/bigtable"])' "$here/package.json"
}
installed_version() {
  local manifest="$client/node_modules/@google-cloud/bigtable/package.json"
  if [ -f "$manifest" ]; then node -e 'console.log(require(process.argv[1]).version)' "$manifest"; fi
}

# Installs the pinned client into the build tree; nothing lands in the
# source tree (no lock file, no node_modules). Install scripts are not run:
# the client needs none (its only native part, a CRC32C, is optional).
install_client() {
  mkdir -p "$client"
  # One install at a time if several runs share the build tree.
  exec 9>"$client/.install-lock"
  if command -v flock >/dev/null; then flock 9; fi
  if cmp -s "$here/package.json" "$client/package.json" && [ "$(installed_version)" = "$(pinned_version)" ]; then
    return
  fi
  cp "$here/package.json" "$client/package.json"
  echo "installing @google-cloud/bigtable $(pinned_version) into $client"
  if ! npm install --prefix "$client" --no-package-lock --no-audit --no-fund --ignore-scripts \
      >"$work/npm.log" 2>&1; then
    cat "$work/npm.log" >&2
    rm -f "$client/package.json"  # so that the next run tries again
    skip "npm could not install the client"
  fi
  [ "$(installed_version)" = "$(pinned_version)" ] || fail "npm installed $(installed_version), not $(pinned_version)"
}

# free_port, wait_for_line, start_emulator and start_lbt.
# shellcheck source=../lib/servers.sh
. "$here/../lib/servers.sh"

# SIGTERM must stop lbt serve cleanly: exit status 0.
stop_lbt() {
  local status=0
  kill -TERM "$lbt_pid"
  wait "$lbt_pid" || status=$?
  lbt_pid=""
  [ "$status" -eq 0 ] || fail "lbt serve exited with status $status on SIGTERM"
}

# run_workload HOST OUT [ARGS...]: the workload through the installed client.
run_workload() {
  local host="$1" out="$2"
  shift 2
  if ! (cd "$client" && BIGTABLE_EMULATOR_HOST="$host" timeout 90 node "$here/workload.mjs" "$@" >"$out"); then
    fail "the workload did not complete against $host"
  fi
}

main() {
  check_prerequisites
  install_client
  rm -rf "$results"
  mkdir -p "$results"

  start_emulator
  run_workload "$emulator_host" "$results/emulator.json"
  kill "$emulator_pid"
  wait "$emulator_pid" 2>/dev/null || true
  emulator_pid=""

  start_lbt "$work/db" "$results/lbt.log"
  run_workload "$lbt_host" "$results/lbt.json"
  stop_lbt

  start_lbt "$work/db" "$results/lbt-restarted.log"
  run_workload "$lbt_host" "$results/lbt-restarted.json" --only persist.
  stop_lbt

  # Into the instance the SQL client names (projects/p/instances/i).
  "$lbt" --db "$work/sql-db" -project p -instance i <"$here/../sql/corpus/seeds.cbt" >/dev/null || fail "could not load the SQL corpus's data"
  start_lbt "$work/sql-db" "$results/lbt-sql.log"
  local sql_status=0
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 120 node "$here/../sql/corpus.mjs" client \
    >"$results/sql-corpus.txt") || sql_status=1
  stop_lbt

  # Instances, clusters and app profiles (the emulator serves none): made,
  # then lbt serve is killed with SIGKILL, and after a restart all of it is
  # there to check and delete.
  local instances_status=0
  start_lbt "$work/instances-db" "$results/lbt-instances.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 90 node "$here/instances.mjs" create \
    >"$results/instances.txt") || instances_status=1
  kill -KILL "$lbt_pid"
  wait "$lbt_pid" 2>/dev/null || true
  start_lbt "$work/instances-db" "$results/lbt-instances-restarted.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 90 node "$here/instances.mjs" check-and-delete \
    >>"$results/instances.txt") || instances_status=1
  stop_lbt

  # What Google's Node client system tests, written against production,
  # assert of authorized views, autoscaling and restores (the emulator
  # serves none of these).
  local system_status=0
  start_lbt "$work/system-db" "$results/lbt-system.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 90 node "$here/system_tests.mjs" \
    >"$results/system-tests.txt") || system_status=1
  stop_lbt

  # Change streams (the emulator has none): an import of 10 MB (several
  # partitions) by the shell, a workload through the client, every
  # partition read with grpc-js; half of one, then SIGKILL, a restart, and
  # the rest from its token.
  local streams_status=0 streams_db="$work/streams-db" imported=2500
  "$lbt" --db "$streams_db" createtable t families=cf,other change-stream-retention=1d
  "$lbt" --db "$streams_db" createtable plain families=cf
  local stream_start
  stream_start="$(date +%s%6N)"
  awk -v n="$imported" 'BEGIN {
    print ",cf"; print ",a"
    for (k = 0; k < 26; k++) { s = sprintf("%c", 97 + k); while (length(s) < 4000) s = s s; v[k] = substr(s, 1, 4000) }
    for (i = 0; i < n; i++) printf "imp#%05d,%s\n", i, v[i % 26]
  }' >"$work/import.csv"
  "$lbt" --db "$streams_db" import t "$work/import.csv" >/dev/null 2>&1 || fail "could not import into the streamed table"
  start_lbt "$streams_db" "$results/lbt-streams.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 120 node "$here/change_stream.mjs" write-and-read \
    "$build/protos" "$work/stream-state.json" "$stream_start" "$imported" >"$results/change-streams.txt") ||
    streams_status=1
  kill -KILL "$lbt_pid"
  wait "$lbt_pid" 2>/dev/null || true
  start_lbt "$streams_db" "$results/lbt-streams-restarted.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 60 node "$here/change_stream.mjs" resume \
    "$build/protos" "$work/stream-state.json" >>"$results/change-streams.txt") || streams_status=1
  stop_lbt

  # Materialized views (the emulator has none): a table the shell filled
  # (the backfill), views made through the admin API, a random workload
  # through the client, the views read with executeQuery and ReadRows.
  local views_status=0 views_db="$work/views-db" backfilled=300
  "$lbt" --db "$views_db" createtable sensors families=m
  awk -v n="$backfilled" 'BEGIN { print ",m"; print ",temp"
    for (i = 0; i < n; i++) printf "dev%d#b%03d,%d\n", i % 4 + 1, i, (i * 7) % 50 - 10 }' >"$work/sensors.csv"
  "$lbt" --db "$views_db" import sensors "$work/sensors.csv" >/dev/null 2>&1 || fail "could not import the sensors"
  start_lbt "$views_db" "$results/lbt-views.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 120 node "$here/materialized_views.mjs" \
    "$build/protos" "$backfilled" >"$results/materialized-views.txt") || views_status=1
  stop_lbt
  # What the newest clients send (the emulator has none of it): grpc-js
  # over the pinned protos.
  local newest_status=0
  start_lbt "$work/newest-db" "$results/lbt-newest.log"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 60 node "$here/newest_surface.mjs" "$build/protos" \
    >"$results/newest-surface.txt") || newest_status=1
  stop_lbt
  # Fault rules through the client's retry and error paths.
  local faults_status=0
  echo '[]' >"$work/faults.json"
  "$lbt" serve --db "$work/faults-db" --host 127.0.0.1 --port 0 --faults "$work/faults.json" \
    >"$results/lbt-faults.log" 2>&1 &
  lbt_pid=$!
  wait_for_line "$results/lbt-faults.log" "BIGTABLE_EMULATOR_HOST=" "$lbt_pid" || fail "lbt serve --faults did not start"
  lbt_host="$(grep -o 'BIGTABLE_EMULATOR_HOST=[0-9.:]*' "$results/lbt-faults.log" | head -n1 | cut -d= -f2)"
  (cd "$client" && BIGTABLE_EMULATOR_HOST="$lbt_host" timeout 60 node "$here/faults.mjs" "$work/faults.json" \
    "$results/lbt-faults.log" >"$results/faults.txt") || faults_status=1
  stop_lbt
  # The README's Node test fixture, started twice.
  local fixture_status=0
  (cd "$client" && TMPDIR="$work" timeout 60 node "$here/fixture.mjs" "$lbt" "$here/../../examples/testing/lbt-serve-fixture.mjs" \
    >"$results/fixture.txt") || fixture_status=1
  local status=0
  # A part's title and lines; a failed part fails the test.
  report() {
    echo "== $1"
    cat "$2"
    [ "$3" -eq 0 ] || status=1
  }
  report "the README's Node test fixture: lbt serve --ephemeral started and stopped twice" "$results/fixture.txt" "$fixture_status"
  report "fault rules through the Node client's retries against lbt serve --faults" "$results/faults.txt" "$faults_status"
  report "the newest clients' requests through grpc-js against lbt serve" "$results/newest-surface.txt" "$newest_status"
  report "materialized views through the Node client and grpc-js against lbt serve" "$results/materialized-views.txt" "$views_status"
  report "change streams through grpc-js against lbt serve, across a SIGKILL" "$results/change-streams.txt" "$streams_status"
  report "the Node client's system tests' assertions against lbt serve" "$results/system-tests.txt" "$system_status"
  report "instances through the Node client against lbt serve, before and after a SIGKILL" "$results/instances.txt" "$instances_status"
  report "the SQL corpus through the Node client's executeQuery against lbt serve" "$results/sql-corpus.txt" "$sql_status"
  echo "== the Node client against the emulator and lbt serve"
  node "$here/compare.mjs" "$results/emulator.json" "$results/lbt.json" || status=1
  echo "== lbt serve after a restart on the same database"
  node "$here/compare.mjs" --same "$results/lbt.json" "$results/lbt-restarted.json" || status=1
  if [ "$status" -ne 0 ]; then
    echo "results and server logs: $results" >&2
  fi
  return "$status"
}

main
