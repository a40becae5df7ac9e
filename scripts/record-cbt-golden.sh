#!/usr/bin/env bash
# Re-records tests/golden/cbt/*.out and *.exit by running each scenario's
# lines through the real cbt against a fresh instance of the official
# emulator, with TZ=UTC. Run from anywhere; needs cbt and the emulator.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/cbt-emulator.sh
lbt_start_emulator

export TZ=UTC
# Dummy credentials stop cbt from asking gcloud for some on every call.
creds="$(mktemp)"
echo "{}" >"$creds"
for scenario in tests/golden/cbt/*.cbt; do
  name="$(basename "$scenario" .cbt)"
  out="tests/golden/cbt/$name.out"
  exits="tests/golden/cbt/$name.exit"
  : >"$out"
  : >"$exits"
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    eval "set -- $line"
    status=0
    cbt -project golden -instance "$name" -creds "$creds" "$@" >>"$out" 2>/dev/null || status=$?
    echo "$status" >>"$exits"
  done <"$scenario"
  echo "recorded $name ($(wc -l <"$exits") commands)"
done
