#!/usr/bin/env bash
# Runs one shell golden case against the lbt binary and compares stdout,
# stderr and exit status. Usage: run_case.sh [--update] LBT_BINARY NAME
# With LBT_REMOTE_HOST=host:port, the case runs in remote mode against the
# Bigtable there (an emulator or lbt serve), on an instance of its own.
set -uo pipefail
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
lbt="$1"
name="$2"
cd "$(dirname "${BASH_SOURCE[0]}")/cases"

db="$(mktemp -d)"
trap 'rm -rf "$db" "$db.out" "$db.err"' EXIT
args=()
if [ -f "$name.args" ]; then
  while IFS= read -r arg || [ -n "$arg" ]; do
    args+=("${arg//@DB/$db/db}")
  done <"$name.args"
fi
if [ -n "${LBT_REMOTE_HOST:-}" ]; then
  target=(-project cases -instance "$name-$$")
  export BIGTABLE_EMULATOR_HOST="$LBT_REMOTE_HOST"
else
  target=(--db "$db/db")
fi
TZ=UTC LBT_HISTFILE=/dev/null "$lbt" "${target[@]}" "${args[@]}" <"$name.cbt" >"$db.out" 2>"$db.err"
status=$?
# HBase-dialect timings vary run to run.
sed -i -E -e 's/^Took [0-9]+\.[0-9]{4} seconds$/Took N seconds/' \
  -e 's/^frontend_server_latency: [0-9]+ms$/frontend_server_latency: Nms/' "$db.out"
# The database's path varies too; the expected files say @DB.
sed -i -e "s|$db/db|@DB|g" "$db.err"

if [ "$update" = 1 ]; then
  cp "$db.out" "$name.stdout"
  cp "$db.err" "$name.stderr"
  echo "$status" >"$name.status"
  exit 0
fi
failed=0
if ! diff -u "$name.stdout" "$db.out"; then echo "FAIL $name: stdout differs" >&2; failed=1; fi
if ! diff -u "$name.stderr" "$db.err"; then echo "FAIL $name: stderr differs" >&2; failed=1; fi
if [ "$(cat "$name.status")" != "$status" ]; then
  echo "FAIL $name: exit status $status, expected $(cat "$name.status")" >&2
  failed=1
fi
exit $failed
