#!/usr/bin/env bash
# lbt serve as a test suite starts an emulator: `--host-port HOST:PORT`
# (gcloud's flag), a line saying "running" once it accepts calls (what
# Testcontainers' wait strategy looks for), and with --ephemeral a new,
# empty database each time, whose folder is gone once the server stops.
# Usage: ephemeral_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

results="$work"
# free_port and wait_for_line.
# shellcheck source=../lib/servers.sh
. "$(dirname "$0")/../lib/servers.sh"

# Starts the server, waits (10 s at most) for its "running" line; sets host.
start() {
  local port log="$work/serve.log"
  port="$(free_port)"
  : >"$log"
  TMPDIR="$work/tmp" "$lbt" serve --host-port "127.0.0.1:$port" --ephemeral >"$log" 2>&1 &
  server_pid=$!
  wait_for_line "$log" "running" "$server_pid" || { cat "$log" >&2; fail "lbt serve did not say it runs"; }
  grep -q "running on 127.0.0.1:$port" "$log" || { cat "$log" >&2; fail "no 'running on 127.0.0.1:$port' line"; }
  host="127.0.0.1:$port"
}

stop() {
  kill -TERM "$server_pid"
  wait "$server_pid" || fail "lbt serve exited with $? on SIGTERM"
  server_pid=""
}

remote() { BIGTABLE_EMULATOR_HOST="$host" "$lbt" -project p -instance i "$@"; }

mkdir -p "$work/tmp"
for run in 1 2; do
  start
  [ -z "$(remote ls)" ] || fail "run $run: the database is not empty: $(remote ls)"
  remote createtable "t$run" >/dev/null
  [ "$(remote ls)" = "t$run" ] || fail "run $run: ls shows '$(remote ls)', not t$run"
  [ -n "$(ls "$work/tmp")" ] || fail "run $run: no temporary folder while serving"
  stop
  [ -z "$(ls "$work/tmp")" ] || fail "run $run: the temporary folder outlived the server: $(ls "$work/tmp")"
done

# A malformed --host-port is one line and exit status 2.
set +e
err="$("$lbt" serve --host-port nothing-here 2>&1)"
status=$?
set -e
[ "$status" -eq 2 ] || fail "a bad --host-port exited $status"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [[ "$err" == *"--host-port"* ]] || fail "a bad --host-port said: $err"
echo "ephemeral: two clean slates, folders removed, --host-port checked"
