#!/usr/bin/env bash
# Drives the interactive shell in a real pseudo-terminal (tmux): typing a
# command, completing a table name, an option, a quoted HBase table, a
# family after columns= and a table after FROM with Tab, recalling a
# line with Up, cancelling a line with Ctrl-C, continuing an open quote and
# a SELECT over several lines, an import's progress line, and leaving with
# Ctrl-D.
# Usage: interactive_test.sh LBT_BINARY
set -euo pipefail
lbt="$1"
work="$(mktemp -d)"
socket="lbt-test-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- screen:" >&2
  tmux -L "$socket" capture-pane -t lbt -p -N -S -100 >&2 || true
  exit 1
}

# Waits until the screen shows text matching $1 (grep -E), or fails after
# 15 s: a loaded machine (the suite runs tests in parallel) can be slow.
wait_for() {
  for _ in $(seq 1 150); do
    if tmux -L "$socket" capture-pane -t lbt -p -N -S -100 | grep -qE -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "the screen never showed /$1/"
}

tmux -L "$socket" -f /dev/null new-session -d -s lbt -x 150 -y 50 \
  "cd '$work' && TZ=UTC LBT_HISTFILE='$work/history' '$lbt' --db '$work/mydb'; echo \"EXIT STATUS \$?\"; sleep 30"
wait_for '^lbt:mydb> $'

keys() { tmux -L "$socket" send-keys -t lbt "$@"; }

# Waits until $1 (grep -E) is on $2 lines of the screen: output comes when
# the shell gets to it, which on a loaded machine is not at once.
wait_for_count() {
  for _ in $(seq 1 150); do
    [ "$(tmux -L "$socket" capture-pane -t lbt -p -N -S -100 | grep -cE -- "$1")" = "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# Waits until the cursor sits on an empty prompt, ready for a new line.
wait_prompt() {
  for _ in $(seq 1 150); do
    last=$(tmux -L "$socket" capture-pane -t lbt -p -N | grep -v '^$' | tail -n 1)
    [ "$last" = "lbt:mydb> " ] && return 0
    sleep 0.1
  done
  fail "no fresh prompt"
}

keys 'createtable metrics families=cf' Enter
wait_for '^lbt:mydb> createtable metrics families=cf'
wait_prompt
keys 'set metr' Tab
wait_for 'set metrics $'
keys 'host1 cf:cpu=0.5@1000' Enter
wait_prompt
keys 'read metrics pre' Tab
wait_for 'read metrics prefix=$'
keys 'host' Enter
wait_for '"0.5"'

# Up recalls the last line; run it again and two reads are on screen.
wait_prompt
keys Up
wait_for '^lbt:mydb> read metrics prefix=host$'
keys Enter
wait_for_count '"0.5"' 2 || fail "Up did not recall the read"

# Ctrl-C drops the line being typed without running it.
wait_prompt
keys 'deletetable metrics'
wait_for '^lbt:mydb> deletetable metrics$'
keys C-c
wait_prompt
keys 'count metrics' Enter
wait_for '^1$'

# An unclosed quote continues on the next line.
wait_prompt
keys "set metrics 'host" Enter
wait_for '\.\.> $'
keys "2' cf:cpu=0.7@1000" Enter
keys 'count metrics' Enter
wait_for '^2$'
wait_prompt

# A SELECT runs only once a line ends with ';': each line before it gets
# the continuation prompt (had the shell run the first line alone, it would
# have printed an error and a fresh prompt instead), and then the result
# table comes. tmux reads a trailing ';' as its own separator: hence '\;'.
wait_prompt
continued=$(tmux -L "$socket" capture-pane -t lbt -p -N -S -100 | grep -cE '^ +\.\.> ' || true)
keys 'SELECT _key,' Enter
wait_for_count '^ +\.\.> ' $((continued + 1)) || fail "no continuation prompt after the first line of a SELECT"
# The first time, a line says what the query waits for.
wait_for "^\(a query runs once a line ends with ';'; Ctrl-C drops it\)$"
keys "  cf['cpu'] AS cpu" Enter
wait_for "^ +\.\.>   cf\['cpu'\] AS cpu$"
wait_for_count '^ +\.\.> ' $((continued + 2)) || fail "no continuation prompt after the second line of a SELECT"
keys 'FROM metrics' Enter
wait_for_count '^ +\.\.> ' $((continued + 3)) || fail "no continuation prompt after the third line of a SELECT"
keys 'ORDER BY _key DESC\;' Enter
wait_for '^\(2 rows\)$'
screen=$(tmux -L "$socket" capture-pane -t lbt -p -N -S -100)
grep -qE '^_key +\| cpu$' <<<"$screen" || fail "the result table has no header"
# The keys are host1 and host<newline>2 (from the quote above), which sorts
# first ascending and so last here.
rows=$(grep -A 4 -E '^_key +\| cpu$' <<<"$screen" | tail -n 3 | tr -s ' ')
[ "$rows" = $'host1 | 0.5\nhost\\x0a2 | 0.7\n(2 rows)' ] ||
  fail "the result table does not hold the rows in the order asked: $rows"

# Tab completes a quoted HBase table name (with no space after its quote:
# a comma or the end of the line comes next), a family after columns= and a
# table after FROM, where the line editor starts its word after the quote
# or the '='. Ctrl-C then drops each line.
wait_prompt
keys "scan 'met" Tab
wait_for "^lbt:mydb> scan 'metrics'$"
keys C-c
wait_prompt
keys "scan '" Tab
wait_for "^lbt:mydb> scan 'metrics'$"
keys C-c
wait_prompt
keys 'read metrics columns=' Tab
wait_for '^lbt:mydb> read metrics columns=cf:$'
keys C-c
wait_prompt
keys 'SELECT * FROM met' Tab
wait_for '^lbt:mydb> SELECT \* FROM metrics $'
keys C-c

wait_prompt
keys 'cuont metrics' Enter
wait_for "did you mean 'count'"

# A long import shows its progress on the terminal, and erases it before
# "Done": the line starts with it, nothing of the progress before.
awk 'BEGIN { print ",cf"; print ",a"; for (i = 0; i < 400000; i++) printf "h%d#%d,%d\n", i % 1000, i, i }' \
  >"$work/big.csv"
wait_prompt
keys "import metrics $work/big.csv" Enter
for _ in $(seq 1 300); do
  tmux -L "$socket" capture-pane -t lbt -p -N -S -100 | grep -qE 'Done importing 400000 rows' && break
  sleep 0.1
done
tmux -L "$socket" capture-pane -t lbt -p -N -S -100 | grep -qE '^Done importing 400000 rows\.$' ||
  fail "the progress line was not erased before Done"

wait_prompt
keys C-d
wait_for 'EXIT STATUS 0'
grep -q 'prefix=host' "$work/history" || fail "history was not saved"
echo "interactive shell: ok"
