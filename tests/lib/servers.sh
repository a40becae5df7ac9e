# Helpers for tests that start servers: the official emulator and lbt serve,
# each on a free loopback port. The sourcing script defines fail (prints a
# line and exits), $results (a folder for logs), $emulator and $lbt.

free_port() {
  node -e 'const s = require("net").createServer();
           s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Waits up to 10 s for a line matching PATTERN in FILE while PID lives.
wait_for_line() {
  local file="$1" pattern="$2" pid="$3"
  for _ in $(seq 100); do
    if grep -q "$pattern" "$file" 2>/dev/null; then return 0; fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# Starts the emulator on a free loopback port (again on another one if the
# port was taken meanwhile); sets emulator_host.
start_emulator() {
  local attempt port
  for attempt in 1 2 3; do
    port="$(free_port)"
    "$emulator" -host 127.0.0.1 -port "$port" >"$results/emulator.log" 2>&1 &
    emulator_pid=$!
    if wait_for_line "$results/emulator.log" "running on" "$emulator_pid"; then
      emulator_host="127.0.0.1:$port"
      return
    fi
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
    emulator_pid=""
  done
  cat "$results/emulator.log" >&2
  fail "the emulator did not start"
}

# Starts lbt serve on DB with a port of its choosing; sets lbt_host from the
# line it prints.
start_lbt() {
  local db="$1" log="$2"
  "$lbt" serve --db "$db" --host 127.0.0.1 --port 0 >"$log" 2>&1 &
  lbt_pid=$!
  if ! wait_for_line "$log" "BIGTABLE_EMULATOR_HOST=" "$lbt_pid"; then
    cat "$log" >&2
    fail "lbt serve did not start"
  fi
  lbt_host="$(grep -o 'BIGTABLE_EMULATOR_HOST=[0-9.:]*' "$log" | head -n1 | cut -d= -f2)"
  case "$lbt_host" in
    127.0.0.1:*) ;;
    *) fail "lbt serve does not listen on loopback: '$lbt_host'" ;;
  esac
}


# The real cbt against an lbt serve the script starts: its path in `cbt`
# (LBT_CBT, else /usr/bin/cbt), or exit 77 (skipped) when cbt or node is
# missing; run_cbt runs it at $lbt_host with credentials that make it
# answer at once.
require_cbt() {
  cbt="${LBT_CBT:-/usr/bin/cbt}"
  if [ ! -x "$cbt" ] || ! command -v node >/dev/null; then
    echo "SKIP: cbt or node is not installed" >&2
    exit 77
  fi
  echo '{"type":"service_account"}' >"$results/creds.json"
}
run_cbt() { BIGTABLE_EMULATOR_HOST="$lbt_host" TZ=UTC "$cbt" -project p -instance i -creds "$results/creds.json" "$@"; }
