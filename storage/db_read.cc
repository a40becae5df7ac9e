// Database: reads. Streaming readers and ReadRows, point lookups on spare
// read transactions, row counts and key samples, all on snapshots.

#include <fmt/format.h>

#include <algorithm>

#include "filter/row_filter.h"
#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/rows/row_cursor.h"
#include "storage/rows/row_reader.h"
#include "util/bytes.h"

namespace lbt {

namespace {

// True if the rule can collect the newest cell of a column, and so hide a
// row that still has cells on disk.
bool CanHideNewest(const GcRule& rule) {
  switch (rule.kind) {
    case GcRule::Kind::kNever:
    case GcRule::Kind::kMaxVersions: return false;
    case GcRule::Kind::kMaxAge: return true;
    case GcRule::Kind::kIntersection:
      for (const GcRule& r : rule.rules) {
        if (!CanHideNewest(r)) return false;
      }
      return !rule.rules.empty();
    case GcRule::Kind::kUnion:
      for (const GcRule& r : rule.rules) {
        if (CanHideNewest(r)) return true;
      }
      return false;
  }
  return true;
}

}  // namespace

// HBase's disable: a disabled table refuses reads and writes of its data.
Status RequireEnabledSpec(const TableSpec& spec) {
  if (spec.enabled) return Status::OK();
  return Status::FailedPrecondition(fmt::format("table '{}' is disabled; enable it first", TableIdOf(spec.name)));
}

// Reads one row's visible cells inside a transaction.
Result<std::optional<Row>> ReadRowIn(const StoreView& cells, bool lazy_gc, std::shared_ptr<const TableSpec> spec,
                                     std::string_view row_key, ReadOptions options, int64_t now) {
  options.rows = RowSet{{std::string(row_key)}, {}};
  options.reversed = false;
  LBT_ASSIGN_OR_RETURN(auto cursor, RowCursor::Open(cells, lazy_gc, std::move(spec), std::move(options), now));
  Row row;
  LBT_ASSIGN_OR_RETURN(bool found, cursor->Next(&row));
  if (!found) return std::optional<Row>();
  return std::optional<Row>(std::move(row));
}

Result<std::shared_ptr<const TableSpec>> Database::ReadSpec(Txn* txn, std::string_view table, bool require_enabled) {
  std::lock_guard<std::mutex> lock(read_mu_);
  LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn));
  std::shared_ptr<const TableSpec> spec = read_catalog_->Share(table);
  if (spec == nullptr) return read_catalog_->Require(table).status();
  if (require_enabled) LBT_RETURN_IF_ERROR(RequireEnabledSpec(*spec));
  return spec;
}

// ---- reads ----

Result<std::unique_ptr<RowReader>> Database::NewReader(std::string_view table, const ReadOptions& options) {
  LBT_RETURN_IF_ERROR(options.rows.Validate());
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead());
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(view.txn.get(), table, true));
  for (const ColumnSelector& c : options.columns) {
    LBT_RETURN_IF_ERROR(spec->RequireFamily(c.family).status());
  }
  LBT_ASSIGN_OR_RETURN(auto cursor, RowCursor::Open(view.cells(stores_->cells), stores_->lazy_gc, std::move(spec),
                                                    options, NowMicros()));
  return std::unique_ptr<RowReader>(
      new RowReader([this] { return BeginRead(); }, stores_.get(), std::move(view), std::move(cursor), options));
}

namespace {

// A RowReader with the compiled filter it reads through.
class FilteredRowStream final : public RowStream {
 public:
  FilteredRowStream(std::unique_ptr<RowFilter> filter, std::unique_ptr<RowReader> reader)
      : filter_(std::move(filter)), reader_(std::move(reader)) {}

  bool Next(Row* row) override { return reader_->Next(row); }
  Status status() const override { return reader_->status(); }
  ReadStats stats() const override { return reader_->stats(); }
  void ReleaseSnapshot() override { reader_->ReleaseSnapshot(); }
  std::string LastScannedKey() const override { return reader_->skipped_tail_key(); }

 private:
  // Declared first so that it outlives the reader that points to it.
  std::unique_ptr<RowFilter> filter_;
  std::unique_ptr<RowReader> reader_;
};

// The engine's options for `request`, reading through `filter`.
ReadOptions OptionsFor(const ReadRequest& request, const RowFilter* filter) {
  ReadOptions options;
  options.rows = request.rows;
  options.reversed = request.reversed;
  options.rows_limit = request.rows_limit;
  options.cells_per_column_limit = request.cells_per_column_limit;
  options.columns = request.columns;
  options.filter = filter;
  options.within_view = request.within_view;
  options.max_snapshot_age = request.max_snapshot_age;
  options.interrupted = request.interrupted;
  return options;
}

Result<std::unique_ptr<RowFilter>> CompileIfSet(const std::optional<Filter>& filter) {
  if (!filter) return std::unique_ptr<RowFilter>();
  return CompileFilter(*filter);
}

// SampleRowKeys reports a key about every this many bytes of data, as
// lbt serve answers it.
constexpr uint64_t kSampleIntervalBytes = 4 << 20;

}  // namespace

Result<std::unique_ptr<RowStream>> Database::ReadRows(std::string_view table, const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowFilter> filter, CompileIfSet(request.filter));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowReader> reader, NewReader(table, OptionsFor(request, filter.get())));
  return std::unique_ptr<RowStream>(std::make_unique<FilteredRowStream>(std::move(filter), std::move(reader)));
}

Result<std::vector<std::optional<Row>>> Database::LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowFilter> filter, CompileIfSet(request.filter));
  return LookupRows(table, keys, OptionsFor(request, filter.get()));
}

Result<std::vector<KeySample>> Database::SampleRowKeys(std::string_view table, const RowRange& range) {
  return SampleRowKeys(table, kSampleIntervalBytes, range);
}

Result<std::unique_ptr<Txn>> Database::TakeSpareRead() {
  std::unique_ptr<Txn> txn;
  {
    std::lock_guard<std::mutex> lock(read_mu_);
    if (!spare_reads_.empty()) {
      txn = std::move(spare_reads_.back());
      spare_reads_.pop_back();
    }
  }
  if (txn != nullptr && txn->Renew().ok()) return txn;
  // None kept, or another process grew the map: begin afresh.
  txn.reset();
  return Txn::Begin(env_.get(), /*write=*/false);
}

void Database::ReturnSpareRead(std::unique_ptr<Txn> txn) {
  txn->Reset();
  std::lock_guard<std::mutex> lock(read_mu_);
  spare_reads_.push_back(std::move(txn));
}

Result<std::optional<Row>> Database::ReadRow(std::string_view table, std::string_view row_key,
                                             const ReadOptions& options) {
  // Point lookups reuse read transactions (reset between uses) instead of
  // beginning a new one each time.
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead(/*spare=*/true));
  Result<std::optional<Row>> result = [&]() -> Result<std::optional<Row>> {
    LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(view.txn.get(), table, true));
    for (const ColumnSelector& c : options.columns) {
      LBT_RETURN_IF_ERROR(spec->RequireFamily(c.family).status());
    }
    return ReadRowIn(view.cells(stores_->cells), stores_->lazy_gc, std::move(spec), row_key, options, NowMicros());
  }();
  EndRead(std::move(view));
  return result;
}

Result<std::vector<std::optional<Row>>> Database::LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadOptions& options) {
  // The request's positions in key order: the cursor visits each key once,
  // always forward.
  std::vector<size_t> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<std::optional<Row>> results(keys.size());
  if (keys.empty()) return results;
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead(/*spare=*/true));
  Status s = [&]() -> Status {
    LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(view.txn.get(), table, true));
    for (const ColumnSelector& c : options.columns) LBT_RETURN_IF_ERROR(spec->RequireFamily(c.family).status());
    ReadOptions read = options;
    read.rows = RowSet{};
    LBT_ASSIGN_OR_RETURN(auto cursor, RowCursor::Open(view.cells(stores_->cells), stores_->lazy_gc, std::move(spec),
                                                      std::move(read), NowMicros()));
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t i = order[k];
      if (k > 0 && keys[i] == keys[order[k - 1]]) {
        results[i] = results[order[k - 1]];  // a repeated key
        continue;
      }
      Row row;
      LBT_ASSIGN_OR_RETURN(bool found, cursor->ReadRowAt(keys[i], &row));
      if (found) results[i] = std::move(row);
    }
    return Status::OK();
  }();
  EndRead(std::move(view));
  LBT_RETURN_IF_ERROR(s);
  return results;
}

Result<std::vector<KeySample>> Database::SampleRowKeys(std::string_view table, uint64_t interval_bytes,
                                                       const RowRange& range) {
  LBT_RETURN_IF_ERROR((RowSet{{}, {range}}.Validate()));
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead());
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(view.txn.get(), table, true));
  const std::string prefix = TablePrefix(spec->id);
  const EncodedRange bounds = EncodeRowRange(spec->id, range);
  std::vector<KeySample> samples;
  uint64_t total = 0, last_sample = 0;
  LBT_ASSIGN_OR_RETURN(auto it, view.rows(stores_->rows).NewIterator());
  for (it->Seek(bounds.lower); it->Valid() && it->key() < bounds.upper; it->Next()) {
    if (total - last_sample >= interval_bytes) {
      std::string_view rest = it->key().substr(prefix.size());
      std::string row_key;
      if (!ConsumeEscaped(&rest, &row_key)) return Status::Corruption("a row index key does not decode");
      samples.push_back({std::move(row_key), static_cast<int64_t>(total)});
      last_sample = total;
    }
    total += DecodeBigEndian(it->value());
  }
  LBT_RETURN_IF_ERROR(it->status());
  samples.push_back({"", static_cast<int64_t>(total)});
  return samples;
}

Result<int64_t> Database::CountRows(std::string_view table, const RowRange& range) {
  LBT_RETURN_IF_ERROR((RowSet{{}, {range}}.Validate()));
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead());
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(view.txn.get(), table, true));
  bool rows_store_exact = true;
  for (const auto& [name, family] : spec->families) {
    if (CanHideNewest(family.gc_rule)) rows_store_exact = false;
  }
  int64_t count = 0;
  if (rows_store_exact) {
    // Every row with cells on disk has a visible cell: count size entries.
    EncodedRange bounds = EncodeRowRange(spec->id, range);
    LBT_ASSIGN_OR_RETURN(auto it, view.rows(stores_->rows).NewIterator());
    for (it->Seek(bounds.lower); it->Valid() && it->key() < bounds.upper; it->Next()) ++count;
    LBT_RETURN_IF_ERROR(it->status());
    return count;
  }
  ReadOptions options;
  options.rows.row_ranges = {range};
  LBT_ASSIGN_OR_RETURN(auto cursor, RowCursor::Open(view.cells(stores_->cells), stores_->lazy_gc, std::move(spec),
                                                    options, NowMicros()));
  Row row;
  while (true) {
    LBT_ASSIGN_OR_RETURN(bool found, cursor->Next(&row));
    if (!found) return count;
    ++count;
  }
}

}  // namespace lbt
