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

# The shell's `faults` command, routed through the server: it adds a rule,
# which fires; lists it with how often it fired; refuses a bad rule in one
# line, adding nothing; and clears them all.
[ "$(remote faults)" = "no fault rules in force" ] || fail "faults does not say there are none: $(remote faults)"
out="$(remote faults add '{"rpc": "ReadRows", "table": "t", "code": "PERMISSION_DENIED", "times": 1}')"
[ "$out" = 'rule 1 (fired 0): {"rpc":"ReadRows","table":"t","code":"PERMISSION_DENIED","times":1}' ] ||
  fail "faults add does not show the rule: $out"
if remote read t >/dev/null 2>&1; then fail "the rule added from the shell did not fire"; fi
remote read t | grep -q "cf:a" || fail "the rule was not spent after one read"
[[ "$(remote faults)" == "rule 1 (fired 1): "* ]] || fail "faults does not count the fault: $(remote faults)"
set +e
err="$(remote faults add '{"rpc": "ReadRows", "code": "SOMETIMES"}' 2>&1)"
status=$?
set -e
[ "$status" -ne 0 ] || fail "a bad rule was added"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "not one line: $err"
[[ "$err" == *'fault rule 1: "SOMETIMES" is not a gRPC status code'* ]] || fail "the error does not name the code: $err"
[ "$(remote faults | wc -l)" -eq 1 ] || fail "the bad rule changed the rules: $(remote faults)"
remote --format json faults | grep -q '"fault_rules":\[{"rule":{"rpc":"ReadRows"' ||
  fail "faults --format json: $(remote --format json faults)"
[ "$(remote faults clear)" = "no fault rules in force" ] || fail "faults clear"
[ "$(remote faults)" = "no fault rules in force" ] || fail "the rules outlived faults clear"

# A session on a database no server holds has no rules to show.
set +e
err="$("$lbt" --db "$work/alone" faults 2>&1)"
status=$?
set -e
[ "$status" -ne 0 ] || fail "faults on a database no server holds succeeded: $err"
[[ "$err" == *"faults are lbt serve's"* ]] || fail "faults on a local database does not say why: $err"

# A shell on the database a server holds reaches that server's rules.
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
"$lbt" serve --db "$work/db" --host-port "127.0.0.1:$port" >"$log" 2>&1 &
server_pid=$!
wait_for_line "$log" "running" "$server_pid" || { cat "$log" >&2; fail "lbt serve --db did not say it runs"; }
"$lbt" --db "$work/db" faults add '{"rpc": "CreateTable", "code": "UNAVAILABLE", "times": 1}' >/dev/null ||
  fail "faults add through the served database"
if "$lbt" --db "$work/db" createtable u >/dev/null 2>&1; then fail "the served database's rule did not fire"; fi
grep -q "fault rule 1: CreateTable on table u fails with UNAVAILABLE" "$log" || fail "no line for the admin fault"
[[ "$("$lbt" --db "$work/db" faults)" == "rule 1 (fired 1): "* ]] || fail "the served database's rules"
echo "ok"
