#!/usr/bin/env bash
# The shell's golden cases in remote mode. lbt as a client of the official
# emulator, and of lbt serve, must print what the local shell prints: the
# same command table and renderers run whichever Bigtable answers. The
# cases listed below print what only a local database or only lbt's engine
# says, and are left out of a way, each for the reason given.
# Usage: cases_test.sh LBT_BINARY
set -uo pipefail
lbt="$1"
here="$(cd "$(dirname "$0")" && pwd)"
cases="$here/../shell/cases"
emulator="${LBT_EMULATOR:-/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator}"
results="$(mktemp -d)"
emulator_pid=""
lbt_pid=""
cleanup() {
  [ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null
  [ -n "$lbt_pid" ] && kill "$lbt_pid" 2>/dev/null
  rm -rf "$results"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ ! -x "$emulator" ] || ! command -v node >/dev/null; then
  echo "SKIP: the official emulator or node is not installed" >&2
  exit 77
fi
# shellcheck source=../lib/servers.sh
. "$here/../lib/servers.sh"

# Cases whose output is a local database's own.
declare -A local_only=(
  [missing_database_note]="the note about a database not created yet"
  [missing_database_read_only]="the note about a database not created yet, and --read-only"
  [hbase_ddl]="disable and enable: Bigtable tables are always enabled"
  [hbase_errors]="disabled tables"
  [lab_explain]="explain says where filters run: the engine here, the service there"
  [lab_explain_json]="explain says where filters run: the engine here, the service there"
  [lab_explain_one_row]="explain says where filters run: the engine here, the service there"
  [gc_lazy]="--gc chooses how a local database shows GC; a service collects on its own schedule"
  [gc_policy_note_lazy]="setgcpolicy counts the cells it makes eligible on a local database only"
  [notes_for_surprises]="setgcpolicy counts the cells it makes eligible on a local database only"
  [undelete]="purgedeleted reclaims a local database's kept tables (a service reclaims its own); the emulator has no UndeleteTable"
  [materialized_views]="a script brings a local database's views up to date before each statement; a service keeps them in the background, a moment behind (tests/client/materialized_views.mjs waits for lbt serve's)"
)
# Cases whose output is the emulator's: its error messages and its garbage
# collection, which runs in the background rather than at once.
declare -A emulator_words=(
  [basic]="the emulator collects versions past maxversions later"
  [error_stops]="the emulator's message for an unknown family"
  [error_stops_then_count]="the emulator's message for a bad timestamp"
  [file_error]="the emulator's message for an unknown family"
  [import_jsonl_bad_lines]="the emulator's message for an unknown family"
  [keep_going]="the emulator's message for an unknown family"
  [quoted_command]="the emulator's message for a missing table"
  [lookups_batched]="the emulator's message for a missing table"
  [sql]="the emulator does not run SQL: lbt notes that it runs queries on the client"
  [sql_jsonl]="the emulator does not run SQL: lbt notes that it runs queries on the client"
  [family_order]="the emulator counts cells_per_row_limit in name order; production in creation order"
  [family_order_jsonl]="the emulator counts cells_per_row_limit in name order; production in creation order"
  [dump_schema]="the emulator keeps no string value type (setvaluetype)"
  [authorized_views]="the emulator has no authorized views"
  [logical_views]="the emulator has no logical views and runs no SQL"
  [change_streams]="the emulator has no change streams"
  [granularity]="the emulator keeps no MICROS granularity and cuts every timestamp to milliseconds"
  [row_key_schema]="the emulator keeps no row-key schema and runs no SQL"
  [parameterized_views]="the emulator has no logical views and runs no SQL"
  [hll]="the emulator keeps an inthll cell's last input, not a sketch, and runs no SQL"
  [schema_bundles]="the emulator has no schema bundles and runs no SQL"
)

# Cases whose output is lbt serve's: errors that name the request's field.
declare -A served_words=(
  [authorized_views]="a write outside a view names the view in full, with the session's own instance"
)

failed=0
run() {  # run WAY HOST CASE
  if LBT_REMOTE_HOST="$2" "$here/../shell/run_case.sh" "$lbt" "$3" >"$results/$1-$3.log" 2>&1; then
    echo "ok   $1 $3"
  else
    echo "FAIL $1 $3" >&2
    cat "$results/$1-$3.log" >&2
    failed=1
  fi
}

start_emulator
for file in "$cases"/*.cbt; do
  name="$(basename "$file" .cbt)"
  [ -n "${local_only[$name]:-}" ] || [ -n "${emulator_words[$name]:-}" ] && continue
  run emulator "$emulator_host" "$name"
done
# The emulator does not run SQL: lbt runs the queries on this side, over
# ReadRows, prints what the local shell prints, and says so once.
sql_here() {
  local out="$results/sql.out" err="$results/sql.err"
  (cd "$cases" && TZ=UTC LBT_HISTFILE=/dev/null BIGTABLE_EMULATOR_HOST="$emulator_host" \
    "$lbt" -project cases -instance "sql-$$" --keep-going <sql.cbt >"$out" 2>"$err")
  diff -u "$cases/sql.stdout" "$out" &&
    [ "$(grep -c '^note: .* does not run SQL' "$err")" = 1 ] &&
    diff -u "$cases/sql.stderr" <(grep -v '^note: .* does not run SQL' "$err")
}
if sql_here >"$results/sql.log" 2>&1; then
  echo "ok   emulator sql, run on the client"
else
  echo "FAIL emulator sql, run on the client" >&2
  cat "$results/sql.log" "$results/sql.err" >&2
  failed=1
fi

# A table moved from a local database to the instance and back, through
# pipes, comes back cell for cell (binary values and timestamps included).
move() {
  local remote=(-project cases -instance "move-$$")
  "$lbt" --db "$results/from" createtable metrics families=stats:maxversions=3 &&
    "$lbt" --db "$results/from" set metrics "h#1" stats:cpu=1@1000 stats:cpu=2@2000 $'stats:raw=\xff\x01@3000' &&
    "$lbt" --db "$results/from" set metrics "h#2" stats:cpu=5@4000 &&
    "$lbt" "${remote[@]}" createtable metrics families=stats:maxversions=3 &&
    "$lbt" --db "$results/from" export metrics - | "$lbt" "${remote[@]}" import metrics - format=jsonl &&
    "$lbt" --db "$results/back" createtable metrics families=stats &&
    "$lbt" "${remote[@]}" export metrics - | "$lbt" --db "$results/back" import metrics - format=jsonl &&
    diff <("$lbt" --db "$results/from" --format jsonl read metrics) <("$lbt" --db "$results/back" --format jsonl read metrics)
}
if BIGTABLE_EMULATOR_HOST="$emulator_host" move >"$results/move.log" 2>&1; then
  echo "ok   moving a table to the emulator and back"
else
  echo "FAIL moving a table to the emulator and back" >&2
  cat "$results/move.log" >&2
  failed=1
fi

# Selecting the target with cbt's flags and ~/.cbtrc. expect STATUS OUTPUT
# COMMAND...: the command's exit status, and a text its stdout and stderr
# together must contain.
expect() {
  local want_status="$1" want_text="$2" got_status
  shift 2
  "$@" >"$results/expect.out" 2>&1
  got_status=$?
  if [ "$got_status" != "$want_status" ] || { [ -n "$want_text" ] && ! grep -qF -- "$want_text" "$results/expect.out"; }; then
    echo "FAIL options: $* exited $got_status (expected $want_status) and printed:" >&2
    cat "$results/expect.out" >&2
    echo "  expected to find: $want_text" >&2
    failed=1
  else
    echo "ok   options: $*"
  fi
}
home="$results/home"
mkdir -p "$home"
at_emulator=(env "HOME=$home" "BIGTABLE_EMULATOR_HOST=$emulator_host")
# With --db, -project and -instance name an instance of the local database,
# not a remote one: its tables are apart from the default instance's.
expect 0 "" "${at_emulator[@]}" "$lbt" --db "$results/x" -project p -instance i createtable only-in-i
expect 0 "only-in-i" "${at_emulator[@]}" "$lbt" --db "$results/x" -project p -instance i ls
expect 1 "table 'only-in-i' does not exist" "${at_emulator[@]}" "$lbt" --db "$results/x" ls only-in-i
expect 2 "name an instance of the database with both -project and -instance" "${at_emulator[@]}" "$lbt" --db "$results/x" -project p ls
expect 2 "-creds and the endpoint flags apply to a remote instance" "${at_emulator[@]}" "$lbt" --db "$results/x" -project p -instance i -creds c.json ls
expect 2 "-project needs -instance" "${at_emulator[@]}" "$lbt" -project p ls
expect 2 "-auth-token is not supported" "${at_emulator[@]}" "$lbt" -project p -instance i -auth-token t ls
expect 2 "bad -timeout '2x'" "${at_emulator[@]}" "$lbt" -project p -instance i -timeout 2x ls
expect 2 "--sync applies to a local database only" "${at_emulator[@]}" "$lbt" -project p -instance i --sync=off ls
expect 0 "" "${at_emulator[@]}" "$lbt" -project=opts -instance=one createtable t1
expect 0 "t1" "${at_emulator[@]}" "$lbt" --project opts --instance=one ls
expect 1 "gc works on a local database only" "${at_emulator[@]}" "$lbt" -project opts -instance one gc t1
expect 1 "compact works on a local database only" "${at_emulator[@]}" "$lbt" -project opts -instance one compact
# ~/.cbtrc fills in what the flags leave out, and alone selects nothing.
printf '# as cbt reads it\nproject = opts\ninstance = one\n' >"$home/.cbtrc"
expect 0 "t1" "${at_emulator[@]}" "$lbt" -instance one ls
(cd "$results" && expect 0 "no lbt database" "${at_emulator[@]}" "$lbt" ls)
# A word that looks like a flag is the command's once the command began.
expect 0 "" "${at_emulator[@]}" "$lbt" -instance one createtable t2 families=cf
expect 0 "" "${at_emulator[@]}" "$lbt" -instance one set t2 -project cf:a=1
expect 0 '"1"' "${at_emulator[@]}" "$lbt" -instance one lookup t2 -project

# lbt serve holds one instance: each case gets a fresh server.
for file in "$cases"/*.cbt; do
  name="$(basename "$file" .cbt)"
  [ -n "${local_only[$name]:-}" ] || [ -n "${served_words[$name]:-}" ] && continue
  start_lbt "$results/db-$name" "$results/serve-$name.log"
  run serve "$lbt_host" "$name"
  kill -TERM "$lbt_pid"; wait "$lbt_pid" 2>/dev/null; lbt_pid=""
done
exit $failed
