// Database: garbage collection passes, one table's and every table's, and
// the background passes of DatabaseOptions::gc_interval.

#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/rows/row_writer.h"

namespace lbt {

Result<GcStats> Database::CollectAllGarbage() {
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> tables, ListTables());
  GcStats total;
  for (const std::string& table : tables) {
    Result<GcStats> stats = CollectGarbage(table);
    if (stats.status().IsNotFound()) continue;  // dropped meanwhile
    LBT_RETURN_IF_ERROR(stats.status());
    total.cells_examined += stats->cells_examined;
    total.cells_deleted += stats->cells_deleted;
  }
  return total;
}

void Database::RunGcPasses() {
  std::unique_lock<std::mutex> lock(gc_mu_);
  while (!gc_cv_.wait_for(lock, options_.gc_interval, [this] { return gc_stopping_; })) {
    // A failed pass (a disabled table, a full disk) changes nothing; the
    // next one tries again.
    (void)CollectAllGarbage();
  }
}

Result<GcStats> Database::CollectGarbage(std::string_view table, const std::function<Status(int64_t cells)>& progress) {
  GcStats stats;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    stats = GcStats{};
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
    RowWriter writer(txn, stores_.get(), spec, NowMicros());
    return writer.CollectTable(&stats.cells_examined, &stats.cells_deleted, progress);
  }));
  return stats;
}

}  // namespace lbt
