#!/usr/bin/env bash
# lbt serve --faults FILE: rules fail and delay calls as a test suite asks,
# a rewritten file takes effect for the next calls, a bad one is refused
# in one line (at start, the server does not start; later, the rules in
# force stay), and each fault fired is a line on stderr.
# Usage: faults_test.sh LBT_BINARY
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
# shellcheck source=../lib/servers.sh
. "$(dirname "$0")/../lib/servers.sh"

rules="$work/faults.json"
log="$work/serve.log"

# Waits (10 s at most) until the log holds `count` lines matching `pattern`.
wait_for_count() {
  local pattern="$1" count="$2"
  for _ in $(seq 100); do
    [ "$(grep -c "$pattern" "$log" || true)" -ge "$count" ] && return 0
    sleep 0.1
  done
  cat "$log" >&2
  fail "waited for $count lines matching '$pattern'"
}

# Rewrites the rule file whole (a new file moved over the old, as an editor
# saves), so that the server never reads half of it.
write_rules() {
  printf '%s\n' "$1" >"$rules.new"
  mv "$rules.new" "$rules"
}

# A bad file at start: one line naming the rule and the field, no server.
write_rules '[{"code": "UNAVAILABLE", "tabel": "t"}]'
port="$(free_port)"
set +e
err="$("$lbt" serve --host-port "127.0.0.1:$port" --ephemeral --faults "$rules" 2>&1)"
status=$?
set -e
[ "$status" -ne 0 ] || fail "lbt serve started with a bad rule file"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "not one line: $err"
[[ "$err" == *"fault rule 1: unknown field \"tabel\""* ]] || fail "the error does not name the field: $err"

write_rules '[{"rpc": "ReadRows", "table": "t", "code": "PERMISSION_DENIED", "message": "denied by the test"}]'
"$lbt" serve --host-port "127.0.0.1:$port" --ephemeral --faults "$rules" >"$log" 2>&1 &
server_pid=$!
wait_for_line "$log" "running" "$server_pid" || { cat "$log" >&2; fail "lbt serve did not say it runs"; }
grep -q "1 fault rule from $rules" "$log" || fail "no line saying the rules were read"
remote() { BIGTABLE_EMULATOR_HOST="127.0.0.1:$port" "$lbt" -project p -instance i "$@"; }

remote createtable t families=cf >/dev/null
remote set t r1 cf:a=1 >/dev/null
set +e
out="$(remote read t 2>&1)"
status=$?
set -e
[ "$status" -ne 0 ] || fail "the read succeeded: $out"
[[ "$out" == *"denied by the test"* ]] || fail "the read's error is not the rule's: $out"
grep -q "fault rule 1: ReadRows on table t fails with PERMISSION_DENIED" "$log" || fail "no line for the fault"

# Rewritten, the rules take effect for the next calls; delays still succeed.
write_rules '[{"rpc": "ReadRows", "latency_ms": 50}]'
wait_for_count "fault rule from $rules" 2
remote read t | grep -q "cf:a" || fail "the delayed read did not return the row"
grep -q "fault rule 1: ReadRows on table t delayed 50 ms" "$log" || fail "no line for the delay"

# A bad rewrite keeps the rules in force, saying why.
write_rules '[{"rpc": "ReadRows", "code": "UNAVAILABLE", "probability": 2}]'
wait_for_count "keeping the rules in force" 1
grep -q '"probability" must be a number from 0 to 1' "$log" || fail "the bad rewrite's problem is not named"
remote read t | grep -q "cf:a" || fail "the rules in force changed on a bad file"

# No rules: nothing fails, nothing is delayed.
write_rules '[]'
wait_for_count "0 fault rules from $rules" 1
remote read t | grep -q "cf:a" || fail "the read failed with no rules"
echo "ok"
