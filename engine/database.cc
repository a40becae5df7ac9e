#include "engine/database.h"
#include "util/bytes.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "api/limits.h"
#include "engine/bulk_loader.h"
#include "engine/database_internal.h"
#include "engine/instance_records.h"
#include "engine/key_codec.h"
#include "engine/lmdb_env.h"
#include "engine/row_cursor.h"
#include "engine/row_reader.h"
#include "engine/row_writer.h"
#include "engine/store_view.h"
#include "engine/stores.h"
#include "engine/upgrade.h"
#include "engine/write_log.h"
#include "filter/row_filter.h"
#include "util/background_thread.h"

namespace lbt {

namespace fs = std::filesystem;

namespace {

// How many keys one transaction of DropTable deletes, so that dropping a
// huge table never needs one huge transaction.
constexpr size_t kDropChunkKeys = 20000;

// Deletes up to `limit` keys that start with `prefix`; returns how many.

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

Status ValidateFamilies(const std::vector<FamilySpec>& families) {
  std::set<std::string_view> seen;
  for (const FamilySpec& f : families) {
    LBT_RETURN_IF_ERROR(ValidateFamilyName(f.name));
    LBT_RETURN_IF_ERROR(f.gc_rule.Validate());
    if (!seen.insert(f.name).second) {
      return Status::InvalidArgument(fmt::format("column family '{}' is listed twice", f.name));
    }
  }
  return Status::OK();
}

// HBase's disable: a disabled table refuses reads and writes of its data.
Status RequireEnabledSpec(const TableSpec& spec) {
  if (spec.enabled) return Status::OK();
  return Status::FailedPrecondition(fmt::format("table '{}' is disabled; enable it first", TableIdOf(spec.name)));
}

Status RequireUnprotected(const TableSpec& spec, std::string_view what) {
  if (!spec.deletion_protection) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("table '{}' has deletion protection on; turn it off before deleting {}", TableIdOf(spec.name), what));
}

// A table with a protected authorized view cannot be deleted, nor its
// instance (the AuthorizedView message's deletion_protection).
Status RequireNoProtectedViews(const TableSpec& spec) {
  for (const AuthorizedViewSpec& view : spec.authorized_views) {
    if (!view.deletion_protection) continue;
    return Status::FailedPrecondition(
        fmt::format("authorized view '{}' of table '{}' has deletion protection on; turn it off before deleting "
                    "the table or its instance",
                    view.id, TableIdOf(spec.name)));
  }
  return Status::OK();
}

}  // namespace

// ---- opening ----

Database::Database(std::string dir, DatabaseOptions options)
    : dir_(std::move(dir)),
      options_(std::move(options)),
      stores_(NewStores()),
      read_catalog_(std::make_unique<Catalog>()) {}

std::unique_ptr<Stores> Database::NewStores() const {
  auto stores = std::make_unique<Stores>();
  stores->lazy_gc = options_.gc == GcMode::kLazy;
  return stores;
}

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

Database::~Database() {
  CloseLog();
  if (gc_thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(gc_mu_);
      gc_stopping_ = true;
    }
    gc_cv_.notify_all();
    gc_thread_.join();
  }
  if (prune_thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(prune_mu_);
      prune_stopping_ = true;
    }
    prune_cv_.notify_all();
    prune_thread_.join();
  }
  spare_reads_.clear();
  stores_.reset();
  env_.reset();
  if (lock_fd_ >= 0) ::close(lock_fd_);
  if (log_lock_fd_ >= 0) ::close(log_lock_fd_);
}

bool Database::read_only() const { return options_.read_only; }

Result<std::unique_ptr<Database>> Database::Open(const std::string& dir, const DatabaseOptions& options) {
  std::error_code ec;
  const fs::path path(dir);
  const bool may_create = options.create_if_missing && !options.read_only;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec)) {
      return Status::FailedPrecondition(fmt::format("'{}' is not a directory; an lbt database is a directory", dir));
    }
  } else if (!may_create) {
    return Status::NotFound(fmt::format("there is no lbt database at '{}'", dir));
  } else if (!fs::create_directories(path, ec) && ec) {
    return Status::IOError(fmt::format("cannot create '{}': {}", dir, ec.message()));
  }
  if (!fs::exists(path / "data.mdb", ec)) {
    if (!may_create) return Status::NotFound(fmt::format("there is no lbt database at '{}'", dir));
    if (!fs::is_empty(path, ec)) {
      return Status::FailedPrecondition(
          fmt::format("'{}' is not an lbt database: it holds other files and no data.mdb", dir));
    }
  }

  std::unique_ptr<Database> db(new Database(dir, options));
  // Every handle holds the process lock shared; only Compact needs it alone.
  // A read-only directory has no lock file to take, and needs none.
  db->lock_fd_ = ::open((path / "lbt.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (db->lock_fd_ >= 0) ::flock(db->lock_fd_, LOCK_SH);
  LmdbOptions lmdb;
  lmdb.initial_map_bytes = options.initial_map_bytes;
  lmdb.read_only = options.read_only;
  // With a log, LMDB is written only by folds, which the log relies on.
  lmdb.sync = options.sync || options.log_writes;
  LBT_ASSIGN_OR_RETURN(db->env_, LmdbEnv::Open(dir, lmdb));
  LBT_RETURN_IF_ERROR(db->Initialize());
  if (db->stored_format_ < kCellFormatVersion) LBT_RETURN_IF_ERROR(db->Upgrade());
  if (!options.read_only) LBT_RETURN_IF_ERROR(db->OpenLog());
  // A table deletion a crash cut short: its cells are invisible but still
  // take space until this finishes them (nothing to do otherwise: one seek).
  if (!options.read_only) LBT_RETURN_IF_ERROR(db->FinishInterruptedDrops());
  if (options.read_only && db->stored_format_ == kLogFormatVersion) db->NoteUnreplayedLog();
  if (options.gc == GcMode::kLazy && options.gc_interval.count() > 0 && !options.read_only) {
    db->gc_thread_ = StartBackgroundThread([raw = db.get()] { raw->RunGcPasses(); });
  }
  if (!options.read_only) db->prune_thread_ = StartBackgroundThread([raw = db.get()] { raw->RunChangeLogPrunes(); });
  if (db->env_->without_lock() && options.note) {
    options.note(
        fmt::format("'{}' is not writable, so it is read without its lock file: a process writing to it "
                    "meanwhile is not coordinated with, and reads may then fail",
                    dir));
  }
  return db;
}

namespace {

// The database's format version. Refuses a newer one than this build's.
Result<int> StoredFormatVersion(Txn* txn, const Stores& stores, const std::string& dir) {
  std::string_view stored;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(stores.meta, kMetaFormatVersion, &stored));
  int version = 0;
  auto [end, ec] = std::from_chars(stored.data(), stored.data() + stored.size(), version);
  if (!found || ec != std::errc() || end != stored.data() + stored.size() || version < 1) {
    return Status::Corruption(fmt::format("'{}' has no valid lbt format version", dir));
  }
  if (version > kFormatVersion) {
    return Status::FailedPrecondition(
        fmt::format("the database in '{}' has format version {}, newer than this lbt supports ({}); "
                    "open it with a newer lbt",
                    dir, version, kFormatVersion));
  }
  return version;
}

}  // namespace

Status OpenStores(Txn* txn, bool create, Stores* stores) {
  LBT_ASSIGN_OR_RETURN(stores->meta, txn->OpenDbi(kMetaDb, create));
  LBT_ASSIGN_OR_RETURN(MDB_dbi catalog, txn->OpenDbi(kCatalogDb, create));
  LBT_ASSIGN_OR_RETURN(MDB_dbi cells, txn->OpenDbi(kCellsDb, create));
  LBT_ASSIGN_OR_RETURN(MDB_dbi rows, txn->OpenDbi(kRowsDb, create));
  LBT_ASSIGN_OR_RETURN(MDB_dbi overflow, txn->OpenDbi(kOverflowDb, create));
  stores->catalog = Catalog(catalog, stores->meta);
  stores->cells = OrderedStore(cells, overflow);
  stores->rows = OrderedStore(rows, overflow);
  Result<MDB_dbi> changes = txn->OpenDbi(kChangesDb, create);
  if (!changes.ok() && !changes.status().IsNotFound()) return changes.status();
  stores->has_changes = changes.ok();
  stores->changes = OrderedStore(changes.ok() ? *changes : MDB_dbi{0}, overflow);
  return Status::OK();
}

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

Status Database::Initialize() {
  // An existing database opens with a read transaction, so opening never
  // waits for another process's long write.
  {
    LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
    Status s = OpenStores(txn.get(), /*create=*/false, stores_.get());
    // A database made before the change log gets its store below.
    const bool lacks_changes = s.ok() && !stores_->has_changes && !options_.read_only;
    if (s.ok() && !lacks_changes) {
      LBT_ASSIGN_OR_RETURN(stored_format_, StoredFormatVersion(txn.get(), *stores_, dir_));
      *read_catalog_ = stores_->catalog;
      return txn->Commit();  // a read transaction must commit to keep its handles
    }
    if (!lacks_changes && !s.IsNotFound()) return s;
    MDB_dbi main_db;
    MDB_stat stat;
    if (!lacks_changes && mdb_dbi_open(txn->raw(), nullptr, 0, &main_db) == MDB_SUCCESS &&
        mdb_stat(txn->raw(), main_db, &stat) == MDB_SUCCESS && stat.ms_entries > 0) {
      return Status::FailedPrecondition(fmt::format("'{}' holds an LMDB database that lbt did not create", dir_));
    }
  }
  if (options_.read_only) {
    return Status::NotFound(fmt::format("there is no lbt database at '{}'", dir_));
  }
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/true));
  LBT_RETURN_IF_ERROR(OpenStores(txn.get(), /*create=*/true, stores_.get()));
  *read_catalog_ = stores_->catalog;
  std::string_view existing;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(stores_->meta, kMetaFormatVersion, &existing));
  if (found) {
    // Another process created the database meanwhile.
    LBT_ASSIGN_OR_RETURN(stored_format_, StoredFormatVersion(txn.get(), *stores_, dir_));
  } else {
    LBT_RETURN_IF_ERROR(txn->Put(stores_->meta, kMetaFormatVersion, std::to_string(kCellFormatVersion)));
    stored_format_ = kCellFormatVersion;
  }
  return txn->Commit();
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
  std::unique_lock<std::mutex> lock(queue_mu_);
  write_queue_.push_back(&mine);
  // The write at the front of the queue leads; the others sleep until it
  // has committed them, each on its own condition variable, so that a
  // group's end wakes only the writes it committed and the next leader.
  while (!mine.done && write_queue_.front() != &mine) mine.cv.wait(lock);
  if (mine.done) return mine.status;
  // Lead: commit everything queued so far, this write included, while
  // writes that arrive meanwhile queue up behind for the next group.
  std::vector<PendingWrite*> group(write_queue_.begin(), write_queue_.end());
  lock.unlock();
  if (log_ != nullptr) {
    CommitGroupLogged(group);
  } else {
    CommitGroup(group);
  }
  lock.lock();
  write_queue_.erase(write_queue_.begin(), write_queue_.begin() + static_cast<std::ptrdiff_t>(group.size()));
  for (PendingWrite* w : group) {
    if (w == &mine) continue;
    w->done = true;
    w->cv.notify_one();
  }
  if (!write_queue_.empty()) write_queue_.front()->cv.notify_one();
  return mine.status;
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

Result<std::shared_ptr<const TableSpec>> Database::ReadSpec(Txn* txn, std::string_view table, bool require_enabled) {
  std::lock_guard<std::mutex> lock(read_mu_);
  LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn));
  std::shared_ptr<const TableSpec> spec = read_catalog_->Share(table);
  if (spec == nullptr) return read_catalog_->Require(table).status();
  if (require_enabled) LBT_RETURN_IF_ERROR(RequireEnabledSpec(*spec));
  return spec;
}

namespace {

// How long an open waits for other processes to close a database that it
// must upgrade (another lbt may be upgrading it at that very moment).
constexpr auto kUpgradeLockWait = std::chrono::seconds(5);

// Takes `fd`'s lock alone, waiting up to kUpgradeLockWait.
bool LockAlone(int fd) {
  const auto give_up = std::chrono::steady_clock::now() + kUpgradeLockWait;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

Status Database::Upgrade() {
  if (options_.read_only) {
    return Status::FailedPrecondition(fmt::format(
        "the database in '{}' has format version {}; this lbt reads format {}, and upgrades a database when it "
        "opens it for writing: open it once without --read-only, as a user who can write to '{}'",
        dir_, stored_format_, kCellFormatVersion, dir_));
  }
  // Nothing may have the old file mapped while the new one replaces it,
  // and this handle's own shared lock would keep it from being alone.
  stores_ = NewStores();
  spare_reads_.clear();
  env_.reset();
  Status s;
  if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_UN);
  if (lock_fd_ < 0 || !LockAlone(lock_fd_)) {
    s = Status::FailedPrecondition(fmt::format(
        "the database in '{}' has format version {} and needs an upgrade to format {}, which needs it alone: "
        "another process has it open; close that process and open the database again",
        dir_, stored_format_, kCellFormatVersion));
  }
  if (s.ok()) {
    // Another process may have upgraded it while this one waited.
    s = Reopen();
    stores_ = NewStores();
    env_.reset();
  }
  if (s.ok() && stored_format_ < kCellFormatVersion) {
    UpgradeOptions upgrade;
    upgrade.note = options_.note;
    upgrade.progress = options_.progress;
    s = UpgradeDatabase(dir_, stored_format_, upgrade);
  }
  Status reopened = Reopen();
  if (s.ok()) s = reopened;
  if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_SH);
  return s;
}

Status Database::Reopen() {
  LmdbOptions lmdb;
  lmdb.initial_map_bytes = options_.initial_map_bytes;
  lmdb.sync = options_.sync;
  LBT_ASSIGN_OR_RETURN(env_, LmdbEnv::Open(dir_, lmdb));
  return Initialize();
}

Result<CompactStats> Database::Compact() {
  if (options_.read_only) return Status::FailedPrecondition("the database is open read-only");
  std::lock_guard<std::mutex> no_gc_pass(gc_mu_);  // a background pass would use the stores Compact replaces
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    return Status::FailedPrecondition("another process has the database open; close it before compacting");
  }
  CompactStats stats;
  const fs::path data = fs::path(dir_) / "data.mdb";
  const fs::path scratch = fs::path(dir_) / "compact.tmp";
  std::error_code ec;
  stats.bytes_before = fs::file_size(data, ec);
  fs::remove_all(scratch, ec);
  fs::create_directory(scratch, ec);
  Status s = LmdbStatus(mdb_env_copy2(env_->raw(), scratch.c_str(), MDB_CP_COMPACT), "compacting");
  if (s.ok()) {
    // Swap the compact copy in while nothing has the old file mapped.
    stores_ = NewStores();
    spare_reads_.clear();
    env_.reset();
    fs::permissions(scratch / "data.mdb", fs::status(data, ec).permissions(), ec);  // stay private
    fs::rename(scratch / "data.mdb", data, ec);
    if (ec) s = Status::IOError(fmt::format("cannot replace {}: {}", data.string(), ec.message()));
    Status reopened = Reopen();
    if (s.ok()) s = reopened;
  }
  fs::remove_all(scratch, ec);
  ::flock(lock_fd_, LOCK_SH);
  LBT_RETURN_IF_ERROR(s);
  stats.bytes_after = fs::file_size(data, ec);
  return stats;
}

std::string Database::Describe() const { return fmt::format("database '{}'", dir_); }

Status Database::WaitForReplication(std::string_view table) { return GetTable(table).status(); }

Status Database::Flush() {
  if (options_.sync || options_.read_only) return Status::OK();
  if (log_ != nullptr) {
    std::lock_guard<std::mutex> lock(write_mu_);
    return log_->Sync();
  }
  return LmdbStatus(mdb_env_sync(env_->raw(), 1), "flushing the database to disk");
}

int64_t Database::NowMicros() const {
  int64_t now =
      options_.clock
          ? options_.clock()
          : std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
  return now - now % kTimestampGranularityMicros;
}

// ---- schema ----

namespace {

// The family as the catalog keeps it.
FamilySpec Stored(FamilySpec family) {
  family.value_type = StoredValueType(family.value_type);
  return family;
}

}  // namespace

Status Database::CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                             const std::vector<std::string>&, bool deletion_protection) {
  // An instance's tables are catalogued as P/I/t, hidden ones deeper still.
  LBT_RETURN_IF_ERROR(ValidateTableName(TableIdOf(table)));
  LBT_RETURN_IF_ERROR(ValidateFamilies(families));
  return Update([&](Txn* txn) -> Status {
    if (stores_->catalog.Find(table) != nullptr) {
      return Status::AlreadyExists(fmt::format("table '{}' already exists", TableIdOf(table)));
    }
    TableSpec spec;
    spec.name = std::string(table);
    spec.deletion_protection = deletion_protection;
    LBT_ASSIGN_OR_RETURN(spec.id, stores_->catalog.AllocateTableId(txn));
    // Ids in the order the request lists the families.
    for (const FamilySpec& f : families) spec.AddFamily(Stored(f));
    // A new table and its views start without IAM policies, whatever an
    // older release left of a deleted one's.
    LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(table)));
    return stores_->catalog.Store(txn, spec);
  });
}

Status Database::DeleteTable(std::string_view table) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
    LBT_RETURN_IF_ERROR(RequireUnprotected(*spec, "it"));
    LBT_RETURN_IF_ERROR(RequireNoProtectedViews(*spec));
    return RemoveTable(txn, table, &dropped);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::RemoveTable(Txn* txn, std::string_view name, std::vector<TableId>* dropped) {
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(name));
  const TableId id = spec->id;
  LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, name));
  LBT_RETURN_IF_ERROR(stores_->catalog.PutRecord(txn, PendingDropKey(id), ""));
  LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(name)));
  dropped->push_back(id);
  return Status::OK();
}

Status Database::ForgetIamPolicies(Txn* txn, const std::string& key) {
  LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, key));
  LBT_ASSIGN_OR_RETURN(auto under, stores_->catalog.Records(txn, key + "/"));
  for (const auto& [record_key, value] : under) LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, record_key));
  return Status::OK();
}

Status Database::DeleteCellsOf(const std::vector<TableId>& ids) {
  // The tables are gone for every reader now; their cells go in bounded
  // transactions. Ids are never reused, so what a crash leaves stays
  // invisible, and its pending-drop record has the next writable open
  // finish the work.
  if (ids.empty()) return Status::OK();
  for (TableId id : ids) {
    const std::string prefix = TablePrefix(id);
    for (const OrderedStore* store : {&stores_->cells, &stores_->rows, &stores_->changes}) {
      if (store == &stores_->changes && !stores_->has_changes) continue;
      size_t deleted = 0;
      do {
        LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
          LBT_ASSIGN_OR_RETURN(deleted, DeleteKeys(txn, *store, prefix, PrefixSuccessor(prefix), kDropChunkKeys));
          return Status::OK();
        }));
      } while (deleted > 0);
    }
    LBT_RETURN_IF_ERROR(
        Update([&](Txn* txn) -> Status { return stores_->catalog.DeleteRecord(txn, PendingDropKey(id)); }));
  }
  return SettleFreedPages();
}

Status Database::FinishInterruptedDrops() {
  LBT_ASSIGN_OR_RETURN(auto pending, ReadRecords(kPendingDropKeyPrefix));
  std::vector<TableId> ids;
  for (const auto& [key, value] : pending) {
    TableId id = 0;
    if (ParsePendingDropKey(key, &id)) ids.push_back(id);
  }
  return DeleteCellsOf(ids);
}

// ---- instances ----

Result<std::vector<InstanceSpec>> Database::ReadInstances() {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  return stores_->catalog.Instances(txn.get());
}

Result<std::vector<std::pair<std::string, std::string>>> Database::ReadRecords(std::string_view prefix) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  return stores_->catalog.Records(txn.get(), prefix);
}

Result<std::optional<std::string>> Database::ReadRecord(std::string_view key) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  return stores_->catalog.Record(txn.get(), key);
}

Status Database::ChangeRecord(std::string_view key,
                              const std::function<Status(std::optional<std::string>* record)>& change,
                              std::string_view drop_table) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, stores_->catalog.Record(txn, key));
    const bool had = record.has_value();
    LBT_RETURN_IF_ERROR(change(&record));
    if (record.has_value()) {
      LBT_RETURN_IF_ERROR(stores_->catalog.PutRecord(txn, key, *record));
    } else if (had) {
      LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, key));
    }
    if (drop_table.empty() || stores_->catalog.Find(drop_table) == nullptr) return Status::OK();
    return RemoveTable(txn, drop_table, &dropped);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::RenameTable(std::string_view from, std::string_view to,
                             const std::optional<RestoreInfo>& restored_from) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(from));
    if (stores_->catalog.Find(to) != nullptr) {
      return Status::AlreadyExists(fmt::format("table '{}' already exists", TableIdOf(to)));
    }
    TableSpec renamed = *spec;
    renamed.name = std::string(to);
    renamed.restored_from = restored_from;
    LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(to)));
    LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, from));
    return stores_->catalog.Store(txn, renamed);
  });
}

Status Database::ChangeAuthorizedViews(std::string_view table, const std::function<Status(TableSpec* spec)>& change) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec changed = *current;
    LBT_RETURN_IF_ERROR(change(&changed));
    // A view created or deleted here starts, or leaves, without a policy.
    std::set<std::string> before, after;
    for (const AuthorizedViewSpec& view : current->authorized_views) before.insert(view.id);
    for (const AuthorizedViewSpec& view : changed.authorized_views) after.insert(view.id);
    for (const std::string& id : before) {
      if (after.erase(id) == 0) LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, ViewIamKey(table, id)));
    }
    for (const std::string& id : after) LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, ViewIamKey(table, id)));
    TableSpec stored = *current;
    stored.authorized_views = std::move(changed.authorized_views);
    stored.view_etags_issued = changed.view_etags_issued;
    return stores_->catalog.Store(txn, stored);
  });
}

Result<std::optional<InstanceSpec>> Database::ReadInstance(const InstanceName& name, bool* has_tables) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  {
    std::lock_guard<std::mutex> lock(read_mu_);
    LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn.get()));
    *has_tables = read_catalog_->HasTablesOf(name);
  }
  return stores_->catalog.FindInstance(txn.get(), name);
}

Status Database::ChangeInstance(
    const InstanceName& name, const std::function<Status(std::optional<InstanceSpec>* record, bool has_tables)>& change,
    const InstanceBelongings* deleted) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    std::vector<std::string> tables;  // the instance's own, then the hidden ones `deleted` names
    for (const std::string& table : stores_->catalog.TableNames()) {
      if (InstanceOfTable(table) == name) tables.push_back(table);
    }
    const bool has_tables = !tables.empty();
    LBT_ASSIGN_OR_RETURN(std::optional<InstanceSpec> record, stores_->catalog.FindInstance(txn, name));
    const bool had_record = record.has_value();
    LBT_RETURN_IF_ERROR(change(&record, has_tables));
    if (record.has_value()) {
      LBT_RETURN_IF_ERROR(stores_->catalog.StoreInstance(txn, *record));
    } else if (had_record) {
      LBT_RETURN_IF_ERROR(stores_->catalog.RemoveInstance(txn, name));
    }
    if (deleted == nullptr) return Status::OK();
    // Protection forbids deleting "the instance containing the table"
    // (admin/v2/table.proto): nothing is deleted.
    for (const std::string& table : tables) {
      const TableSpec& spec = *stores_->catalog.Find(table);
      LBT_RETURN_IF_ERROR(RequireUnprotected(spec, "its instance"));
      LBT_RETURN_IF_ERROR(RequireNoProtectedViews(spec));
    }
    for (const std::string& table : stores_->catalog.TableNames()) {
      for (const std::string& prefix : deleted->table_prefixes) {
        if (table.starts_with(prefix)) tables.push_back(table);
      }
    }
    for (const std::string& table : tables) LBT_RETURN_IF_ERROR(RemoveTable(txn, table, &dropped));
    return DeleteRecords(txn, *deleted);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::DeleteRecords(Txn* txn, const InstanceBelongings& deleted) {
  std::vector<std::string> keys = deleted.record_keys;
  for (const std::string& prefix : deleted.record_prefixes) {
    LBT_ASSIGN_OR_RETURN(auto records, stores_->catalog.Records(txn, prefix));
    for (auto& record : records) keys.push_back(std::move(record.first));
  }
  for (const std::string& key : keys) LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, key));
  return Status::OK();
}

Result<std::vector<std::string>> Database::ListTables() {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  std::lock_guard<std::mutex> lock(read_mu_);
  LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn.get()));
  return read_catalog_->TableNames();
}

Result<TableSpec> Database::GetTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(txn.get(), table, false));
  return *spec;
}

namespace {

// Checks one change against the spec as the earlier changes left it, and
// makes it there.
Status PlanFamilyChange(const FamilyChange& change, TableSpec* spec) {
  const std::string& name = change.family.name;
  switch (change.kind) {
    case FamilyChange::Kind::kCreate:
      LBT_RETURN_IF_ERROR(ValidateFamilies({change.family}));
      if (spec->FindFamily(name) != nullptr) {
        return Status::AlreadyExists(
            fmt::format("column family '{}' already exists in table '{}'", name, TableIdOf(spec->name)));
      }
      spec->AddFamily(Stored(change.family));
      return Status::OK();
    case FamilyChange::Kind::kUpdate: {
      LBT_RETURN_IF_ERROR(spec->RequireFamily(name).status());
      FamilySpec& family = spec->families.find(name)->second;
      if (change.gc_rule) {
        LBT_RETURN_IF_ERROR(change.gc_rule->Validate());
        family.gc_rule = *change.gc_rule;
      }
      if (change.value_type) {
        LBT_RETURN_IF_ERROR(CheckValueTypeChange(name, family.value_type, *change.value_type));
        family.value_type = StoredValueType(*change.value_type);
      }
      return Status::OK();
    }
    case FamilyChange::Kind::kDrop:
      LBT_RETURN_IF_ERROR(spec->RequireFamily(name).status());
      LBT_RETURN_IF_ERROR(RequireUnprotected(*spec, "its column families"));
      spec->families.erase(spec->families.find(name));
      return Status::OK();
  }
  return Status::InvalidArgument("unknown column family change");
}

}  // namespace

Status Database::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  bool dropped = false;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec spec = *current;
    for (const FamilyChange& change : changes) {
      if (change.kind != FamilyChange::Kind::kDrop) {
        LBT_RETURN_IF_ERROR(PlanFamilyChange(change, &spec));
        continue;
      }
      // The cells go in the same transaction, by a writer that still sees
      // the family.
      const TableSpec with_family = spec;
      LBT_RETURN_IF_ERROR(PlanFamilyChange(change, &spec));
      RowWriter writer(txn, stores_.get(), &with_family, NowMicros());
      LBT_RETURN_IF_ERROR(writer.DeleteFamilyEverywhere(with_family.FindFamily(change.family.name)->id));
      dropped = true;
    }
    return stores_->catalog.Store(txn, spec);
  }));
  return dropped ? SettleFreedPages() : Status::OK();
}

Status Database::CreateFamily(std::string_view table, const FamilySpec& family) {
  return ModifyFamilies(table, {FamilyChange::Create(family)});
}

Status Database::DeleteFamily(std::string_view table, std::string_view family) {
  return ModifyFamilies(table, {FamilyChange::Drop(std::string(family))});
}

Status Database::SetGcRule(std::string_view table, std::string_view family, const GcRule& rule) {
  return ModifyFamilies(table, {FamilyChange::SetGcRule(std::string(family), rule)});
}

Status Database::SetValueType(std::string_view table, std::string_view family, ValueType type) {
  return ModifyFamilies(table, {FamilyChange::SetValueType(std::string(family), type)});
}

Status Database::SetTableEnabled(std::string_view table, bool enabled) {
  return ChangeTableFlag(table, &TableSpec::enabled, enabled);
}

Status Database::SetDeletionProtection(std::string_view table, bool enabled) {
  return ChangeTableFlag(table, &TableSpec::deletion_protection, enabled);
}

Status Database::SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) {
  std::optional<AutomatedBackupPolicy> checked = policy;
  if (checked) LBT_RETURN_IF_ERROR(ValidateAutomatedBackupPolicy(&*checked, "table.automated_backup_policy"));
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec spec = *current;
    spec.automated_backup_policy = checked;
    return stores_->catalog.Store(txn, spec);
  });
}

Status Database::ChangeTableFlag(std::string_view table, bool TableSpec::*flag, bool value) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    if (current->*flag == value) return Status::OK();
    TableSpec spec = *current;
    spec.*flag = value;
    return stores_->catalog.Store(txn, spec);
  });
}

Result<const TableSpec*> Database::RequireEnabled(std::string_view table) {
  // Writers only: readers check through ReadSpec.
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
  LBT_RETURN_IF_ERROR(RequireEnabledSpec(*spec));
  return spec;
}

// ---- writes ----

Status Database::MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) {
  return UpdateGrouped([&](WriteScope& scope, bool*) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
    LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec, row_key, mutations));
    return scope.Writer(spec, NowMicros()).Apply(row_key, mutations);
  });
}

Result<std::vector<Status>> Database::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  std::vector<Status> statuses(rows.size());
  std::vector<bool> failed(rows.size(), false);
  // A row that fails while being applied (over the row size limit, say)
  // may have written part of itself: it is marked, and the transaction is
  // redone without it. Each redo drops a row, and rows rarely fail after
  // validation, which writes nothing.
  LBT_RETURN_IF_ERROR(UpdateGrouped([&](WriteScope& scope, bool* redo) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireEnabled(table));
    RowWriter writer = scope.Writer(spec, NowMicros());
    for (size_t i = 0; i < rows.size(); ++i) {
      if (failed[i]) continue;
      statuses[i] = ValidateRowMutations(*spec, rows[i].row_key, rows[i].mutations);
      if (!statuses[i].ok()) continue;
      // A logged write takes back a failed row's changes at once.
      if (scope.batch != nullptr) scope.batch->SetSavepoint();
      statuses[i] = writer.Apply(rows[i].row_key, rows[i].mutations);
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

namespace {

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

}  // namespace

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

Result<std::unique_ptr<BulkLoad>> Database::NewBulkLoad(std::string_view table, const BulkLoadOptions& options) {
  if (options_.read_only) return Status::FailedPrecondition("the database is open read-only");
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(txn.get(), table, true));
  std::string temp_dir = options.temp_dir.empty() ? dir_ : options.temp_dir;
  return std::unique_ptr<BulkLoad>(new BulkLoader(this, *spec, options, std::move(temp_dir), NowMicros()));
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
