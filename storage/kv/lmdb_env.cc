#include "storage/kv/lmdb_env.h"

#include <functional>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>

namespace lbt {

Status LmdbStatus(int rc, std::string_view what) {
  if (rc == MDB_SUCCESS) return Status::OK();
  switch (rc) {
    case MDB_MAP_FULL:
    case MDB_TXN_FULL: return Status::ResourceExhausted(fmt::format("{}: the database map is full", what));
    case ENOSPC: return Status::ResourceExhausted(fmt::format("{}: no space left on the device", what));
    case EDQUOT: return Status::ResourceExhausted(fmt::format("{}: disk quota exceeded", what));
    case EFBIG: return Status::ResourceExhausted(fmt::format("{}: file size limit exceeded", what));
    case EIO:
      // LMDB reports a short write (a full disk, a file size limit) as EIO.
      return Status::IOError(
          fmt::format("{}: input/output error (is the disk full, or a file size limit reached?); the write was "
                      "rolled back",
                      what));
    case EACCES:
      return Status::IOError(fmt::format(
          "{}: permission denied; lbt needs to read data.mdb there, and to write data.mdb and lock.mdb to change it "
          "(--read-only reads a database it cannot write)",
          what));
    case EROFS: return Status::IOError(fmt::format("{}: the file system is read-only", what));
    case MDB_CORRUPTED:
    case MDB_PAGE_NOTFOUND:
    case MDB_INVALID:
    case MDB_VERSION_MISMATCH: return Status::Corruption(fmt::format("{}: {}", what, mdb_strerror(rc)));
    default: return Status::IOError(fmt::format("{}: {}", what, mdb_strerror(rc)));
  }
}

// ---- LmdbEnv ----

Result<std::unique_ptr<LmdbEnv>> LmdbEnv::Open(const std::string& dir, const LmdbOptions& opts) {
  MDB_env* env = nullptr;
  int rc = mdb_env_create(&env);
  if (rc != MDB_SUCCESS) return LmdbStatus(rc, "creating the LMDB environment");
  auto fail = [&](int code, std::string_view what) -> Status {
    mdb_env_close(env);
    return LmdbStatus(code, what);
  };
  if ((rc = mdb_env_set_maxdbs(env, opts.max_named_dbs)) != MDB_SUCCESS) {
    return fail(rc, "configuring named databases");
  }
  if ((rc = mdb_env_set_mapsize(env, opts.initial_map_bytes)) != MDB_SUCCESS) {
    return fail(rc, "setting the map size");
  }
  // A server runs many reads at once, each holding a reader slot.
  if ((rc = mdb_env_set_maxreaders(env, 1024)) != MDB_SUCCESS) {
    return fail(rc, "configuring reader slots");
  }
  // Several processes share one database; readers never block the writer.
  // MDB_NOTLS lets a thread hold a read transaction while it writes.
  unsigned flags = MDB_NOTLS;
  if (opts.read_only) flags |= MDB_RDONLY;
  if (!opts.sync) flags |= MDB_NOSYNC;
  bool without_lock = false;
  rc = mdb_env_open(env, dir.c_str(), flags, 0600);
  if (opts.read_only && (rc == EACCES || rc == EROFS)) {
    // Reading needs LMDB's lock file open for writing, which a directory
    // the user cannot write does not allow. Read without it, as sqlite3
    // reads a file it cannot lock; a failed open must discard its handle.
    mdb_env_close(env);
    env = nullptr;
    if ((rc = mdb_env_create(&env)) != MDB_SUCCESS) return LmdbStatus(rc, "creating the LMDB environment");
    mdb_env_set_maxdbs(env, opts.max_named_dbs);
    mdb_env_set_mapsize(env, opts.initial_map_bytes);
    rc = mdb_env_open(env, dir.c_str(), flags | MDB_NOLOCK, 0600);
    without_lock = true;
  }
  if (rc != MDB_SUCCESS) return fail(rc, fmt::format("opening the database in {}", dir));
  // Free reader slots left behind by processes that died mid-read, so their
  // stale snapshots do not pin old pages forever.
  int dead = 0;
  if (!without_lock) mdb_reader_check(env, &dead);
  std::unique_ptr<LmdbEnv> opened(new LmdbEnv(env, opts.read_only));
  opened->without_lock_ = without_lock;
  return opened;
}

LmdbEnv::~LmdbEnv() { mdb_env_close(env_); }

uint64_t LmdbEnv::map_bytes() const {
  MDB_envinfo info;
  mdb_env_info(env_, &info);
  return info.me_mapsize;
}

void LmdbEnv::EnterRead() {
  while (true) {
    active_reads_.fetch_add(1);
    if (!growing_.load()) return;
    active_reads_.fetch_sub(1);
    while (growing_.load()) std::this_thread::yield();
  }
}

Status LmdbEnv::Remap(const std::function<int()>& set_map_size, std::string_view what) {
  growing_.store(true);
  struct Done {
    std::atomic<bool>* growing;
    ~Done() { growing->store(false); }
  } done{&growing_};
  if (active_reads_.load() != 0) {
    return Status::ResourceExhausted(
        fmt::format("{}: the database map cannot change size while reads are running; try again", what));
  }
  return LmdbStatus(set_map_size(), what);
}

Status LmdbEnv::GrowMap() {
  uint64_t current = map_bytes();
  uint64_t step = std::min<uint64_t>(current, 8ull << 30);
  return Remap([&] { return mdb_env_set_mapsize(env_, current + step); }, "growing the database map");
}

void LmdbEnv::ReleaseMappedPages(const void* inside) {
  const auto address = reinterpret_cast<uintptr_t>(inside);
  std::lock_guard<std::mutex> lock(map_mu_);
  if (address < map_begin_ || address >= map_end_) {
    // Find the file mapping that holds the pointer; never touch any other.
    map_begin_ = map_end_ = 0;
    std::FILE* maps = std::fopen("/proc/self/maps", "r");
    if (maps == nullptr) return;
    char line[4096];
    while (std::fgets(line, sizeof line, maps) != nullptr) {
      unsigned long begin = 0, end = 0;
      if (std::sscanf(line, "%lx-%lx", &begin, &end) != 2 || address < begin || address >= end) continue;
      if (std::strstr(line, "data.mdb") != nullptr) {
        map_begin_ = begin;
        map_end_ = end;
      }
      break;
    }
    std::fclose(maps);
    if (map_begin_ == 0) return;
  }
  madvise(reinterpret_cast<void*>(map_begin_), map_end_ - map_begin_, MADV_DONTNEED);
}

Status LmdbEnv::AdoptMapSize() {
  return Remap([&] { return mdb_env_set_mapsize(env_, 0); }, "adopting the map size another process set");
}

// ---- Txn ----

Result<std::unique_ptr<Txn>> Txn::Begin(LmdbEnv* env, bool write) {
  if (write && env->read_only()) {
    return Status::FailedPrecondition("the database is open read-only");
  }
  for (int attempt = 0;; ++attempt) {
    MDB_txn* txn = nullptr;
    if (!write) env->EnterRead();
    int rc = mdb_txn_begin(env->raw(), nullptr, write ? 0 : MDB_RDONLY, &txn);
    if (rc == MDB_SUCCESS) {
      std::unique_ptr<Txn> out(new Txn(txn, write, env));
      out->reading_ = !write;
      return out;
    }
    if (!write) env->LeaveRead();
    if (rc == MDB_MAP_RESIZED && attempt < 3) {
      LBT_RETURN_IF_ERROR(env->AdoptMapSize());
      continue;
    }
    if (rc == MDB_READERS_FULL && attempt < 3) {
      int dead = 0;
      mdb_reader_check(env->raw(), &dead);
      continue;
    }
    return LmdbStatus(rc, write ? "starting a write" : "starting a read");
  }
}

Result<std::unique_ptr<Txn>> Txn::BeginNested(Txn* parent) {
  assert(parent->is_write());
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(parent->env_->raw(), parent->txn_, 0, &txn);
  if (rc != MDB_SUCCESS) return parent->Fail(rc, "starting a nested write");
  std::unique_ptr<Txn> nested(new Txn(txn, /*write=*/true, parent->env_));
  nested->parent_ = parent;
  return nested;
}

Txn::~Txn() {
  if (txn_ != nullptr) Abort();
}

Status Txn::Fail(int rc, std::string_view what) {
  if (rc == MDB_MAP_FULL || rc == MDB_TXN_FULL) {
    for (Txn* t = this; t != nullptr; t = t->parent_) t->map_full_ = true;
  }
  return LmdbStatus(rc, what);
}

Result<MDB_dbi> Txn::OpenDbi(const char* name, bool create) {
  MDB_dbi dbi = 0;
  int rc = mdb_dbi_open(txn_, name, create ? MDB_CREATE : 0, &dbi);
  if (rc == MDB_NOTFOUND) return Status::NotFound(fmt::format("no table space '{}'", name));
  if (rc != MDB_SUCCESS) return Fail(rc, fmt::format("opening '{}'", name));
  return dbi;
}

Result<bool> Txn::Get(MDB_dbi dbi, std::string_view key, std::string_view* value) {
  MDB_val k = ToVal(key), v;
  int rc = mdb_get(txn_, dbi, &k, &v);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return Fail(rc, "reading");
  *value = FromVal(v);
  return true;
}

Status Txn::Put(MDB_dbi dbi, std::string_view key, std::string_view value, unsigned flags) {
  assert(write_);
  MDB_val k = ToVal(key), v = ToVal(value);
  int rc = mdb_put(txn_, dbi, &k, &v, flags);
  if (rc != MDB_SUCCESS) return Fail(rc, "writing");
  return Status::OK();
}

Result<bool> Txn::Append(MDB_dbi dbi, std::string_view key, std::string_view value) {
  assert(write_);
  MDB_val k = ToVal(key), v = ToVal(value);
  int rc = mdb_put(txn_, dbi, &k, &v, MDB_APPEND);
  if (rc == MDB_KEYEXIST) return false;
  if (rc != MDB_SUCCESS) return Fail(rc, "writing");
  return true;
}

Result<bool> Txn::Del(MDB_dbi dbi, std::string_view key) {
  assert(write_);
  MDB_val k = ToVal(key);
  int rc = mdb_del(txn_, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return Fail(rc, "deleting");
  return true;
}

Status Txn::Commit() {
  assert(open_cursors_ == 0 && "close cursors before committing");
  int rc = mdb_txn_commit(txn_);
  txn_ = nullptr;
  StopReading();
  if (rc != MDB_SUCCESS) return Fail(rc, "committing");
  return Status::OK();
}

void Txn::Abort() {
  assert(open_cursors_ == 0 && "close cursors before aborting");
  if (txn_ != nullptr) mdb_txn_abort(txn_);
  txn_ = nullptr;
  StopReading();
}

void Txn::StopReading() {
  if (reading_) env_->LeaveRead();
  reading_ = false;
}

void Txn::Reset() {
  assert(!write_ && open_cursors_ == 0);
  mdb_txn_reset(txn_);
  StopReading();
}

Status Txn::Renew() {
  assert(!write_ && !reading_);
  env_->EnterRead();
  int rc = mdb_txn_renew(txn_);
  if (rc != MDB_SUCCESS) {
    env_->LeaveRead();
    return LmdbStatus(rc, "starting a read");
  }
  reading_ = true;
  return Status::OK();
}

// ---- Cursor ----

Result<std::unique_ptr<Cursor>> Cursor::Open(Txn* txn, MDB_dbi dbi) {
  MDB_cursor* c = nullptr;
  int rc = mdb_cursor_open(txn->raw(), dbi, &c);
  if (rc != MDB_SUCCESS) return txn->Fail(rc, "opening a cursor");
  ++txn->open_cursors_;
  return std::unique_ptr<Cursor>(new Cursor(txn, c));
}

Cursor::~Cursor() {
  mdb_cursor_close(cursor_);
  --txn_->open_cursors_;
}

Result<bool> Cursor::Move(MDB_cursor_op op, std::string_view seek_key) {
  MDB_val k = ToVal(seek_key), v{0, nullptr};
  int rc = mdb_cursor_get(cursor_, &k, &v, op);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return txn_->Fail(rc, "moving a cursor");
  key_ = FromVal(k);
  value_ = FromVal(v);
  return true;
}

Result<bool> Cursor::Append(std::string_view key, std::string_view value) {
  MDB_val k = ToVal(key), v = ToVal(value);
  int rc = mdb_cursor_put(cursor_, &k, &v, MDB_APPEND);
  if (rc == MDB_KEYEXIST) return false;
  if (rc != MDB_SUCCESS) return txn_->Fail(rc, "writing");
  return true;
}

Status Cursor::Put(std::string_view key, std::string_view value) {
  MDB_val k = ToVal(key), v = ToVal(value);
  int rc = mdb_cursor_put(cursor_, &k, &v, 0);
  if (rc != MDB_SUCCESS) return txn_->Fail(rc, "writing");
  return Status::OK();
}

Result<bool> Cursor::Seek(std::string_view key) {
  if (key.empty()) return First();
  return Move(MDB_SET_RANGE, key);
}
Result<bool> Cursor::First() { return Move(MDB_FIRST); }
Result<bool> Cursor::Last() { return Move(MDB_LAST); }
Result<bool> Cursor::Next() { return Move(MDB_NEXT); }
Result<bool> Cursor::Prev() { return Move(MDB_PREV); }

}  // namespace lbt
