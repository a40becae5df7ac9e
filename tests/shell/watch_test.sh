#!/usr/bin/env bash
# watch: a table's changes as they commit, from other processes' writes,
# as JSON lines through jq (one line per change, flushed at once), as text
# with start= and end=, resumed from a token, and in the interactive shell
# under tmux, where Ctrl-C ends it and returns to the prompt. There too, a
# materialized view kept in the background shows another process's write.
# Usage: watch_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
socket="lbt-watch-$$"
watcher=""
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null || true
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
db="$work/db"
run() { "$lbt" --db "$db" "$@"; }

run createtable t families=cf,other change-stream-retention=1d
run ls t | grep -q 'Change stream: on, keeping 1d' || fail "ls does not show the change stream"

# A watcher piped through jq, while other processes write. It reads from
# before the table's first change, so it sees every write, whenever it
# begins to read.
(run watch t start=-1m --format jsonl |
  jq --unbuffered -c '[.row_key, .type, (.mutations | map(keys[0]) | join(",")), .token]' > "$work/seen") &
watcher=$!
run set t r1 cf:a=1 other:b=2
# The first change is out before the next write: lines are flushed.
for _ in $(seq 1 50); do [ -s "$work/seen" ] && break; sleep 0.1; done
[ -s "$work/seen" ] || fail "the first change did not reach jq before the next write"
run deletecolumn t r1 cf a
printf ',cf\n,a\nr2,x\nr3,y\n' > "$work/in.csv"
run import t "$work/in.csv" > /dev/null 2>&1
run deleterow t r2
run addtocell t r1 cf:n=5 2>/dev/null || true  # cf is not an aggregate family: refused, records nothing
for _ in $(seq 1 50); do [ "$(wc -l < "$work/seen")" -ge 5 ] && break; sleep 0.1; done
pkill -f "$lbt --db $db watch t" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
watcher=""

expected='["r1","user","set_cell,set_cell"]
["r1","user","delete_from_column"]
["r2","user","set_cell"]
["r3","user","set_cell"]
["r2","user","delete_from_family,delete_from_family"]'
got="$(jq -c '.[0:3]' "$work/seen")"
[ "$got" = "$expected" ] || fail "watch saw:
$got
expected:
$expected"

# Text, from a minute ago to now: the same five changes, then it ends.
text="$(TZ=UTC run watch t start=-1m end=now 2>/dev/null)"
[ "$(echo "$text" | wc -l)" = 5 ] || fail "watch start=-1m end=now printed: $text"
echo "$text" | head -1 | grep -qE '^[0-9]{4}/[0-9]{2}/[0-9]{2}-[0-9:.]+  r1  set cf:a = "1" @.*; set other:b = "2" @' ||
  fail "text line: $(echo "$text" | head -1)"

# From the second change's token: the last three.
token="$(sed -n 2p "$work/seen" | jq -r '.[3]')"
resumed="$(run watch t "token=$token" end=now --format jsonl | jq -r '.row_key' | tr '\n' ' ')"
[ "$resumed" = "r2 r3 r2 " ] || fail "resumed from the second token: '$resumed'"

# prefix= keeps to its rows.
[ "$(run watch t prefix=r3 start=-1m end=now 2>/dev/null | wc -l)" = 1 ] || fail "prefix=r3 did not give one change"

# Errors: a table without a change stream, a bad time.
run createtable plain families=cf
run watch plain end=now 2> "$work/err" && fail "watch of a table without a change stream succeeded"
grep -q "change stream of table 'plain' is not enabled" "$work/err" || fail "error: $(cat "$work/err")"
run watch t start=yesterday 2> "$work/err" && fail "a bad start was taken"
grep -q "bad time 'yesterday'" "$work/err" || fail "error: $(cat "$work/err")"

# The interactive shell: watch, a write from elsewhere shows, Ctrl-C ends it.
tmux -L "$socket" -f /dev/null new-session -d -s lbt -x 150 -y 40 \
  "TZ=UTC LBT_HISTFILE='$work/history' '$lbt' --db '$db'; echo \"EXIT STATUS \$?\"; sleep 30"
screen() { tmux -L "$socket" capture-pane -t lbt -p -N -S -100; }
wait_for() {
  for _ in $(seq 1 150); do
    screen | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  screen >&2
  fail "the screen never showed /$1/"
}
wait_for '^lbt:db> $'
tmux -L "$socket" send-keys -t lbt 'watch t' Enter
# A watch starts at the moment it begins to read: the other process writes
# again each second until the watch shows a write, for up to 15 s.
live=""
for i in $(seq 0 149); do
  [ $((i % 10)) = 0 ] && run set t live cf:a=from-another-process
  screen | grep -q '  live  set cf:a = "from-another-process"' && live=yes && break
  sleep 0.1
done
[ -n "$live" ] || fail "the running watch never showed another process's write: $(screen)"
tmux -L "$socket" send-keys -t lbt C-c
wait_for '^lbt:db> $'
# A materialized view the shell keeps in the background, as production
# keeps views: another process's write shows in it a moment later, with no
# command typed between (the other process does not keep it: the shell
# holds the views' lock).
tmux -L "$socket" send-keys -t lbt "creatematerializedview rows_by_family SELECT '*' AS _key, COUNT(*) AS n FROM t GROUP BY _key" Enter
wait_for '^Etag: 1'
run set t another cf:a=1
rows="$(run --format json sql "SELECT COUNT(*) AS n FROM t" | jq -r '.rows[0].n')"
# The shell's maintainer catches up in its own time: wait until the view
# holds the write, as another process reads it, for up to 15 s.
for _ in $(seq 150); do
  [ "$(run --format json sql "SELECT n FROM rows_by_family" | jq -r '.rows[0].n')" = "$rows" ] && break
  sleep 0.1
done
tmux -L "$socket" send-keys -t lbt "sql SELECT n AS view_rows FROM rows_by_family" Enter
wait_for "^$rows *\$"
screen | grep -q '^view_rows' || fail "no query result on the screen"

tmux -L "$socket" send-keys -t lbt 'exit' Enter
wait_for 'EXIT STATUS 0'
echo "watch: ok"
