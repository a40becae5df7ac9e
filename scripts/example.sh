#!/usr/bin/env bash
# Runs one of the schema-design lessons in examples/: builds lbt if needed,
# generates the lesson's data, runs its lesson.cbt against a fresh database
# and leaves that database behind to explore.
#
#   ./scripts/example.sh --list
#   ./scripts/example.sh field-promotion-vs-salting
#   ./scripts/example.sh counters --rows 50000 --db /tmp/counters-db
#
# Options:
#   --rows N    size of the generated data (each lesson's README says what a
#               row is; the default runs in seconds)
#   --db DIR    the database to create (must not exist yet, or be empty);
#               default: a folder "db" inside the data folder
#   --data DIR  where the generated files and the heatmaps go (must not
#               exist yet, or be empty); default: a new temporary folder
#
# LBT_BINARY=/path/to/lbt skips the build and uses that binary.
#
# The lesson runs with --echo (each command is printed before its output),
# --keep-going (a failed step does not hide the ones after it) and
# --sync=off (the data is throwaway, and this loads it much faster).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXAMPLES="$ROOT/examples"

say() { printf '%s\n' "$*" >&2; }
usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
  exit 2
}

# A lesson is a folder of examples/ with a lesson.cbt; its first line
# ("# Lesson: ...") is its summary.
list_lessons() {
  local dir
  for dir in "$EXAMPLES"/*/; do
    [ -f "$dir/lesson.cbt" ] && basename "$dir"
  done
}

print_list() {
  local lesson summary
  echo "Lessons (run one with scripts/example.sh <lesson>):"
  for lesson in $(list_lessons); do
    summary="$(head -n 1 "$EXAMPLES/$lesson/lesson.cbt" | sed 's/^# *Lesson: *//')"
    printf "  %-28s %s\n" "$lesson" "${summary^}"
  done
}

# Refuses a folder that holds anything: the lesson creates tables and
# writes files, and must not mix with what is already there.
require_empty() {
  local what="$1" dir="$2"
  if [ -e "$dir" ] && { [ ! -d "$dir" ] || [ -n "$(ls -A "$dir")" ]; }; then
    say "example.sh: the $what folder $dir is not empty; give a new or empty folder"
    exit 2
  fi
}

# Folds long runs of one command (the thousands of addtocell lines of a
# generated load script) into their first lines and a count, so that the
# lesson's own steps stay readable. Short runs are printed whole.
fold_repeated_commands() {
  awk '
    function flush(   i) {
      if (n <= 10) {
        for (i = 1; i <= n; i++) print run[i]
      } else {
        print run[1]; print run[2]
        printf "> ... and %d more %s commands\n", n - 2, word
      }
      n = 0
      fflush()
    }
    /^> / {
      split($0, w, " ")
      if (n > 0 && w[2] != word) flush()
      word = w[2]
      if (n < 10) run[n + 1] = $0
      n++
      next
    }
    { if (n > 0) flush(); print; fflush() }
    END { if (n > 0) flush() }
  '
}

lesson=""
rows=""
db=""
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --list) print_list; exit 0 ;;
    -h|--help) usage ;;
    --rows) [ $# -ge 2 ] || usage; rows="$2"; shift 2 ;;
    --rows=*) rows="${1#--rows=}"; shift ;;
    --db) [ $# -ge 2 ] || usage; db="$2"; shift 2 ;;
    --db=*) db="${1#--db=}"; shift ;;
    --data) [ $# -ge 2 ] || usage; data="$2"; shift 2 ;;
    --data=*) data="${1#--data=}"; shift ;;
    -*) say "example.sh: unknown option $1"; usage ;;
    *)
      [ -z "$lesson" ] || { say "example.sh: one lesson at a time"; exit 2; }
      lesson="$(basename "$1")"; shift ;;  # examples/counters/ works too
  esac
done
[ -n "$lesson" ] || usage
if [ ! -f "$EXAMPLES/$lesson/lesson.cbt" ]; then
  say "example.sh: no lesson named '$lesson'"
  print_list >&2
  exit 2
fi
if [ -n "$rows" ] && ! [[ "$rows" =~ ^[1-9][0-9]*$ ]]; then
  say "example.sh: --rows takes a positive integer, not '$rows'"
  exit 2
fi

if [ -n "${LBT_BINARY:-}" ]; then
  # Absolute, because the lesson runs from the data folder.
  case "$LBT_BINARY" in
    */*) lbt="$(cd "$(dirname "$LBT_BINARY")" 2>/dev/null && pwd)/$(basename "$LBT_BINARY")" ;;
    *) lbt="$(command -v "$LBT_BINARY" || true)" ;;
  esac
  [ -n "$lbt" ] && [ -x "$lbt" ] || { say "example.sh: LBT_BINARY=$LBT_BINARY is not an executable"; exit 2; }
else
  say "== building lbt if needed (the first build takes several minutes)"
  source "$ROOT/scripts/setup.sh"
  lbt="$LBT_BUILD_DIR/lbt"
fi
command -v node >/dev/null 2>&1 || { say "example.sh: the generators need Node.js (node) on the PATH"; exit 1; }

if [ -n "$data" ]; then
  require_empty data "$data"
  mkdir -p "$data"
  data="$(cd "$data" && pwd)"
else
  data="$(mktemp -d "${TMPDIR:-/tmp}/lbt-example-$lesson.XXXXXX")"
fi
if [ -n "$db" ]; then
  require_empty database "$db"
  mkdir -p "$db"
  db="$(cd "$db" && pwd)"
else
  db="$data/db"
fi

say "== $lesson: generating data in $data"
(cd "$data" && node "$EXAMPLES/$lesson/generate.mjs" ${rows:+"$rows"})

# The script's import lines name the generated files by relative paths.
# A copy of the script beside them, run from that folder, finds them
# whichever way a relative path is resolved (against the current folder
# or the script's own).
cp "$EXAMPLES/$lesson/lesson.cbt" "$data/lesson.cbt"
say "== $lesson: running lesson.cbt against $db"
# lbt buffers what it prints to a pipe but not its messages, so the two
# would interleave out of order: the messages (import counts, errors with
# their line numbers) are kept aside and shown after the lesson.
status=0
(cd "$data" && "$lbt" --db "$db" --sync=off --echo --keep-going -f lesson.cbt 2>"$data/lesson.err") |
  fold_repeated_commands || status=$?

say ""
if [ -s "$data/lesson.err" ]; then
  say "== lbt's messages:"
  sed 's/^/   /' "$data/lesson.err" >&2
fi
if [ "$status" -ne 0 ]; then
  say "== $lesson: some steps failed (see lbt's messages); the others ran."
fi
say "== Data and heatmaps: $data"
for file in "$data"/*.html "$data"/*.svg; do
  [ -e "$file" ] && say "     $(basename "$file")"
done
say "== Explore the database: $lbt --db $db"
if [ "$db" = "$data/db" ]; then
  say "   (remove both when done: rm -rf $data)"
else
  say "   (remove them when done: rm -rf $data $db)"
fi
exit "$status"
