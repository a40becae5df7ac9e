// A thin RAII layer over LMDB: the environment, transactions and cursors.
//
// Rules that LMDB imposes and this layer keeps visible:
//  - A Cursor must be destroyed before its transaction commits or aborts.
//  - A string_view that a Txn or Cursor returns points into the memory map
//    and dies with the transaction (and, in a write transaction, with the
//    next write).
//  - The map size can only change while this process has no transaction open.

#ifndef LBT_STORAGE_KV_LMDB_ENV_H_
#define LBT_STORAGE_KV_LMDB_ENV_H_

#include <lmdb.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "api/status.h"

namespace lbt {

struct LmdbOptions {
  // Initial size of the memory map; it grows by itself when full.
  uint64_t initial_map_bytes = 256ull << 20;
  bool read_only = false;
  // false: no fsync per commit (MDB_NOSYNC); a power loss may lose recent
  // commits, and on a file system that reorders writes corrupt the file.
  bool sync = true;
  unsigned max_named_dbs = 8;
};

class LmdbEnv {
 public:
  // Opens (creating if needed and not read-only) the environment in `dir`,
  // which must exist. Data files are created with mode 0600 (minus umask).
  static Result<std::unique_ptr<LmdbEnv>> Open(const std::string& dir, const LmdbOptions& opts);
  ~LmdbEnv();
  LmdbEnv(const LmdbEnv&) = delete;
  LmdbEnv& operator=(const LmdbEnv&) = delete;

  MDB_env* raw() const { return env_; }
  bool read_only() const { return read_only_; }
  // True when a read-only open could not use LMDB's lock file (the
  // directory or lock.mdb is not writable) and went on without it: no
  // coordination with a writer in another process.
  bool without_lock() const { return without_lock_; }
  uint64_t map_bytes() const;

  // Doubles the memory map (growing by at most 8 GiB at a time). Returns
  // ResourceExhausted, changing nothing, while a read transaction of this
  // process is active: remapping would pull the pages from under it.
  // REQUIRES: no write transaction of this process is open.
  Status GrowMap();
  // Adopts a map size that another process has set (after MDB_MAP_RESIZED).
  Status AdoptMapSize();

  // Drops this process's mapping of pages it has read, keeping them in the
  // OS page cache: a long scan then holds little resident memory however
  // large the file. Safe at any time and from any thread: the map is read-only and shared, so
  // a page touched again is mapped back from the cache.
  // `inside` is any pointer LMDB returned into the map (a value, say); it
  // locates the map, which LMDB does not report unless it is fixed.
  void ReleaseMappedPages(const void* inside);

 private:
  friend class Txn;
  LmdbEnv(MDB_env* env, bool read_only) : env_(env), read_only_(read_only) {}
  // A read transaction announces itself before it touches the map and
  // withdraws when done; GrowMap runs only when none is active, and holds
  // new ones back meanwhile.
  void EnterRead();
  void LeaveRead() { active_reads_.fetch_sub(1); }
  // Runs `set_map_size` (an mdb_env_set_mapsize call) when no read is active.
  Status Remap(const std::function<int()>& set_map_size, std::string_view what);

  MDB_env* env_;
  bool read_only_;
  bool without_lock_ = false;
  std::atomic<int> active_reads_{0};
  std::atomic<bool> growing_{false};
  // The data file's mapping, once found in /proc/self/maps.
  std::mutex map_mu_;  // readers on several threads release pages
  uintptr_t map_begin_ = 0;
  uintptr_t map_end_ = 0;
};

// Turns an LMDB return code into a Status; `what` says what was being done.
Status LmdbStatus(int rc, std::string_view what);

class Txn {
 public:
  // Begins a transaction, adopting a map size grown by another process.
  static Result<std::unique_ptr<Txn>> Begin(LmdbEnv* env, bool write);
  // Begins a write transaction nested in `parent`: its writes become the
  // parent's when it commits and vanish when it aborts, leaving the parent
  // as it was. While it is open the parent and the parent's cursors must
  // not be used. REQUIRES: parent->is_write(); `parent` outlives it.
  static Result<std::unique_ptr<Txn>> BeginNested(Txn* parent);
  ~Txn();  // aborts if neither committed nor aborted
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;

  MDB_txn* raw() const { return txn_; }
  bool is_write() const { return write_; }
  LmdbEnv* env() const { return env_; }

  // Opens a named database, creating it when `create` (write txns only).
  // Returns NotFound if it does not exist and `create` is false.
  Result<MDB_dbi> OpenDbi(const char* name, bool create);

  // Looks `key` up. Returns false if absent. *value points into the map.
  Result<bool> Get(MDB_dbi dbi, std::string_view key, std::string_view* value);
  // REQUIRES: is_write()
  Status Put(MDB_dbi dbi, std::string_view key, std::string_view value, unsigned flags = 0);
  // Puts `key` at the end of the database (MDB_APPEND), which is much
  // faster for keys that arrive in order. Returns false, writing nothing,
  // when `key` does not sort after every key there. REQUIRES: is_write()
  Result<bool> Append(MDB_dbi dbi, std::string_view key, std::string_view value);
  // Deletes `key`. Returns false if it was absent. REQUIRES: is_write()
  Result<bool> Del(MDB_dbi dbi, std::string_view key);

  // REQUIRES: no Cursor of this transaction is still open.
  Status Commit();
  void Abort();

  // For a read transaction kept for reuse: Reset releases its snapshot,
  // Renew takes a fresh one (cheaper than Begin). Renew fails with
  // MDB_MAP_RESIZED's status when another process grew the map.
  // REQUIRES: !is_write(), no Cursor open
  void Reset();
  Status Renew();
  // The id of the snapshot: equal ids see the same data.
  uint64_t id() const { return mdb_txn_id(txn_); }

  // True once any operation failed because the map was full (in this
  // transaction or one nested in it); the caller should abort, grow the map
  // and retry the whole transaction.
  bool map_full() const { return map_full_; }

  // Records a failed LMDB call and turns it into a Status.
  Status Fail(int rc, std::string_view what);

 private:
  friend class Cursor;
  void StopReading();
  Txn(MDB_txn* txn, bool write, LmdbEnv* env) : txn_(txn), write_(write), env_(env) {}
  MDB_txn* txn_;
  bool write_;
  LmdbEnv* env_;
  Txn* parent_ = nullptr;  // for a nested transaction
  bool map_full_ = false;
  bool reading_ = false;  // a read transaction holding a snapshot
  int open_cursors_ = 0;
};

class Cursor {
 public:
  static Result<std::unique_ptr<Cursor>> Open(Txn* txn, MDB_dbi dbi);
  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  // Positions the cursor. Returns false when there is no such entry.
  // Seek: the first key >= `key`.
  Result<bool> Seek(std::string_view key);
  Result<bool> First();
  Result<bool> Last();
  Result<bool> Next();
  Result<bool> Prev();
  // Puts `key` at the end of the database (MDB_APPEND) and leaves the
  // cursor there, so that the next append need not search the tree: a load
  // in key order is fastest this way. Returns false, writing nothing, when
  // `key` does not sort after every key there. REQUIRES: a write txn
  Result<bool> Append(std::string_view key, std::string_view value);
  // Puts `key`, replacing its value if present, and leaves the cursor
  // there: LMDB finds a next key that lands on the same page from the
  // page, not from the tree's root. REQUIRES: a write txn
  Status Put(std::string_view key, std::string_view value);

  // The entry under the cursor. REQUIRES: the last move returned true.
  std::string_view key() const { return key_; }
  std::string_view value() const { return value_; }

 private:
  Cursor(Txn* txn, MDB_cursor* cursor) : txn_(txn), cursor_(cursor) {}
  Result<bool> Move(MDB_cursor_op op, std::string_view seek_key = {});
  Txn* txn_;
  MDB_cursor* cursor_;
  std::string_view key_;
  std::string_view value_;
};

inline MDB_val ToVal(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }
inline std::string_view FromVal(const MDB_val& v) {
  return std::string_view(static_cast<const char*>(v.mv_data), v.mv_size);
}

}  // namespace lbt

#endif  // LBT_STORAGE_KV_LMDB_ENV_H_
