# Sourced by scripts that talk to the real cbt: starts the official Bigtable
# emulator on a free loopback port and stops it when the script exits.
#
#   lbt_start_emulator    sets BIGTABLE_EMULATOR_HOST
#   LBT_EMULATOR          the emulator binary (default: the Cloud SDK's)

LBT_EMULATOR="${LBT_EMULATOR:-/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator}"

lbt_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

lbt_start_emulator() {
  local port log
  port="$(lbt_free_port)"
  log="$(mktemp)"
  "$LBT_EMULATOR" -host 127.0.0.1 -port "$port" >"$log" 2>&1 &
  LBT_EMULATOR_PID=$!
  trap 'kill "$LBT_EMULATOR_PID" 2>/dev/null; wait "$LBT_EMULATOR_PID" 2>/dev/null' EXIT
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      export BIGTABLE_EMULATOR_HOST="127.0.0.1:$port"
      return 0
    fi
    sleep 0.1
  done
  echo "the emulator did not start; its log:" >&2
  cat "$log" >&2
  return 1
}
