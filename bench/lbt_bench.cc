// Benchmark helpers for scripts/bench.sh (not part of the test suite):
//
//   lbt_bench gen ROWS FILE.csv         time-series rows host%04d#<ms>, 4 columns, fixed seed, 100 per host
//   lbt_bench gen-timeorder ROWS FILE.csv   rows from 1,000 hosts, in arrival (time) order: each
//                                       minute, every host's sample (keys spread over the key space)
//   lbt_bench gen-sorted ROWS FILE.csv  the same rows as gen-timeorder, in key order
//   lbt_bench raw-load FILE.csv DIR     the naive storage floor: lbt's cell keys and values put
//                                       into raw LMDB in input order, in one transaction
//   lbt_bench raw-scan DIR              a raw LMDB cursor over every entry
//   lbt_bench raw-lookups DIR FILE.csv N   the lookup floor: N random rows of a raw-load read with
//                                       one raw LMDB cursor, in sorted batches of 1000
//   lbt_bench lookups DB TABLE FILE.csv N   engine point lookups of random existing rows, one at
//                                       a time (ReadRow) and in batches of 1000 (LookupRows)
//   lbt_bench prefixes DB TABLE N       engine prefix reads of ~100 rows
//   lbt_bench sql DB TABLE              GoogleSQL COUNT(*), SUM and a prefix query, against an engine scan
//   lbt_bench sync-floor DIR SECONDS    the durable-write floor of DIR's disk: one writer appending
//                                       4 KiB to a file and fdatasyncing it, for SECONDS
//
// Each prints one line "name value unit" per figure, for the script to use.

#include <fcntl.h>
#include <lmdb.h>
#include <unistd.h>

#include <malloc.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "local/local_bigtable.h"
#include "sql/query.h"
#include "storage/database.h"
#include "storage/format/key_codec.h"
#include "storage/rows/row_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

int Gen(int64_t rows, const std::string& path) {
  std::mt19937_64 rng(1700000000);
  std::ofstream out(path);
  out << ",stats,,,\n,cpu,mem,disk,net\n";
  const int64_t hosts = std::max<int64_t>(1, rows / 100);
  std::uniform_real_distribution<double> pct(0, 100);
  char line[256];
  for (int64_t h = 0; h < hosts; ++h) {
    for (int64_t i = 0; i < rows / hosts; ++i) {
      int64_t ms = 1700000000000 + i * 60000;
      snprintf(line, sizeof line, "host%04lld#%lld,%.2f,%.2f,%.2f,%.2f\n", static_cast<long long>(h),
               static_cast<long long>(ms), pct(rng), pct(rng), pct(rng), pct(rng));
      out << line;
    }
  }
  return 0;
}

// Rows as a fleet reports them: every host's sample for a minute, then the
// next minute, so consecutive rows are spread over the whole key space.
// Sorted, the same rows (values included) come in key order: host by host.
int GenFleet(int64_t rows, const std::string& path, bool sorted) {
  std::mt19937_64 rng(1700000000);
  std::ofstream out(path);
  out << ",stats,,,\n,cpu,mem,disk,net\n";
  const int64_t hosts = 1000;
  std::uniform_real_distribution<double> pct(0, 100);
  std::vector<std::string> lines;
  char line[256];
  for (int64_t i = 0; i < rows; ++i) {
    int64_t ms = 1700000000000 + (i / hosts) * 60000;
    snprintf(line, sizeof line, "host%04lld#%lld,%.2f,%.2f,%.2f,%.2f\n", static_cast<long long>(i % hosts),
             static_cast<long long>(ms), pct(rng), pct(rng), pct(rng), pct(rng));
    if (sorted) {
      lines.emplace_back(line);
    } else {
      out << line;
    }
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& l : lines) out << l;
  return 0;
}

// The naive floor: what storing the same cells in LMDB costs with no more
// thought than a put per cell. Every cell key lbt would write (the encoded
// key, timestamp included) with its value, put in input order into one
// database in one transaction, then flushed to disk once: as durable as
// lbt's default --sync=full at the end of an import.
int RawLoad(const std::string& csv, const std::string& dir) {
  std::filesystem::create_directories(dir);
  MDB_env* env;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, 64ull << 30);
  if (mdb_env_open(env, dir.c_str(), MDB_NOSYNC, 0600) != 0) return 1;
  auto start = Clock::now();
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  std::vector<std::string> qualifiers = SplitCsv(line);
  MDB_txn* txn;
  MDB_dbi dbi;
  mdb_txn_begin(env, nullptr, 0, &txn);
  mdb_dbi_open(txn, nullptr, 0, &dbi);
  int64_t rows = 0, bytes = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsv(line);
    for (size_t i = 1; i < f.size(); ++i) {
      // Table 1's first family ("stats"), as the import creates them.
      std::string key = lbt::EncodeCellKey(1, f[0], /*family=*/1, qualifiers[i], 1700000000000000);
      MDB_val k{key.size(), key.data()}, v{f[i].size(), f[i].data()};
      if (mdb_put(txn, dbi, &k, &v, 0) != 0) return 1;
      // A cell's raw bytes: row key, family name, qualifier, an 8-byte
      // timestamp and the value.
      bytes += static_cast<int64_t>(f[0].size() + std::strlen("stats") + qualifiers[i].size() + 8 + f[i].size());
    }
    ++rows;
  }
  if (mdb_txn_commit(txn) != 0 || mdb_env_sync(env, 1) != 0) return 1;
  double seconds = Seconds(start);
  mdb_env_close(env);
  printf("raw_load_seconds %.3f s\nraw_load_rows %lld rows\nraw_bytes %lld bytes\nraw_db_bytes %lld bytes\n", seconds,
         static_cast<long long>(rows), static_cast<long long>(bytes),
         static_cast<long long>(std::filesystem::file_size(std::filesystem::path(dir) / "data.mdb")));
  return 0;
}

int RawScan(const std::string& dir) {
  MDB_env* env;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, 64ull << 30);
  if (mdb_env_open(env, dir.c_str(), MDB_RDONLY, 0600) != 0) return 1;
  auto start = Clock::now();
  MDB_txn* txn;
  MDB_dbi dbi;
  MDB_cursor* cursor;
  mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn);
  mdb_dbi_open(txn, nullptr, 0, &dbi);
  mdb_cursor_open(txn, dbi, &cursor);
  MDB_val k, v;
  int64_t cells = 0, bytes = 0;
  for (int rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
    ++cells;
    bytes += static_cast<int64_t>(k.mv_size + v.mv_size);
  }
  double seconds = Seconds(start);
  mdb_cursor_close(cursor);
  mdb_txn_abort(txn);
  mdb_env_close(env);
  printf("raw_scan_seconds %.3f s\nraw_scan_cells %lld cells\n", seconds, static_cast<long long>(cells));
  return bytes > 0 ? 0 : 1;
}

// The row keys of a `gen` CSV file (after its two header lines).
std::vector<std::string> RowKeysOf(const std::string& csv) {
  std::vector<std::string> keys;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  while (std::getline(in, line)) keys.push_back(line.substr(0, line.find(',')));
  return keys;
}

// What batched lookups cannot beat: the same rows' cells read from a
// raw-load database with one LMDB cursor per batch of keys, sorted, each
// row a seek to its first cell and steps over the rest.
int RawLookups(const std::string& dir, const std::string& csv, int64_t n) {
  const std::vector<std::string> keys = RowKeysOf(csv);
  MDB_env* env;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, 64ull << 30);
  if (mdb_env_open(env, dir.c_str(), MDB_RDONLY, 0600) != 0) return 1;
  std::mt19937_64 rng(44);
  std::vector<std::vector<std::string>> batches;
  for (int64_t drawn = 0; drawn < n; drawn += 1000) {
    batches.emplace_back();
    for (int64_t k = 0; k < 1000 && drawn + k < n; ++k)
      batches.back().push_back(lbt::RowPrefix(1, keys[rng() % keys.size()]));
    std::sort(batches.back().begin(), batches.back().end());
  }
  int64_t cells = 0;
  auto start = Clock::now();
  for (const std::vector<std::string>& batch : batches) {
    MDB_txn* txn;
    MDB_dbi dbi;
    MDB_cursor* cursor;
    mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn);
    mdb_dbi_open(txn, nullptr, 0, &dbi);
    mdb_cursor_open(txn, dbi, &cursor);
    for (const std::string& prefix : batch) {
      MDB_val k{prefix.size(), const_cast<char*>(prefix.data())}, v;
      for (int rc = mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE);
           rc == 0 && k.mv_size >= prefix.size() && std::memcmp(k.mv_data, prefix.data(), prefix.size()) == 0;
           rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
        ++cells;
      }
    }
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
  }
  const double seconds = Seconds(start);
  mdb_env_close(env);
  printf("raw_lookup_per_second %.0f ops/s\nraw_lookup_cells %lld cells\n", n / seconds, static_cast<long long>(cells));
  return cells > 0 ? 0 : 1;
}

std::unique_ptr<lbt::Database> OpenOrDie(const std::string& dir) {
  lbt::DatabaseOptions options;
  options.create_if_missing = false;
  auto db = lbt::Database::Open(dir, options);
  if (!db.ok()) {
    fprintf(stderr, "%s\n", db.status().ToString().c_str());
    exit(1);
  }
  return std::move(db).value();
}

void PrintLatencies(const char* name, std::vector<double>& micros, double seconds, int64_t cells) {
  std::sort(micros.begin(), micros.end());
  printf("%s_per_second %.0f ops/s\n%s_cells_per_second %.0f cells/s\n%s_p50 %.1f us\n%s_p99 %.1f us\n", name,
         micros.size() / seconds, name, cells / seconds, name, micros[micros.size() / 2], name,
         micros[micros.size() * 99 / 100]);
}

// Keys batched per LookupRows call, as a script's run of lookup lines is.
constexpr size_t kLookupBatch = 1000;

int Lookups(const std::string& dir, const std::string& table, const std::string& csv, int64_t n) {
  const std::vector<std::string> keys = RowKeysOf(csv);
  auto db = OpenOrDie(dir);
  std::mt19937_64 rng(42);
  std::vector<double> micros;
  micros.reserve(n);
  int64_t cells = 0;
  auto start = Clock::now();
  for (int64_t i = 0; i < n; ++i) {
    auto t0 = Clock::now();
    auto row = db->ReadRow(table, keys[rng() % keys.size()]);
    if (!row.ok() || !row->has_value()) return 1;
    cells += static_cast<int64_t>((*row)->cells.size());
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  PrintLatencies("engine_lookup", micros, Seconds(start), cells);
  // The same number of random keys through the batched API, the batches
  // drawn before the clock starts; a batch's latency is shared by its keys.
  std::vector<std::vector<std::string>> batches;
  for (int64_t drawn = 0; drawn < n; drawn += static_cast<int64_t>(batches.back().size())) {
    batches.emplace_back();
    for (size_t k = 0; k < kLookupBatch && drawn + static_cast<int64_t>(k) < n; ++k) {
      batches.back().push_back(keys[rng() % keys.size()]);
    }
  }
  std::vector<double> per_key;
  cells = 0;
  start = Clock::now();
  for (const std::vector<std::string>& batch : batches) {
    auto t0 = Clock::now();
    auto rows = db->LookupRows(table, batch);
    if (!rows.ok()) return 1;
    for (const auto& row : *rows) {
      if (!row) return 1;
      cells += static_cast<int64_t>(row->cells.size());
    }
    const double each = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / batch.size();
    per_key.insert(per_key.end(), batch.size(), each);
  }
  PrintLatencies("engine_batch_lookup", per_key, Seconds(start), cells);
  return 0;
}

int Prefixes(const std::string& dir, const std::string& table, int64_t n) {
  auto db = OpenOrDie(dir);
  std::mt19937_64 rng(43);
  std::vector<double> micros;
  int64_t cells = 0;
  auto start = Clock::now();
  char prefix[32];
  for (int64_t i = 0; i < n; ++i) {
    snprintf(prefix, sizeof prefix, "host%04d#", static_cast<int>(rng() % 1000));
    auto t0 = Clock::now();
    lbt::ReadOptions options;
    options.rows.row_ranges = {lbt::RowRange::Prefix(prefix)};
    auto reader = db->NewReader(table, options);
    if (!reader.ok()) return 1;
    for (lbt::Row row; (*reader)->Next(&row);) cells += static_cast<int64_t>(row.cells.size());
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  PrintLatencies("engine_prefix_read", micros, Seconds(start), cells);
  return 0;
}

// Each figure of `sql` is the best of this many runs: the machine's noise
// only ever adds time.
constexpr int kSqlRuns = 3;

// Runs one query to its end; returns its seconds and, in *stats, what it read.
double TimeQueryOnce(lbt::Bigtable* bigtable, const std::string& text, lbt::sql::QueryStats* stats) {
  auto start = Clock::now();
  auto query = lbt::sql::Prepare(bigtable, text, {});
  if (!query.ok()) {
    fprintf(stderr, "%s: %s\n", text.c_str(), query.status().ToString().c_str());
    exit(1);
  }
  auto rows = (*query)->Execute({});
  if (!rows.ok()) exit(1);
  for (lbt::sql::Values row; (*rows)->Next(&row);) {
  }
  if (!(*rows)->status().ok()) {
    fprintf(stderr, "%s: %s\n", text.c_str(), (*rows)->status().ToString().c_str());
    exit(1);
  }
  *stats = (*rows)->stats();
  return Seconds(start);
}

double TimeQuery(lbt::Bigtable* bigtable, const std::string& text, lbt::sql::QueryStats* stats) {
  double best = TimeQueryOnce(bigtable, text, stats);
  for (int i = 1; i < kSqlRuns; ++i) best = std::min(best, TimeQueryOnce(bigtable, text, stats));
  return best;
}

// This process's resident memory in KiB: now (VmRSS) or its peak since the
// last ResetPeakMemory (VmHWM).
int64_t MemoryKiB(const char* field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(field, 0) == 0) return std::stoll(line.substr(std::strlen(field)));
  }
  return 0;
}
void ResetPeakMemory() { std::ofstream("/proc/self/clear_refs") << "5"; }

// A query's best time and the memory its first run took above what the
// process held before it (MiB).
double TimeQueryWithMemory(lbt::Bigtable* bigtable, const std::string& text, lbt::sql::QueryStats* stats,
                           double* peak_mib) {
  malloc_trim(0);  // what earlier queries freed goes back, so it is not reused unseen
  const int64_t before = MemoryKiB("VmRSS:");
  ResetPeakMemory();
  double best = TimeQueryOnce(bigtable, text, stats);
  *peak_mib = static_cast<double>(std::max<int64_t>(0, MemoryKiB("VmHWM:") - before)) / 1024;
  for (int i = 1; i < kSqlRuns; ++i) best = std::min(best, TimeQueryOnce(bigtable, text, stats));
  return best;
}

// Reads every cell of `table` through the engine; returns its seconds.
double TimeEngineScan(lbt::Database* db, const std::string& table, int64_t* rows, int64_t* cells,
                      int64_t* prefix_rows) {
  *rows = *cells = *prefix_rows = 0;
  auto start = Clock::now();
  auto reader = db->NewReader(table, lbt::ReadOptions());
  if (!reader.ok()) exit(1);
  for (lbt::Row row; (*reader)->Next(&row);) {
    *cells += static_cast<int64_t>(row.cells.size());
    ++*rows;
    if (row.key.rfind("host0042#", 0) == 0) ++*prefix_rows;
  }
  return Seconds(start);
}

// The baseline is the engine reading every cell of the table in the same
// run: what any query that needs every cell cannot beat.
int Sql(const std::string& dir, const std::string& table) {
  auto db = OpenOrDie(dir);
  int64_t cells = 0, rows = 0, prefix_rows = 0;
  double scan = TimeEngineScan(db.get(), table, &rows, &cells, &prefix_rows);
  for (int i = 1; i < kSqlRuns; ++i)
    scan = std::min(scan, TimeEngineScan(db.get(), table, &rows, &cells, &prefix_rows));
  lbt::LocalBigtable bigtable(std::move(db), lbt::DatabaseOptions{});
  lbt::sql::QueryStats count_stats, sum_stats, prefix_stats;
  const double count = TimeQuery(&bigtable, "SELECT COUNT(*) FROM " + table, &count_stats);
  const double sum = TimeQuery(
      &bigtable, "SELECT SUM(CAST(CAST(stats['cpu'] AS STRING) AS FLOAT64)), COUNT(*) FROM " + table, &sum_stats);
  const double prefix =
      TimeQuery(&bigtable, "SELECT COUNT(*) FROM " + table + " WHERE STARTS_WITH(_key, 'host0042#')", &prefix_stats);
  printf("table_rows %lld rows\ntable_cells %lld cells\n", static_cast<long long>(rows), static_cast<long long>(cells));
  printf("engine_scan_cells_per_second %.0f cells/s\n", cells / scan);
  printf("sql_count_seconds %.3f s\nsql_count_cells_per_second %.0f cells/s\n", count, cells / count);
  printf("sql_sum_seconds %.3f s\nsql_sum_cells_per_second %.0f cells/s\n", sum, cells / sum);
  printf("sql_prefix_seconds %.4f s\nsql_prefix_rows_examined %lld rows\nsql_prefix_rows_in_range %lld rows\n", prefix,
         static_cast<long long>(prefix_stats.rows_examined), static_cast<long long>(prefix_rows));
  // A window over every row and COUNT(DISTINCT), each against the plain
  // query that reads the same cells, with the memory each takes.
  const std::string cpu = "CAST(CAST(stats['cpu'] AS STRING) AS FLOAT64)";
  lbt::sql::QueryStats plain_stats, window_stats, counted_stats, distinct_stats, distinct_keys_stats;
  double plain_mib, window_mib, counted_mib, distinct_mib, distinct_keys_mib;
  const double plain =
      TimeQueryWithMemory(&bigtable, "SELECT _key, " + cpu + " FROM " + table, &plain_stats, &plain_mib);
  const double window = TimeQueryWithMemory(
      &bigtable,
      "SELECT _key, SUM(" + cpu +
          ") OVER (PARTITION BY SUBSTR(_key, 1, 8) ORDER BY _key ROWS UNBOUNDED PRECEDING) FROM " + table,
      &window_stats, &window_mib);
  const double counted =
      TimeQueryWithMemory(&bigtable, "SELECT COUNT(stats['cpu']) FROM " + table, &counted_stats, &counted_mib);
  const double distinct = TimeQueryWithMemory(&bigtable, "SELECT COUNT(DISTINCT stats['cpu']) FROM " + table,
                                              &distinct_stats, &distinct_mib);
  const double distinct_keys = TimeQueryWithMemory(&bigtable, "SELECT COUNT(DISTINCT _key) FROM " + table,
                                                   &distinct_keys_stats, &distinct_keys_mib);
  printf("sql_plain_seconds %.3f s\nsql_plain_mib %.0f MiB\n", plain, plain_mib);
  printf("sql_window_seconds %.3f s\nsql_window_mib %.0f MiB\n", window, window_mib);
  printf("sql_counted_seconds %.3f s\nsql_counted_mib %.0f MiB\n", counted, counted_mib);
  printf("sql_distinct_seconds %.3f s\nsql_distinct_mib %.0f MiB\n", distinct, distinct_mib);
  printf("sql_distinct_keys_seconds %.3f s\nsql_distinct_keys_mib %.0f MiB\n", distinct_keys, distinct_keys_mib);
  if (window_stats.rows_returned != rows || distinct_keys_stats.rows_returned != 1) return 1;
  return count_stats.rows_returned == 1 && sum_stats.rows_examined == rows ? 0 : 1;
}

// The physical limit of one writer that waits for its own sync: appends of
// 4 KiB, each followed by fdatasync, to a file in `dir` (the database's
// disk), for `seconds`. A durable commit can go no faster than this.
int SyncFloor(const std::string& dir, double seconds) {
  const std::string path = dir + "/sync-floor.tmp";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return 1;
  }
  const std::string block(4096, 'x');
  int64_t syncs = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size()) || ::fdatasync(fd) != 0) {
      std::perror(path.c_str());
      ::close(fd);
      return 1;
    }
    ++syncs;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  ::close(fd);
  std::filesystem::remove(path);
  printf("sync_floor_per_second %.0f syncs/s\nsync_floor_us %.0f us\n", syncs / elapsed, elapsed * 1e6 / syncs);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() == 3 && a[0] == "gen") return Gen(std::stoll(a[1]), a[2]);
  if (a.size() == 3 && a[0] == "gen-timeorder") return GenFleet(std::stoll(a[1]), a[2], /*sorted=*/false);
  if (a.size() == 3 && a[0] == "gen-sorted") return GenFleet(std::stoll(a[1]), a[2], /*sorted=*/true);
  if (a.size() == 3 && a[0] == "raw-load") return RawLoad(a[1], a[2]);
  if (a.size() == 2 && a[0] == "raw-scan") return RawScan(a[1]);
  if (a.size() == 4 && a[0] == "raw-lookups") return RawLookups(a[1], a[2], std::stoll(a[3]));
  if (a.size() == 5 && a[0] == "lookups") return Lookups(a[1], a[2], a[3], std::stoll(a[4]));
  if (a.size() == 4 && a[0] == "prefixes") return Prefixes(a[1], a[2], std::stoll(a[3]));
  if (a.size() == 3 && a[0] == "sql") return Sql(a[1], a[2]);
  if (a.size() == 3 && a[0] == "sync-floor") return SyncFloor(a[1], std::stod(a[2]));
  fprintf(stderr, "usage: see the comment at the top of bench/lbt_bench.cc\n");
  return 2;
}
