#!/usr/bin/env bash
# A shell on a database that lbt serve holds: it says so once (on a
# terminal, under tmux), goes through the server, and once the server stops
# (SIGTERM, or SIGKILL with writes left in its log) goes on against the
# database itself with one note, its next command answering at once rather
# than failing to connect, Tab completion included. A script through the
# server reads what it wrote, in a materialized view too. And lbt serve,
# refused because an idle shell holds the database, says what to do.
# Usage: served_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
socket="lbt-served-$$"
lbt_pid=""
shell_pid=""
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  [ -n "$shell_pid" ] && kill "$shell_pid" 2>/dev/null
  [ -n "$lbt_pid" ] && kill "$lbt_pid" 2>/dev/null
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
. "$(dirname "${BASH_SOURCE[0]}")/../lib/servers.sh"
export TZ=UTC LBT_HISTFILE=/dev/null

# Waits up to 15 s for FILE to hold COUNT lines matching PATTERN (grep -E).
wait_lines() {
  local file="$1" pattern="$2" count="$3"
  for _ in $(seq 150); do
    [ "$(grep -cE -- "$pattern" "$file" 2>/dev/null || true)" -ge "$count" ] && return 0
    sleep 0.1
  done
  return 1
}

# A shell reading commands from a pipe, on a served database; the server is
# stopped with SIGNAL between two counts.
follow_after() {
  local signal="$1" db="$work/db-$1"
  "$lbt" --db "$db" createtable t families=cf
  "$lbt" --db "$db" set t r1 cf:a=1@1000
  start_lbt "$db" "$work/serve-$signal.log"
  rm -f "$work/fifo"
  mkfifo "$work/fifo"
  "$lbt" --db "$db" <"$work/fifo" >"$work/shell.out" 2>"$work/shell.err" &
  shell_pid=$!
  exec 3>"$work/fifo"
  echo "set t r2 cf:a=2@1000" >&3
  echo "count t" >&3
  wait_lines "$work/shell.out" '^2$' 1 || fail "the shell did not count through the server: $(cat "$work/shell.err")"
  kill "-$signal" "$lbt_pid"
  wait "$lbt_pid" 2>/dev/null || true
  lbt_pid=""
  echo "set t r3 cf:a=3@1000" >&3
  echo "count t" >&3
  wait_lines "$work/shell.out" '^3$' 1 ||
    fail "after SIG$signal the shell did not go on against the database: $(cat "$work/shell.err")"
  exec 3>&-
  wait "$shell_pid" || fail "the shell exited $? after SIG$signal: $(cat "$work/shell.err")"
  shell_pid=""
  ! grep -q 'failed to connect' "$work/shell.err" || fail "a command went to the stopped server: $(cat "$work/shell.err")"
  [ "$(grep -c 'has stopped; commands now run on' "$work/shell.err")" = 1 ] ||
    fail "expected one note that the server stopped: $(cat "$work/shell.err")"
  [ "$("$lbt" --db "$db" count t)" = 3 ] || fail "the writes before and after SIG$signal are not all there"
}
follow_after TERM
follow_after KILL

# A terminal: the note that the database is served comes once.
db="$work/db-tty"
"$lbt" --db "$db" createtable t families=cf
start_lbt "$db" "$work/serve-tty.log"
tmux -L "$socket" -f /dev/null new-session -d -s lbt -x 150 -y 50 \
  "'$lbt' --db '$db' count t 2>&1; echo \"EXIT STATUS \$?\"; sleep 30"
for _ in $(seq 150); do
  tmux -L "$socket" capture-pane -t lbt -p -S -50 | grep -q 'EXIT STATUS' && break
  sleep 0.1
done
screen="$(tmux -L "$socket" capture-pane -t lbt -p -S -50)"
grep -q 'EXIT STATUS 0' <<<"$screen" || fail "count through the server failed: $screen"
[ "$(grep -c 'is served by lbt serve on' <<<"$screen")" = 1 ] || fail "the served note is not there once: $screen"
kill "$lbt_pid"
wait "$lbt_pid" 2>/dev/null || true
lbt_pid=""

# Tab completion in an interactive shell whose server has stopped reads the
# database itself, not the stopped server.
db="$work/db-complete"
"$lbt" --db "$db" createtable sensors_by_hour families=cf
start_lbt "$db" "$work/serve-complete.log"
tmux -L "$socket" -f /dev/null new-session -d -s complete -x 150 -y 50 "'$lbt' --db '$db'; sleep 30"
for _ in $(seq 150); do
  tmux -L "$socket" capture-pane -t complete -p | grep -q 'lbt.*>' && break
  sleep 0.1
done
kill "$lbt_pid"
wait "$lbt_pid" 2>/dev/null || true
lbt_pid=""
tmux -L "$socket" send-keys -t complete 'count sensors_' Tab
completed=""
for _ in $(seq 150); do
  if tmux -L "$socket" capture-pane -t complete -p | grep -q 'count sensors_by_hour'; then
    completed=1
    break
  fi
  sleep 0.1
done
[ -n "$completed" ] || fail "Tab did not complete from the database: $(tmux -L "$socket" capture-pane -t complete -p)"
tmux -L "$socket" kill-session -t complete

# A script through the server reads what it wrote in a materialized view:
# the server brings its views up to date before a view is read. Each round
# writes one reading and counts them through the view in the next statement.
db="$work/db-views"
"$lbt" --db "$db" -c 'createtable readings families=m' \
  -c 'creatematerializedview per_hour SELECT SUBSTR(CAST(_key AS STRING), 1, 2) AS hour, COUNT(*) AS n FROM readings GROUP BY hour' \
  >/dev/null
# A local statement builds the view first (its backfill), so that the
# server's reads find it ready.
"$lbt" --db "$db" getmaterializedview per_hour | grep -q 'State: ready' || fail "the view was not built"
start_lbt "$db" "$work/serve-views.log"
for round in $(seq 20); do
  seen="$("$lbt" --db "$db" --format jsonl -c "set readings 10#$round m:a=$round" \
    -c "SELECT n FROM per_hour WHERE hour = '10';" 2>&1)"
  [ "$(jq -r '.n' <<<"$seen" 2>/dev/null)" = "$round" ] ||
    fail "round $round: a script through lbt serve read a stale view: $seen"
done
kill "$lbt_pid"
wait "$lbt_pid" 2>/dev/null || true
lbt_pid=""

# lbt serve refused because an idle shell holds the database says what to do.
db="$work/db-idle"
"$lbt" --db "$db" createtable t families=cf
rm -f "$work/fifo"
mkfifo "$work/fifo"
"$lbt" --db "$db" <"$work/fifo" >/dev/null 2>&1 &
shell_pid=$!
exec 3>"$work/fifo"
echo "count t" >&3  # the shell now holds the database open
echo "set t held cf:a=1@1000" >&3
for _ in $(seq 150); do
  "$lbt" --db "$db" --read-only lookup t held 2>/dev/null | grep -q held && break
  sleep 0.1
done
if "$lbt" serve --db "$db" --port 0 >"$work/refused.out" 2>"$work/refused.err"; then
  fail "lbt serve started beside a shell that holds the database"
fi
grep -q 'close that process' "$work/refused.err" || fail "the refusal does not say to close the shell: $(cat "$work/refused.err")"
grep -q -- '--no-write-log' "$work/refused.err" || fail "the refusal does not name --no-write-log: $(cat "$work/refused.err")"
exec 3>&-
wait "$shell_pid" || true
shell_pid=""
echo "served database: ok"
