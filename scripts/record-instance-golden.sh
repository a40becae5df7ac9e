#!/usr/bin/env bash
# Re-records tests/golden/instances/*.out and *.exit by running each
# scenario's lines through the real cbt against `lbt serve` on a fresh
# database (the official emulator has no Instance Admin API), with
# -project golden -instance golden-inst. Check every recorded answer
# against Bigtable's documentation before committing it: the test then
# holds cbt through lbt serve, lbt's shell and lbt in remote mode to it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
lbt="${LBT_BINARY:-build/lbt}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
echo "{}" >"$work/creds.json"

export TZ=UTC
for scenario in tests/golden/instances/*.cbt; do
  name="$(basename "$scenario" .cbt)"
  "$lbt" serve --db "$work/$name" --port 0 >"$work/serve.log" &
  server=$!
  for _ in $(seq 100); do grep -q "BIGTABLE_EMULATOR_HOST=" "$work/serve.log" && break; sleep 0.1; done
  export BIGTABLE_EMULATOR_HOST="$(sed -n 's/.*BIGTABLE_EMULATOR_HOST=//p' "$work/serve.log")"
  out="tests/golden/instances/$name.out"
  exits="tests/golden/instances/$name.exit"
  : >"$out"
  : >"$exits"
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    eval "set -- $line"
    status=0
    cbt -project golden -instance golden-inst -creds "$work/creds.json" "$@" >>"$out" 2>/dev/null || status=$?
    echo "$status" >>"$exits"
  done <"$scenario"
  kill "$server"
  wait "$server" || true
  echo "recorded $name ($(wc -l <"$exits") commands)"
done
