// Database: writes. The write transaction outside the log (Update), group
// commit (write_group.h) of row writes, the row write operations, row range
// drops and bulk loads.

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "api/limits.h"
#include "filter/row_filter.h"
#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/mem_table.h"
#include "storage/load/bulk_loader.h"
#include "storage/rows/row_writer.h"
#include "util/bytes.h"

namespace lbt {

Result<size_t> DeleteKeys(Txn* txn, const OrderedStore& store, std::string_view from, std::string_view to,
                          size_t limit) {
  std::vector<std::string> doomed;
  {
    LBT_ASSIGN_OR_RETURN(auto it, store.NewIterator(txn));
    for (it->Seek(from); it->Valid() && (to.empty() || it->key() < to) && doomed.size() < limit; it->Next()) {
      doomed.emplace_back(it->key());
    }
    LBT_RETURN_IF_ERROR(it->status());
  }
  for (const std::string& key : doomed) LBT_RETURN_IF_ERROR(store.Delete(txn, key).status());
  return doomed.size();
}

// ---- transactions ----

Status Database::Update(const std::function<Status(Txn*)>& fn, std::string_view fold_skipping) {
  std::lock_guard<std::mutex> lock(write_mu_);
  LBT_RETURN_IF_ERROR(CheckFilesPresent());
  InFlight in_flight(this);
  // A write outside the log (a schema change, a drop, a collection pass, a
  // bulk load) sees and changes LMDB alone: every memtable is folded first,
  // in bounded transactions, and the sequence folded is recorded with `fn`,
  // so that a crash before `fn` commits replays the log, skipped keys
  // included.
  std::unique_lock<std::mutex> fold_lock(fold_mu_, std::defer_lock);
  std::shared_ptr<const MemLayers> layers;
  if (log_ != nullptr) {
    fold_lock.lock();
    {
      std::lock_guard<std::mutex> layers_lock(layers_mu_);
      layers = layers_;
    }
    LBT_RETURN_IF_ERROR(FoldLayersBefore(*layers, fold_skipping));
  }
  for (int attempt = 0;; ++attempt) {
    LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/true));
    Status s = stores_->catalog.Refresh(txn.get());
    if (s.ok() && layers != nullptr) s = RecordFolded(txn.get());
    if (s.ok()) s = fn(txn.get());
    if (s.ok()) s = txn->Commit();
    const bool map_full = txn->map_full();
    txn.reset();  // aborts unless committed
    if (s.ok()) {
      if (layers != nullptr) ForgetFolded();
      return s;
    }
    stores_->catalog.Invalidate();
    // A full map is not the user's problem: grow it and run the write again.
    if (!map_full || attempt >= 40) return ExplainWriteFailure(s);
    LBT_RETURN_IF_ERROR(env_->GrowMap());
  }
}

Status Database::CheckFilesPresent() const {
  mdb_filehandle_t fd;
  struct stat st;
  if (mdb_env_get_fd(env_->raw(), &fd) != MDB_SUCCESS || ::fstat(fd, &st) != 0 || st.st_nlink > 0) {
    return Status::OK();
  }
  // Writes would still succeed, into a file that no longer has a name and
  // vanishes when the last process closes it.
  return Status::FailedPrecondition(
      fmt::format("the database's files in {} were deleted while it was open; writes are refused so that none is "
                  "acknowledged and then lost (restart lbt to create a new database there)",
                  dir_));
}

Status Database::ExplainWriteFailure(const Status& s) const {
  // LMDB reports a short write as an I/O error; a full disk is the common
  // cause, and the one the user can act on.
  if (s.code() != Status::Code::kIOError) return s;
  struct statvfs fs;
  if (::statvfs(dir_.c_str(), &fs) != 0) return s;
  const uint64_t free_bytes = static_cast<uint64_t>(::geteuid() == 0 ? fs.f_bfree : fs.f_bavail) * fs.f_frsize;
  if (free_bytes >= (4u << 20)) return s;
  return Status::ResourceExhausted(fmt::format(
      "no space left on the device that holds {} ({} KiB free); the write was rolled back", dir_, free_bytes >> 10));
}

Status Database::SettleFreedPages() {
  // LMDB reuses the pages a transaction freed only from the second commit
  // after it (the one before must stay whole for crash recovery). A commit
  // that rewrites one value as it is makes them reusable by the next
  // write, which on a full disk is the difference between a write that
  // fits in the space just freed and one that fails.
  return Update([&](Txn* txn) -> Status {
    std::string_view version;
    LBT_ASSIGN_OR_RETURN(bool found, txn->Get(stores_->meta, kMetaFormatVersion, &version));
    if (!found) return Status::OK();
    const std::string same(version);
    return txn->Put(stores_->meta, kMetaFormatVersion, same);
  });
}

Status Database::UpdateGrouped(const WriteStep& step) {
  PendingWrite mine{&step};
  return write_queue_->Run(&mine);
}

void Database::CommitGroup(const std::vector<PendingWrite*>& group) {
  auto left_out = [](const PendingWrite* w) { return w->left_out; };
  while (!std::all_of(group.begin(), group.end(), left_out)) {
    PendingWrite* failed = nullptr;
    bool redo = false;
    Status s = Update([&](Txn* txn) -> Status {
      failed = nullptr;
      redo = false;
      for (PendingWrite* w : group) {
        if (w->left_out) continue;
        WriteScope scope{txn,
                         StoreView(txn, &stores_->cells, StoreTag::kCells),
                         StoreView(txn, &stores_->rows, StoreTag::kRows),
                         StoreView(txn, &stores_->changes, StoreTag::kChanges),
                         nullptr,
                         stores_->lazy_gc};
        Status step = (*w->step)(scope, &redo);
        if (step.ok()) continue;
        // A full map is Update's to handle; anything else is the step's.
        if (!txn->map_full() && !redo) {
          w->status = step;
          failed = w;
        }
        return step;
      }
      return Status::OK();
    });
    if (failed != nullptr) {
      failed->left_out = true;  // run the group again without it
    } else if (!redo || s.ok()) {
      for (PendingWrite* w : group) {
        if (!w->left_out) w->status = s;
      }
      return;
    }
  }
}

// ---- writes ----

Status Database::ApplyRowMutations(WriteScope& scope, std::string_view table, std::string_view row_key,
                                   const std::vector<Mutation>& mutations) {
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
  LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec, row_key, mutations));
  return scope.Writer(spec, NowMicros()).Apply(row_key, mutations);
}

Status Database::MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) {
  return UpdateGrouped(
      [&](WriteScope& scope, bool*) -> Status { return ApplyRowMutations(scope, table, row_key, mutations); });
}

void Database::MutateRowAsync(std::string table, std::string row_key, std::vector<Mutation> mutations,
                              std::function<void(const Status&)> done) {
  // Without a sync to wait for, the write is as quick as queueing it.
  if (log_ != nullptr && !options_.sync) return done(MutateRow(table, row_key, mutations));
  auto write = std::make_unique<PendingWrite>();
  write->own_step = [this, table = std::move(table), row_key = std::move(row_key), mutations = std::move(mutations)](
                        WriteScope& scope, bool*) -> Status {
    return ApplyRowMutations(scope, table, row_key, mutations);
  };
  write->step = &write->own_step;
  write->on_done = std::move(done);
  write_queue_->Submit(std::move(write));
}

Result<std::vector<Status>> Database::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  std::vector<Status> statuses(rows.size());
  std::vector<bool> failed(rows.size(), false);
  if (std::any_of(rows.begin(), rows.end(), [](const RowMutation& r) { return !r.idempotency.token.empty(); })) {
    LBT_RETURN_IF_ERROR(EnsureIdempotencyTable());
  }
  // A row that fails while being applied (over the row size limit, say)
  // may have written part of itself: it is marked, and the transaction is
  // redone without it. Each redo drops a row, and rows rarely fail after
  // validation, which writes nothing.
  LBT_RETURN_IF_ERROR(UpdateGrouped([&](WriteScope& scope, bool* redo) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
    const int64_t now = NowMicros();
    RowWriter writer = scope.Writer(spec, now);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (failed[i]) continue;
      statuses[i] = ValidateRowMutations(*spec, rows[i].row_key, rows[i].mutations);
      if (!statuses[i].ok()) continue;
      // A logged write takes back a failed row's changes at once.
      if (scope.batch != nullptr) scope.batch->SetSavepoint();
      statuses[i] = ApplyOnce(scope, writer, table, rows[i], now);
      if (!statuses[i].ok() && scope.batch != nullptr) {
        scope.batch->RollBack();
        continue;
      }
      if (!statuses[i].ok()) {
        if (!scope.txn->map_full()) {
          failed[i] = true;
          *redo = true;
        }
        return statuses[i];
      }
    }
    return Status::OK();
  }));
  return statuses;
}

namespace {

// Applies one append or increment rule to a column's value.
Status ApplyRule(const ReadModifyWriteRule& rule, std::string* value) {
  if (rule.kind == ReadModifyWriteRule::Kind::kAppend) {
    if (value->size() + rule.append_value.size() > kMaxValueBytes) {
      return Status::OutOfRange(
          fmt::format("appending to {}:{} would make its value {} bytes; Bigtable's limit is {} bytes (100 MiB)",
                      rule.family, rule.qualifier, value->size() + rule.append_value.size(), kMaxValueBytes));
    }
    // Doubling growth keeps many appends to one value linear.
    if (value->capacity() < value->size() + rule.append_value.size()) {
      value->reserve(std::max(value->capacity() * 2, value->size() + rule.append_value.size()));
    }
    value->append(rule.append_value);
    return Status::OK();
  }
  int64_t n = 0;
  if (!value->empty() && !DecodeInt64(*value, &n)) {
    return Status::FailedPrecondition(
        fmt::format("cannot increment {}:{}: its value is {} bytes, not an 8-byte big-endian integer", rule.family,
                    rule.qualifier, value->size()));
  }
  *value = EncodeInt64(static_cast<int64_t>(static_cast<uint64_t>(n) + static_cast<uint64_t>(rule.increment)));
  return Status::OK();
}

}  // namespace

// Rules that name one column compound, in order, on one value kept in
// memory: the column's latest cell is read once and its new cell written
// once, so a request's cost grows with its rules and the bytes they add,
// never with their product.
Result<Row> Database::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                         const std::vector<ReadModifyWriteRule>& rules) {
  Row result;
  LBT_RETURN_IF_ERROR(UpdateGrouped([&](WriteScope& scope, bool*) -> Status {
    result = Row{std::string(row_key), {}};
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
    const int64_t now = NowMicros();
    std::map<std::pair<std::string_view, std::string_view>, size_t> column_index;
    for (const ReadModifyWriteRule& rule : rules) {
      LBT_ASSIGN_OR_RETURN(const FamilySpec* family, spec->RequireFamily(rule.family));
      if (IsAggregate(family->value_type)) {
        return Status::InvalidArgument(fmt::format(
            "column family '{}' is an aggregate; append and increment need a family of plain bytes", rule.family));
      }
      auto [it, added] = column_index.try_emplace({rule.family, rule.qualifier}, result.cells.size());
      if (added) {
        ReadOptions latest;
        latest.columns = {ColumnSelector{rule.family, rule.qualifier}};
        latest.cells_per_column_limit = 1;
        LBT_ASSIGN_OR_RETURN(
            std::optional<Row> current,
            ReadRowIn(scope.cells, scope.lazy_gc, stores_->catalog.Share(table), row_key, latest, now));
        Cell cell{rule.family, rule.qualifier, now, {}, {}};
        if (current) {
          cell.timestamp = std::max(now, current->cells[0].timestamp);
          cell.value = std::move(current->cells[0].value);
        }
        result.cells.push_back(std::move(cell));
      }
      LBT_RETURN_IF_ERROR(ApplyRule(rule, &result.cells[it->second].value));
    }
    // The changed cells, in storage order: families by creation, then
    // qualifiers.
    std::sort(result.cells.begin(), result.cells.end(), [&](const Cell& a, const Cell& b) {
      const FamilyId fa = spec->FindFamily(a.family)->id, fb = spec->FindFamily(b.family)->id;
      return std::tie(fa, a.qualifier) < std::tie(fb, b.qualifier);
    });
    std::vector<Mutation> set;
    set.reserve(result.cells.size());
    for (const Cell& cell : result.cells) {
      set.push_back(Mutation::SetCell(cell.family, cell.qualifier, cell.value, cell.timestamp));
    }
    LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec, row_key, set));
    return scope.Writer(spec, now).Apply(row_key, set);
  }));
  return result;
}

Result<bool> Database::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                         const std::optional<Filter>& predicate_filter,
                                         const std::vector<Mutation>& true_mutations,
                                         const std::vector<Mutation>& false_mutations) {
  std::unique_ptr<RowFilter> compiled;
  if (predicate_filter) {
    LBT_ASSIGN_OR_RETURN(compiled, CompileFilter(*predicate_filter, "predicate_filter"));
  }
  const RowFilter* predicate = compiled.get();
  bool matched = false;
  LBT_RETURN_IF_ERROR(UpdateGrouped([&](WriteScope& scope, bool*) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
    LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec, row_key, true_mutations));
    LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec, row_key, false_mutations));
    const int64_t now = NowMicros();
    ReadOptions check;
    check.filter = predicate;
    LBT_ASSIGN_OR_RETURN(std::optional<Row> row,
                         ReadRowIn(scope.cells, scope.lazy_gc, stores_->catalog.Share(table), row_key, check, now));
    matched = row.has_value();
    return scope.Writer(spec, now).Apply(row_key, matched ? true_mutations : false_mutations);
  }));
  return matched;
}

Status Database::DropRowRange(std::string_view table, std::string_view prefix) {
  // The logged writes under the prefix are dropped by not folding them,
  // which on a full disk is what lets the drop free space at all.
  std::string key_prefix;
  {
    LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
    key_prefix = RowKeyPrefix(spec.id, prefix);
  }
  LBT_RETURN_IF_ERROR(Update(
      [&](Txn* txn) -> Status {
        LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
        if (RowKeyPrefix(spec->id, prefix) != key_prefix) return Status::Aborted("the table was replaced meanwhile");
        if (spec->change_stream) LBT_RETURN_IF_ERROR(RecordDroppedRows(txn, *spec, key_prefix));
        for (const OrderedStore* store : {&stores_->cells, &stores_->rows}) {
          size_t deleted;
          do {
            LBT_ASSIGN_OR_RETURN(deleted,
                                 DeleteKeys(txn, *store, key_prefix, PrefixSuccessor(key_prefix), kDropChunkKeys));
          } while (deleted > 0);
        }
        return Status::OK();
      },
      key_prefix));
  return SettleFreedPages();
}

// ---- bulk loads ----

class Database::LoadTarget final : public BulkLoadTarget {
 public:
  explicit LoadTarget(Database* db) : db_(db) {}
  Status Update(const std::function<Status(Txn*)>& fn) override { return db_->Update(fn); }
  const Stores* stores() const override { return db_->stores_.get(); }
  Result<const TableSpec*> RequireEnabled(std::string_view table) override { return db_->RequireEnabled(table); }
  int64_t NowMicros() const override { return db_->NowMicros(); }

 private:
  Database* db_;
};

Result<std::unique_ptr<BulkLoad>> Database::NewBulkLoad(std::string_view table, const BulkLoadOptions& options) {
  if (options_.read_only) return Status::FailedPrecondition("the database is open read-only");
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(txn.get(), table, true));
  std::string temp_dir = options.temp_dir.empty() ? dir_ : options.temp_dir;
  return std::unique_ptr<BulkLoad>(
      new BulkLoader(std::make_unique<LoadTarget>(this), *spec, options, std::move(temp_dir), NowMicros()));
}

}  // namespace lbt
