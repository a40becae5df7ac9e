#!/usr/bin/env bash
# Runs lbt's benchmarks and prints each figure with the ratio to its
# baseline measured in the same run (raw LMDB, and cbt + the official
# emulator), then writes docs/benchmarks.md. Not part of the test suite.
#
#   ./scripts/bench.sh              100,000 time-series rows (4 cells each), in time order and sorted
#   ./scripts/bench.sh --rows 1000000
#   ./scripts/bench.sh --no-cbt     skip the cbt + emulator baselines (and section 7)
#   ./scripts/bench.sh --only serve  section 7 alone: lbt serve against the emulator
#   ./scripts/bench.sh --rounds N    section 7's rounds (3 by default; each figure is their median)
#   ./scripts/bench.sh --only remote section 8 alone: lbt as a client of the emulator, against cbt
#   ./scripts/bench.sh --only sql    section 9 alone: GoogleSQL over the engine (1,000,000 rows unless --rows)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"

rows=100000
with_cbt=1
only=""
serve_rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --no-cbt) with_cbt=0; shift ;;
    --only) only="$2"; shift 2 ;;
    --rounds) serve_rounds="$2"; shift 2 ;;
    *) echo "usage: $0 [--rows N] [--no-cbt] [--only serve|remote|sql] [--rounds N]" >&2; exit 2 ;;
  esac
done
command -v /usr/bin/time >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
if [ "$with_cbt" = 1 ] && ! command -v cbt >/dev/null 2>&1; then with_cbt=0; fi

lbt="$LBT_BUILD_DIR/lbt"
bench="$LBT_BUILD_DIR/bench/lbt_bench"
work="$(mktemp -d)"
cleanup() {
  [ -n "${LBT_EMULATOR_PID:-}" ] && kill "$LBT_EMULATOR_PID" 2>/dev/null
  [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "n/a" }'; }
# Runs a command, printing "<seconds> <peak RSS in KiB>".
measure() { /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; return 1; }; cat "$work/time"; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

results=()
row() { results+=("| $1 | $2 | $3 | $4 |"); printf '%-44s %-22s %-26s %s\n' "$1" "$2" "$3" "$4"; }

# 7. lbt serve against the official emulator, through the same clients:
# cbt import and read, and a gRPC load generator at 1, 8 and 32 clients.
serve_results=()
serve_row() { serve_results+=("| $1 | $2 | $3 | $4 | $5 |"); printf '%-34s %-24s %-24s %-20s %s\n' "$1" "$2" "$3" "$4" "$5"; }
anon_mib() { awk '/RssAnon/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }
# Runs cbt import, cbt read and the load at a server; prints "key value" lines.
bench_server() {
  local host="$1" pid="$2" out="$3" start
  cbt_at() { BIGTABLE_EMULATOR_HOST="$host" command cbt -project bench -instance bench -creds "$work/creds.json" "$@"; }
  cbt_at createtable ts families=stats >/dev/null
  start=$(now); cbt_at import ts "$work/timeorder.csv" workers=4 >/dev/null 2>&1; echo "import $(elapsed "$start")" >"$out"
  start=$(now); cbt_at read ts >/dev/null; echo "read $(elapsed "$start")" >>"$out"
  echo "anon_after_load $(anon_mib "$pid")" >>"$out"
  for mode in read write ping; do
    for clients in 1 8 32; do
      "$LBT_BUILD_DIR/bench/serve_load" "$host" ts "$mode" "$clients" 3 "$work/timeorder.csv" >"$work/load.txt"
      for key in ops_per_second p50_us p99_us; do echo "${mode}_${clients}_$key $(value "$key" "$work/load.txt")" >>"$out"; done
    done
  done
  echo "anon_after_all $(anon_mib "$pid")" >>"$out"
}
# Single-row writes from 8 clients to a table with its change stream on,
# alone and beside 2,000 idle ReadChangeStream calls of another table
# (lbt only: the emulator has no change streams), and the server's peak
# private memory while they are open. bench_idle_streams HOST PID DB
bench_idle_streams() {
  local host="$1" pid="$2" db="$3" load peak=0 now
  local table
  for table in cs idle; do
    "$lbt" --db "$db" -project bench -instance bench createtable "$table" families=stats change-stream-retention=1d >/dev/null
  done
  "$LBT_BUILD_DIR/bench/serve_load" "$host" cs write 8 3 "$work/timeorder.csv" >"$work/cs-alone.txt"
  LBT_LOAD_IDLE_STREAMS=2000 LBT_LOAD_IDLE_TABLE=idle "$LBT_BUILD_DIR/bench/serve_load" "$host" cs write 8 3 "$work/timeorder.csv" \
    >"$work/cs-idle.txt" &
  load=$!
  while kill -0 "$load" 2>/dev/null; do
    now=$(anon_mib "$pid"); [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.2
  done
  wait "$load"
  echo "peak_anon $peak" >>"$work/cs-idle.txt"
}
# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# BASE.txt: each key's median over the rounds' BASE.1.txt, BASE.2.txt, ...
merge_rounds() {
  local base="$1" key
  for key in $(awk '{ print $1 }' "$base".[0-9]*.txt | sort -u); do
    echo "$key $(for f in "$base".[0-9]*.txt; do value "$key" "$f"; done | median)"
  done >"$base.txt"
}
# The median over the rounds of KEY's ratio NUM/DEN (each round's two
# servers measured minutes apart), with the rounds' range: "1.34x (1.12x-1.63x)".
round_ratio() {
  local key="$1" num="$2" den="$3" i ratios=()
  for ((i = 1; i <= serve_rounds; i++)); do
    ratios+=("$(ratio "$(value "$key" "$num.$i.txt")" "$(value "$key" "$den.$i.txt")")")
  done
  local sorted
  sorted=$(printf '%s\n' "${ratios[@]}" | sort -g)
  echo "$(printf '%s\n' "${ratios[@]}" | median)x ($(head -1 <<<"$sorted")x-$(tail -1 <<<"$sorted")x)"
}
# Starts lbt serve on a new database with the given flags; sets serve_pid
# and serve_host.
start_serve() {
  local db="$1"
  shift
  "$lbt" serve --db "$db" --port 0 "$@" >"$work/serve.out" &
  serve_pid=$!
  for _ in $(seq 1 100); do grep -q 'BIGTABLE_EMULATOR_HOST=' "$work/serve.out" && break; sleep 0.1; done
  serve_host=$(grep -o 'BIGTABLE_EMULATOR_HOST=[0-9.:]*' "$work/serve.out" | cut -d= -f2)
}
stop_serve() { kill "$serve_pid"; wait "$serve_pid" || true; serve_pid=""; }
# One round: the emulator, lbt serve durable (and beside idle change
# streams), lbt serve --sync=off, each fresh, one after another.
serve_round() {
  local i="$1"
  lbt_start_emulator
  bench_server "$BIGTABLE_EMULATOR_HOST" "$LBT_EMULATOR_PID" "$work/emulator.$i.txt"
  kill "$LBT_EMULATOR_PID"; wait "$LBT_EMULATOR_PID" 2>/dev/null || true; LBT_EMULATOR_PID=""
  start_serve "$work/served-$i"
  bench_server "$serve_host" "$serve_pid" "$work/served.$i.txt"
  bench_idle_streams "$serve_host" "$serve_pid" "$work/served-$i"
  mv "$work/cs-alone.txt" "$work/cs-alone.$i.txt"
  { cat "$work/cs-idle.txt"; echo "idle_ratio $(ratio "$(value ops_per_second "$work/cs-idle.txt")" "$(value ops_per_second "$work/cs-alone.$i.txt")")"; } >"$work/cs-idle.$i.txt"
  stop_serve
  # The faster mode: acknowledged once in the log, before its sync (synced
  # within 100 ms), through the same clients.
  start_serve "$work/served-nosync-$i" --sync=off
  bench_server "$serve_host" "$serve_pid" "$work/served-nosync.$i.txt"
  stop_serve
}
bench_serve() {
  echo "section 7: lbt serve (--sync=full) against the emulator, $rows time-ordered rows from 1,000 hosts, $serve_rounds rounds"
  "$bench" gen-timeorder "$rows" "$work/timeorder.csv"
  # The durable-write floor of the database's disk: one writer appending
  # 4 KiB and fdatasyncing, which a durable single-row write cannot beat.
  "$bench" sync-floor "$work" 3 >"$work/floor.txt"
  echo '{"type":"service_account"}' >"$work/creds.json"
  source scripts/cbt-emulator.sh
  trap cleanup EXIT
  local i
  for ((i = 1; i <= serve_rounds; i++)); do serve_round "$i"; done
  for base in emulator served served-nosync cs-alone cs-idle; do merge_rounds "$work/$base"; done
  local e="$work/emulator.txt" l="$work/served.txt" f="$work/served-nosync.txt"
  local E="$work/emulator" L="$work/served" F="$work/served-nosync"
  serve_row "cbt import, workers=4" "$(value import "$l")s" "$(value import "$e")s" "$(round_ratio import "$E" "$L")" ">= 1.5x"
  serve_row "cbt import, workers=4, lbt --sync=off" "$(value import "$f")s" "$(value import "$e")s" "$(round_ratio import "$E" "$F")" ">= 1.5x"
  serve_row "cbt read, whole table" "$(value read "$l")s" "$(value read "$e")s" "$(round_ratio read "$E" "$L")" ">= 1.5x"
  for mode in read write ping; do
    for clients in 1 8 32; do
      local k="${mode}_${clients}" what="single-row $mode"
      [ "$mode" = ping ] && what="PingAndWarm (no work: the gRPC floor)"
      serve_row "$what, $clients clients" \
        "$(value "${k}_ops_per_second" "$l")/s, p50 $(value "${k}_p50_us" "$l")us, p99 $(value "${k}_p99_us" "$l")us" \
        "$(value "${k}_ops_per_second" "$e")/s, p50 $(value "${k}_p50_us" "$e")us, p99 $(value "${k}_p99_us" "$e")us" \
        "$(round_ratio "${k}_ops_per_second" "$L" "$E")" \
        "$([ "$k" = read_32 ] && echo ">= 1.5x")$([ "$k" = read_8 ] && echo ">= 1.5x, p99 < 1 ms")$([ "$k" = ping_8 ] && echo ">= 2x")$([ "$k" = write_8 ] && echo "the bound, below")$([ "$k" = write_32 ] && echo ">= 1x")"
    done
  done
  for clients in 1 8 32; do
    local k="write_${clients}"
    serve_row "single-row write, $clients clients, --sync=off" \
      "$(value "${k}_ops_per_second" "$f")/s, p50 $(value "${k}_p50_us" "$f")us, p99 $(value "${k}_p99_us" "$f")us" \
      "$(value "${k}_ops_per_second" "$e")/s, p50 $(value "${k}_p50_us" "$e")us, p99 $(value "${k}_p99_us" "$e")us" \
      "$(round_ratio "${k}_ops_per_second" "$F" "$E")" ">= 1.3x"
  done
  local alone="$work/cs-alone.txt" idle="$work/cs-idle.txt"
  serve_row "single-row write, 8 clients, 2,000 idle change streams open" \
    "$(value ops_per_second "$idle")/s, p99 $(value p99_us "$idle")us; peak $(value peak_anon "$idle") MiB private" \
    "" "$(value idle_ratio "$idle")x its rate without them ($(value ops_per_second "$alone")/s), the rounds' median" \
    ">= 0.9x, every write succeeds"
  local floor
  floor=$(value sync_floor_per_second "$work/floor.txt")
  serve_row "sync floor: 4 KiB append + fdatasync" "${floor}/s ($(value sync_floor_us "$work/floor.txt")us each)" "" "" ""
  serve_row "single-row write, 1 client, vs the floor" "$(value write_1_ops_per_second "$l")/s" "floor ${floor}/s" \
    "$(ratio "$(value write_1_ops_per_second "$l")" "$floor")x" ">= 0.9x the floor"
  serve_row "server private memory (RssAnon)" "$(value anon_after_load "$l") MiB loaded, $(value anon_after_all "$l") MiB at end" \
    "$(value anon_after_load "$e") MiB loaded, $(value anon_after_all "$e") MiB at end" "" "flat, < 128 MiB"
}
serve_section() {
  echo "## lbt serve against the emulator"
  echo
  echo "Section 7: the same clients against the official emulator and against \`lbt serve --sync=full\`"
  echo "(every write on disk before it is acknowledged): \`cbt import\` of $rows time-ordered rows from"
  echo "1,000 hosts, \`cbt read\` of the table, and \`build/bench/serve_load\`, a gRPC client issuing"
  echo "single-row MutateRow or ReadRows calls, or PingAndWarm, for 3 s at 1, 8 and 32 concurrent clients."
  echo "Each server runs $serve_rounds times, the emulator and lbt one after another in each round: rates"
  echo "and times are the rounds' medians, and a ratio is the median of the rounds' ratios, with their range."
  echo
  echo "| Benchmark | lbt serve | emulator | lbt / emulator | Target |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${serve_results[@]}"
  cat <<'NOTES'

Where a target is missed, and why (issue: lbt serve at the transport's limit). Two runs of
three rounds each, on this machine, minutes apart, gave the ratios quoted here; within a run,
single rounds differ by up to 30% for either server (two shared cores), which is why each
figure is the median of three. The emulator's figures moved between sessions more than
between these runs: its single-row reads at 8 clients were 23,000-28,000/s in single runs
earlier the same day and 30,700-31,000/s here, its writes 29,000-36,000/s and 36,000-38,400/s.

- **How the server runs.** Every service is on gRPC's callback API: no
  call holds a thread while it waits (README, "Threading"). gRPC 1.51 as
  Debian packages it runs every callback on two threads of its own
  (`nexting_thread`); lookups, PingAndWarm and single-row writes run
  there, the rest on 16 workers. Before (a thread per call): reads 0.91x
  the emulator at 8 clients and 1.00x at 32, PingAndWarm 1.65x at 8, and
  520 idle change streams made every other call fail RESOURCE_EXHAUSTED.
  The load generator is a callback client on four channels (with a thread
  per client it spent as much CPU as the server).
- **The write path, one pass.** A logged write's changes are kept as its
  log record's bytes from the start (`storage/kv/change_batch.h`): the
  record is written from there with `writev`, and the memtable takes its
  entries from the same bytes; MutateRows parses its request onto a
  protobuf arena; memtable nodes have a 16-byte header; keys compare a
  word at a time; folds put through a kept LMDB cursor. A cbt import of
  100k rows through `--sync=off` went from 665 ms to 420 ms of server CPU
  (6.6 to 4.2 us a row; the emulator spends 7.3-8.7 us), and from
  0.77x-1.11x the emulator (single runs) to 1.23x-1.30x. The one copy left is
  protobuf's strings into lbt's mutations at the api boundary (5% of an
  import's server CPU).
- **`cbt import`** (1.24x-1.29x durable, 1.23x-1.30x with `--sync=off`;
  target 1.5x). A server that parses each MutateRows and applies nothing
  takes the import in 234 ms with 100 ms of CPU (1 us a row): the rest
  is storage. Where it goes (`perf record -g`, `--sync=off`): memtable
  inserts 22%, most of it the skip list's search (time-ordered rows of
  1,000 hosts land far apart, and each node visited is a cache miss), the
  group's steps 24% (each new row's size looked up in the memtables and
  LMDB, cell keys built), folds into LMDB 17% (a background thread),
  parsing 6%, the kernel 15%. Groups commit one after another, so an
  import goes as fast as one thread applies them while it shares two
  cores with cbt. Tried and measured without gain: 64 MiB memtables,
  folds without fsync.
- **Durable single-row writes** (0.42x-0.43x at 8 clients, 0.62x-0.63x
  at 32; target 1x at 32). A write waits for a round trip and a log sync
  (the floor row, 141-189 us here) that the emulator never does; a write
  arriving during a sync waits for it and then for its own: at 8 clients
  at least a round trip (about 100 us) and 1.5 syncs, so at most about
  23,000-26,000 writes/s with no server CPU counted, against the
  emulator's 36,000-38,000/s. fdatasync on this machine's virtual disk
  also costs CPU (19% of the server's CPU in a profile of 8 durable
  writers). Tried: answering each group's writes from a second thread
  while the next group syncs: no gain at the median of five runs.
- **Single-row reads, PingAndWarm, writes with `--sync=off`** (reads
  1.19x-1.32x at 8 clients, 1.21x-1.27x at 32, p99 0.88-0.97 ms at 8;
  PingAndWarm 1.64x-1.67x at 8; writes with `--sync=off` 1.16x-1.17x at
  1 client, 1.06x-1.17x at 8, 0.85x-0.91x at 32). All are bounded by
  gRPC's transport: in a profile of PingAndWarm, a call that does
  nothing, lbt's code is 4% of the server's CPU, libgrpc 29%, the kernel
  52% (loopback TCP, epoll, switches between gRPC's callback threads);
  in one of 32 clients' single-row writes, the kernel 42%, libgrpc 17%,
  lbt 20%. A lookup is about 3 us of the ~20 us of server CPU a read
  costs; `GRPC_POLL_STRATEGY=poll` did not help.
- **2,000 idle change streams** (writes at 0.89x-0.91x their rate
  without them; target 0.9x). The streams hold no thread; each asked for
  a heartbeat a second, and polls its table's log every 200 ms when idle:
  12,000 wake-ups a second on the workers, about 60 ms of server CPU a
  second (3 s of one durable writer: 1.76 s of server CPU alone, 1.99 s
  beside the streams). Skipping an idle poll's scan when nothing was
  written made no difference: the wake-ups are the cost, not the scans.
- **`cbt read`** (1.80x-1.84x): a read's next response is produced once
  the client took the last, on a worker.
- **Memory.** Writes held in memory are bounded by three memtables of 16
  MiB (past that, writes wait for folds); jemalloc gives freed pages back
  after a second, so private memory falls back once a load ends (the last
  row). With 2,000 idle change streams and 8 writers the server peaked at
  64-65 MiB. A sustained load of 10 minutes (`serve_load ... write 32 600`
  over 400,000 random keys, `--sync=full`, measured before the callback
  server: 10,042 writes/s, 6 million writes, no failures) kept RssAnon
  between 45 and 51 MiB from the fourth minute on: bounded by the
  memtables plus gRPC's share, not by the data.
NOTES
}
# 8. lbt as a client of the official emulator, against cbt: the same
# commands, the same service; what differs is the client.
remote_results=()
remote_row() { remote_results+=("| $1 | $2 | $3 | $4 | $5 |"); printf '%-40s %-14s %-14s %-10s %s\n' "$1" "$2" "$3" "$4" "$5"; }
# The median wall time of N runs of a command, in seconds.
median_of() {
  local n="$1" i start
  shift
  for i in $(seq "$n"); do
    start=$(now); "$@" >/dev/null 2>&1; elapsed "$start"; echo
  done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
bench_remote() {
  echo "section 8: lbt as a client of the emulator, against cbt; $rows time-ordered rows"
  [ -f "$work/timeorder.csv" ] || "$bench" gen-timeorder "$rows" "$work/timeorder.csv"
  echo '{"type":"service_account"}' >"$work/creds.json"
  source scripts/cbt-emulator.sh
  [ -n "${LBT_EMULATOR_PID:-}" ] || lbt_start_emulator
  trap cleanup EXIT
  local flags=(-project bench -instance remote -creds "$work/creds.json")
  cbt_remote() { command cbt "${flags[@]}" "$@"; }
  lbt_remote() { "$lbt" "${flags[@]}" "$@"; }
  cbt_remote createtable small families=cf >/dev/null
  for i in $(seq 100); do echo "set small r$i cf:a=$i"; done | "$lbt" "${flags[@]}" >/dev/null
  local count_cbt count_cbt_plain count_lbt
  count_cbt_plain=$(median_of 5 command cbt -project bench -instance remote count small)
  count_cbt=$(median_of 11 cbt_remote count small)
  count_lbt=$(median_of 11 lbt_remote count small)
  remote_row "one-shot count, 100 rows, cbt as usually run" "${count_lbt}s" "${count_cbt_plain}s" \
    "$(ratio "$count_cbt_plain" "$count_lbt")x" ">= 10x"
  remote_row "one-shot count, cbt given a key file" "${count_lbt}s" "${count_cbt}s" \
    "$(ratio "$count_cbt" "$count_lbt")x" ""
  cbt_remote createtable by_cbt families=stats >/dev/null
  cbt_remote createtable by_lbt families=stats >/dev/null
  local start import_cbt import_lbt
  start=$(now); cbt_remote import by_cbt "$work/timeorder.csv" workers=4 >/dev/null 2>&1; import_cbt=$(elapsed "$start")
  start=$(now); lbt_remote import by_lbt "$work/timeorder.csv" workers=4 >/dev/null 2>&1; import_lbt=$(elapsed "$start")
  [ "$(lbt_remote count by_lbt)" = "$rows" ] || { echo "lbt's import did not write every row" >&2; exit 1; }
  remote_row "import of $rows rows, workers=4" "${import_lbt}s" "${import_cbt}s" "$(ratio "$import_cbt" "$import_lbt")x" ">= 2x"
  local read_cbt read_lbt
  start=$(now); cbt_remote read by_cbt >/dev/null; read_cbt=$(elapsed "$start")
  start=$(now); lbt_remote read by_lbt >/dev/null; read_lbt=$(elapsed "$start")
  remote_row "read of the whole table, to /dev/null" "${read_lbt}s" "${read_cbt}s" "$(ratio "$read_cbt" "$read_lbt")x" ""
}
remote_section() {
  echo "## lbt as a client of the emulator"
  echo
  echo "Section 8: the same commands against the same official emulator, run by cbt and by lbt in"
  echo "remote mode (\`lbt -project bench -instance remote ...\`): a one-shot \`count\` of a small table,"
  echo "\`import\` of $rows time-ordered rows with 4 workers, and a whole-table \`read\`. One-shot times"
  echo "are medians of several runs. \"cbt as usually run\" has no \`-creds\`: it looks for gcloud's"
  echo "credentials first, even for the emulator; given a key file (any JSON with a \"type\") it skips that."
  echo
  echo "| Benchmark | lbt | cbt | cbt / lbt | Target |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${remote_results[@]}"
  cat <<'NOTES'

Where a target is missed, and why:

- **One-shot commands against cbt given a key file.** lbt in remote mode
  runs `lbt-grpc` (local commands never load gRPC), which spends about
  20 ms loading gRPC's shared libraries and 10 ms on its channel and the
  call; cbt, one static Go binary, starts in about as much. The tenfold
  gap the target counts on is cbt's credential lookup, which cbt skips
  when given a key file.
- **Import.** Both clients wait on the emulator, which shares the
  machine's two cores with them; lbt's import spends less CPU than cbt's,
  so the gap is what the emulator can absorb.
NOTES
}
# 9. GoogleSQL over the engine: COUNT(*), SUM and a prefix query, each
# against an engine scan of every cell in the same run.
sql_results=()
sql_row() { sql_results+=("| $1 | $2 | $3 | $4 |"); printf '%-44s %-22s %-30s %s\n' "$1" "$2" "$3" "$4"; }
bench_sql() {
  local n="$1"
  echo "section 9: GoogleSQL over the engine, $n rows x 4 cells"
  "$bench" gen "$n" "$work/sql.csv"
  "$lbt" --db "$work/sqldb" createtable ts families=stats >/dev/null
  "$lbt" --db "$work/sqldb" --sync=off import ts "$work/sql.csv" >/dev/null
  "$bench" sql "$work/sqldb" ts >"$work/sql.txt"
  local v="$work/sql.txt" scan
  scan=$(value engine_scan_cells_per_second "$v")
  sql_row "engine scan of every cell (the baseline)" "$scan cells/s" "" ""
  sql_row "SELECT COUNT(*) FROM ts" "$(value sql_count_cells_per_second "$v") cells/s" \
    "$(ratio "$(value sql_count_cells_per_second "$v")" "$scan")x the engine scan" ">= 5M cells/s"
  sql_row "SUM(CAST(CAST(stats['cpu'] AS STRING) AS FLOAT64))" "$(value sql_sum_cells_per_second "$v") cells/s" \
    "$(ratio "$(value sql_sum_cells_per_second "$v")" "$scan")x the engine scan" ">= 5M cells/s"
  sql_row "COUNT(*) WHERE STARTS_WITH(_key, 'host0042#')" "$(value sql_prefix_seconds "$v")s" \
    "$(value sql_prefix_rows_examined "$v") rows examined, $(value sql_prefix_rows_in_range "$v") in the prefix" "only the prefix"
  local plain
  plain=$(value sql_plain_seconds "$v")
  sql_row "SELECT _key, cpu FROM ts (the plain scan)" "${plain}s, $(value sql_plain_mib "$v") MiB" "" ""
  sql_row "SUM(cpu) OVER (PARTITION BY host ORDER BY _key ROWS UNBOUNDED PRECEDING)" \
    "$(value sql_window_seconds "$v")s, $(value sql_window_mib "$v") MiB" \
    "$(ratio "$(value sql_window_seconds "$v")" "$plain")x the plain scan's time" "< 1 GiB (the window's limit)"
  local counted
  counted=$(value sql_counted_seconds "$v")
  sql_row "SELECT COUNT(stats['cpu']) FROM ts" "${counted}s, $(value sql_counted_mib "$v") MiB" "" ""
  sql_row "SELECT COUNT(DISTINCT stats['cpu']) (10,001 values)" \
    "$(value sql_distinct_seconds "$v")s, $(value sql_distinct_mib "$v") MiB" \
    "$(ratio "$(value sql_distinct_seconds "$v")" "$counted")x COUNT's time" ""
  sql_row "SELECT COUNT(DISTINCT _key) (every row distinct)" \
    "$(value sql_distinct_keys_seconds "$v")s, $(value sql_distinct_keys_mib "$v") MiB" \
    "$(ratio "$(value sql_distinct_keys_seconds "$v")" "$counted")x COUNT's time" "<= 1,000,000 distinct values"
}
sql_section() {
  echo "## GoogleSQL over the engine"
  echo
  echo "Section 9: \`build/bench/lbt_bench sql\` over $sql_rows time-series rows (4 cells each, one family),"
  echo "loaded with \`lbt import\`. Cells per second count every cell of the table, so that a query and"
  echo "the baseline, the engine reading every cell in the same run, compare directly."
  echo
  echo "| Benchmark | lbt | Against the baseline | Target |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${sql_results[@]}"
  cat <<'NOTES'

How the queries read:

- **COUNT(\*)** reads one stripped cell a row and builds no value.
- **SUM** names one column by a constant subscript (`stats['cpu']`): its
  latest cell becomes the row's only value, no map of the family is built,
  and the two casts convert the bytes straight to a FLOAT64.
- **The window** (`cpu` is `CAST(CAST(stats['cpu'] AS STRING) AS FLOAT64)`,
  `host` is `SUBSTR(_key, 1, 8)`: 10,000 partitions of 100 rows) holds every
  row it reads, then partitions, sorts and runs one aggregate along each
  partition; its memory is the rows held (the limit is 1 GiB of them), its
  time the plain scan's plus the sort. Memory is the peak resident memory
  the query's first run added to the process.
- **COUNT(DISTINCT)** keeps each distinct value once per group (at most
  1,000,000); with few distinct values it costs little more than COUNT.
- The baseline decodes every cell on one thread; a query reads through
  the Bigtable interface, whose long reads run the engine ahead on the
  other core, and COUNT(\*) decodes one stripped cell a row: so a query
  may pass the baseline. On this shared two-core machine runs differ by
  a third with the load around them.
NOTES
}
# Replaces one section of docs/benchmarks.md (from its "## " title to the
# next), or appends it, keeping the rest. write_section TITLE FUNCTION
write_section() {
  "$2" >"$work/section.md"
  awk -v section="$work/section.md" -v title="## $1" '
    $0 == title { while ((getline l < section) > 0) print l; skip = 1; next }
    skip && /^## / { skip = 0; print "" }
    !skip { print }' docs/benchmarks.md >docs/benchmarks.md.new
  grep -qx "## $1" docs/benchmarks.md.new || { echo; cat "$work/section.md"; } >>docs/benchmarks.md.new
  mv docs/benchmarks.md.new docs/benchmarks.md
}
if [ "$only" = serve ]; then
  bench_serve
  write_section "lbt serve against the emulator" serve_section
  echo "section 7 written to docs/benchmarks.md"
  exit 0
fi
if [ "$only" = sql ]; then
  sql_rows=$rows
  [ "$rows" = 100000 ] && sql_rows=1000000
  bench_sql "$sql_rows"
  write_section "GoogleSQL over the engine" sql_section
  echo "section 9 written to docs/benchmarks.md"
  exit 0
fi
if [ "$only" = remote ]; then
  bench_remote
  write_section "lbt as a client of the emulator" remote_section
  echo "section 8 written to docs/benchmarks.md"
  exit 0
fi

echo "lbt benchmarks: $rows rows x 4 cells, in time order and sorted; $(nproc) cores; $(uname -sr)"
# The default dataset arrives as a fleet reports: each minute, every one of
# 1,000 hosts, so consecutive rows are spread over the whole key space. The
# second is the same rows in key order.
"$bench" gen-timeorder "$rows" "$work/timeorder.csv"
"$bench" gen-sorted "$rows" "$work/sorted.csv"
cells=$((rows * 4))
csv_bytes=$(stat -c %s "$work/timeorder.csv")

# Runs a command to its end, sampling its memory every 50 ms; prints
# "<peak RSS KiB> <peak RssAnon KiB>". RSS counts the pages of the data
# file mapped in (the page cache); RssAnon is the process's own memory.
# Timed runs are separate: sampling costs a little CPU.
peak_memory() {
  "$@" >/dev/null 2>"$work/stderr" &
  local pid=$! anon=0 hwm=0 key value unit
  while [ -r "/proc/$pid/status" ]; do
    while read -r key value unit; do
      case "$key" in
        RssAnon:) [ "$value" -gt "$anon" ] && anon=$value ;;
        VmHWM:) hwm=$value ;;
      esac
    done <"/proc/$pid/status" 2>/dev/null || true
    sleep 0.05
  done
  wait "$pid" || { cat "$work/stderr" >&2; return 1; }
  echo "$hwm $anon"
}
mib() { echo $(($1 / 1024)); }

# 1. Bulk load, each dataset against its naive floor: the same cell keys
# and values put into raw LMDB in input order, in one transaction.
load_floor() {
  local set="$1"
  "$bench" raw-load "$work/$set.csv" "$work/raw-$set" >"$work/raw-$set.txt"
  value raw_load_seconds "$work/raw-$set.txt"
}
bench_load() {
  local set="$1" what="$2" target="$3" floor t t_off
  floor=$(load_floor "$set")
  "$lbt" --db "$work/db-$set" createtable ts families=stats >/dev/null
  read -r t _ < <(measure "$lbt" --db "$work/db-$set" import ts "$work/$set.csv")
  row "1. bulk load, $what, lbt import" "${t}s" "$(ratio "$t" "$floor")x the naive floor (${floor}s)" "$target"
  "$lbt" --db "$work/off-$set" createtable ts families=stats >/dev/null
  read -r t_off _ < <(measure "$lbt" --db "$work/off-$set" --sync=off import ts "$work/$set.csv")
  row "1. bulk load, $what, lbt import --sync=off" "${t_off}s" "$(ratio "$t_off" "$floor")x the naive floor" ""
  last_load=$t
}
bench_load timeorder "time order" "target <= 1.0x"
lbt_load=$last_load
bench_load sorted "sorted" "target <= 1.3x"
raw_bytes=$(value raw_bytes "$work/raw-timeorder.txt")

if [ "$with_cbt" = 1 ]; then
  source scripts/cbt-emulator.sh
  lbt_start_emulator
  trap cleanup EXIT
  echo '{}' >"$work/creds.json"
  cbt() { command cbt -project bench -instance bench -creds "$work/creds.json" "$@"; }
  cbt createtable ts families=stats >/dev/null 2>&1
  start=$(now)
  cbt import ts "$work/timeorder.csv" batch-size=500 >/dev/null 2>&1
  cbt_load=$(elapsed "$start")
  row "1. bulk load, time order, cbt import + emulator" "${cbt_load}s" "lbt is $(ratio "$cbt_load" "$lbt_load")x faster" "target >= 5x"
  emulator_rss=$(awk '/VmRSS/ { print $2 }' "/proc/$LBT_EMULATOR_PID/status")
fi

# 2. Full scans to /dev/null of the time-ordered load (best of three runs);
# the raw cursor runs over the sorted floor, whose pages are in key order.
db="$work/db-timeorder"
"$bench" raw-scan "$work/raw-sorted" >"$work/rawscan.txt"
raw_scan=$(value raw_scan_seconds "$work/rawscan.txt")
# The best wall time of three runs of a command, in seconds.
best_seconds() {
  local i start
  for i in 1 2 3; do
    start=$(now); "$@" >/dev/null; elapsed "$start"; echo
  done | sort -n | head -1
}
scan_text=$(best_seconds "$lbt" --db "$db" read ts)
scan_jsonl=$(best_seconds "$lbt" --db "$db" --format jsonl read ts)
row "2. full scan, lbt text" "${scan_text}s, $(rate "$cells" "$scan_text") cells/s" "$(ratio "$scan_text" "$raw_scan")x raw cursor (${raw_scan}s)" ""
row "2. full scan, lbt jsonl" "${scan_jsonl}s, $(rate "$cells" "$scan_jsonl") cells/s" "$(ratio "$scan_jsonl" "$raw_scan")x raw cursor" "target >= 5M cells/s"
if [ "$with_cbt" = 1 ]; then
  start=$(now)
  cbt read ts >/dev/null 2>&1
  cbt_scan=$(elapsed "$start")
  row "2. full scan, cbt read + emulator" "${cbt_scan}s" "lbt text is $(ratio "$cbt_scan" "$scan_text")x faster" "target >= 10x"
fi

# 3. Point lookups, one at a time and batched, against a raw LMDB cursor
# doing the same batches over the sorted floor; and prefix reads. Lookups
# take the best of three alternating rounds: the machine's noise only ever
# adds time.
for round in 1 2 3; do
  "$bench" lookups "$db" ts "$work/timeorder.csv" 200000 >"$work/lookups.$round.txt"
  "$bench" raw-lookups "$work/raw-sorted" "$work/timeorder.csv" 200000 >"$work/rawlookups.$round.txt"
done
# The file of the round with the highest value of key $1 among files $2...
best_of() { local key="$1"; shift; for f in "$@"; do echo "$(value "$key" "$f") $f"; done | sort -n | tail -1 | cut -d' ' -f2; }
lk=$(best_of engine_lookup_per_second "$work"/lookups.?.txt)
lkb=$(best_of engine_batch_lookup_per_second "$work"/lookups.?.txt)
raw_lookups=$(value raw_lookup_per_second "$(best_of raw_lookup_per_second "$work"/rawlookups.?.txt)")
"$bench" prefixes "$db" ts 2000 >"$work/prefixes.txt"
row "3. engine point lookup, one at a time" "$(value engine_lookup_per_second "$lk") lookups/s" \
  "p50 $(value engine_lookup_p50 "$lk")us, p99 $(value engine_lookup_p99 "$lk")us" ""
row "3. engine point lookups, batches of 1000" "$(value engine_batch_lookup_per_second "$lkb") lookups/s" \
  "$(ratio "$(value engine_batch_lookup_per_second "$lkb")" "$(value engine_lookup_per_second "$lk")")x one at a time" "target >= 1M/s"
row "3. raw LMDB, the same batched lookups (the floor)" "$raw_lookups lookups/s" \
  "lbt's batches at $(ratio "$(value engine_batch_lookup_per_second "$lkb")" "$raw_lookups")x" ""
row "3. engine prefix read (~$((rows / 1000)) rows)" "$(value engine_prefix_read_cells_per_second "$work/prefixes.txt") cells/s" \
  "p50 $(value engine_prefix_read_p50 "$work/prefixes.txt")us, p99 $(value engine_prefix_read_p99 "$work/prefixes.txt")us" ""
awk -F, 'NR > 2 && NR % 97 == 0 && n++ < 1000 { print "lookup ts " $1 }' "$work/timeorder.csv" >"$work/lookups.cbt"
n_script=$(wc -l <"$work/lookups.cbt")
start=$(now)
"$lbt" --db "$db" -f "$work/lookups.cbt" >/dev/null
script_lookups=$(elapsed "$start")
row "3. lookups through one lbt script" "$(rate "$n_script" "$script_lookups") lookups/s" "$n_script lookups in ${script_lookups}s, the process included" ""

# 4. Startup: a one-shot count on a small table.
"$lbt" --db "$work/small" createtable t families=cf >/dev/null
"$lbt" --db "$work/small" set t r cf:a=1 >/dev/null
start=$(now)
for _ in $(seq 1 50); do "$lbt" --db "$work/small" count t >/dev/null; done
startup=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 50 }')
# Starting any process costs something here too: /bin/true is the floor.
start=$(now)
for _ in $(seq 1 50); do /bin/true; done
spawn=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 50 }')
if [ "$with_cbt" = 1 ]; then
  cbt createtable small families=cf >/dev/null 2>&1
  start=$(now)
  for _ in $(seq 1 10); do cbt count small >/dev/null 2>&1; done
  cbt_startup=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 10 }')
  start=$(now)
  for _ in 1 2 3; do command cbt -project bench -instance bench count small >/dev/null 2>&1; done
  cbt_plain=$(awk -v s="$(elapsed "$start")" 'BEGIN { printf "%.1f", s * 1000 / 3 }')
  row "4. startup, lbt count (small table)" "${startup} ms (/bin/true: ${spawn} ms)" "cbt count: ${cbt_plain} ms (${cbt_startup} ms with -creds)" "target < 10 ms"
else
  row "4. startup, lbt count (small table)" "${startup} ms (/bin/true: ${spawn} ms)" "" "target < 10 ms"
fi

# 5. Memory: private memory (RssAnon) against RSS, which also counts the
# data file's pages mapped in from the page cache.
for set in timeorder sorted; do
  "$lbt" --db "$work/mem-$set" createtable ts families=stats >/dev/null
  read -r rss anon < <(peak_memory "$lbt" --db "$work/mem-$set" import ts "$work/$set.csv")
  row "5. memory, lbt import ($set)" "$(mib "$anon") MiB private" "$(mib "$rss") MiB RSS; $rows rows" "private <= 64 MiB"
done
read -r rss anon < <(peak_memory "$lbt" --db "$db" --format jsonl read ts)
row "5. memory, lbt full scan (jsonl)" "$(mib "$anon") MiB private" "$(mib "$rss") MiB RSS; $rows rows" "private <= 64 MiB, flat"
if [ "$with_cbt" = 1 ]; then row "5. emulator RSS holding the table" "$((emulator_rss / 1024)) MiB" "" ""; fi

# 6. Size on disk, against the raw bytes of keys and values (row key,
# qualifier and value of each cell).
for set in timeorder sorted; do
  size=$(stat -c %s "$work/db-$set/data.mdb")
  row "6. database size after import ($set)" "$((size / 1048576)) MiB" "$(ratio "$size" "$raw_bytes")x raw cell bytes" \
    "$([ "$set" = timeorder ] && echo "target <= 1.6x")"
done
floor_size=$(value raw_db_bytes "$work/raw-timeorder.txt")
row "6. the naive floor's size (time order)" "$((floor_size / 1048576)) MiB" "$(ratio "$floor_size" "$raw_bytes")x raw cell bytes" ""
"$lbt" --db "$db" compact >/dev/null
size_compact=$(stat -c %s "$db/data.mdb")
row "6. database size after compact" "$((size_compact / 1048576)) MiB" "$(ratio "$size_compact" "$raw_bytes")x raw cell bytes" ""

if [ "$with_cbt" = 1 ]; then
  [ -n "${LBT_EMULATOR_PID:-}" ] && kill "$LBT_EMULATOR_PID" 2>/dev/null && LBT_EMULATOR_PID=""
  bench_serve
  bench_remote
fi

# The top of docs/benchmarks.md, down to its first "## " section.
top_section() {
  echo "# Benchmarks"
  echo
  echo "Produced by \`./scripts/bench.sh --rows $rows\` on $(date -u +%Y-%m-%d): $(nproc) cores,"
  echo "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) of memory, $(uname -sr)."
  echo "Data: $rows time-series rows \`host0137#1700000000000\` from 1,000 hosts (the layout Bigtable's"
  echo "time-series guide recommends), 4 cells each in one family, $((csv_bytes / 1048576)) MiB of CSV, generated"
  echo "with a fixed seed, in two orders: **time order**, the default, as a fleet reports (each minute, every"
  echo "host, so consecutive rows are far apart in key order), and **sorted**, the same rows in key order."
  echo "Each load's baseline is its **naive floor**: the same cell keys and values put into raw LMDB in input"
  echo "order, in one transaction, flushed to disk once (\`lbt_bench raw-load\`). lbt's imports run with the"
  echo "default \`--sync=full\` unless the row says otherwise, into a new table. Memory is private memory"
  echo "(RssAnon), sampled every 50 ms; RSS also counts the data file's pages mapped from the page cache."
  echo "Every ratio compares figures measured in the same run. To reproduce: \`./scripts/bench.sh\` (with cbt and"
  echo "the emulator), \`./scripts/bench.sh --rows 1000000 --no-cbt\`."
  echo
  echo "| Benchmark | lbt | Against the baseline | Target |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${results[@]}"
}
# Sections 1-6 replace the top of the file; the sections below it stay
# (notes, and sections run alone), and 7 and 8 are rewritten when they ran.
top_section >docs/benchmarks.md.new
if [ -f docs/benchmarks.md ] && grep -q '^## ' docs/benchmarks.md; then
  { echo; awk '/^## / { keep = 1 } keep' docs/benchmarks.md; } >>docs/benchmarks.md.new
fi
mv docs/benchmarks.md.new docs/benchmarks.md
if [ "$with_cbt" = 1 ]; then
  write_section "lbt serve against the emulator" serve_section
  write_section "lbt as a client of the emulator" remote_section
fi
echo
echo "results written to docs/benchmarks.md"
