// Database: opening (a new database, an existing one, one to upgrade),
// reopening after its file was replaced, compacting, and closing.

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <thread>

#include "api/limits.h"
#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/stores.h"
#include "storage/format/upgrade.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/mem_table.h"
#include "storage/kv/write_log.h"
#include "util/background_thread.h"

namespace lbt {

namespace fs = std::filesystem;

Database::Database(std::string dir, DatabaseOptions options)
    : dir_(std::move(dir)),
      options_(std::move(options)),
      stores_(NewStores()),
      write_queue_(std::make_unique<WriteGroupQueue>([this](const std::vector<PendingWrite*>& group) {
        if (log_ != nullptr) {
          CommitGroupLogged(group);
        } else {
          CommitGroup(group);
        }
      })),
      read_catalog_(std::make_unique<Catalog>()) {}

std::unique_ptr<Stores> Database::NewStores() const {
  auto stores = std::make_unique<Stores>();
  stores->lazy_gc = options_.gc == GcMode::kLazy;
  return stores;
}

Database::~Database() {
  write_queue_->Stop();  // submitted writes commit while the log is open
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
  if (options.read_only && HoldsLiveLog(db->stored_format_)) db->NoteUnreplayedLog();
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
    LBT_RETURN_IF_ERROR(txn->Put(stores_->meta, kMetaFormatVersion, std::to_string(kAtRestFormatVersion)));
    stored_format_ = kAtRestFormatVersion;
  }
  return txn->Commit();
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
        "the database in '{}' has format version {}; this lbt reads formats {} to {}, and upgrades a database "
        "when it opens it for writing: open it once without --read-only, as a user who can write to '{}'",
        dir_, stored_format_, kCellFormatVersion, kFormatVersion, dir_));
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

}  // namespace lbt
