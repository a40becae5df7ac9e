// Database: one lbt database directory, i.e. one LMDB environment, which
// holds every instance's tables under their catalog names ("P/I/T"; "T" in
// the default instance). It owns the schema and the data of all its
// tables, and speaks the api's value types (api/schema.h, mutation.h,
// table.h) but implements no api interface: local/ does, over this class,
// and gives catalog names their meaning (instances, views, backups).
//
// Every write runs in one LMDB write transaction: a row's mutations apply
// all or nothing, and a failed call changes nothing. Several processes may
// open the same directory at once; readers never block the writer.
//
// Threading: a Database may be used from many threads at once, except
// Compact, which needs it alone. Writes are serialized, in the order their
// callers reach the write lock; reads run in parallel, each on its own
// snapshot, and never wait for a write. Row writes from several threads
// (MutateRow, MutateRowsEach, CheckAndMutateRow, ReadModifyWriteRow) commit
// in groups: one LMDB transaction and one fsync for all that queued while
// the previous group committed. Each is still atomic on its own, fails on
// its own, and returns only once its group is committed. A RowReader belongs to one thread
// at a time. Readers a Database returns must be destroyed before it is.

#ifndef LBT_STORAGE_DATABASE_H_
#define LBT_STORAGE_DATABASE_H_

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api/cell.h"
#include "api/change_stream.h"
#include "api/local_maintenance.h"
#include "api/mutation.h"
#include "api/schema.h"
#include "api/status.h"
#include "api/table.h"
#include "storage/format/format_version.h"
#include "storage/rows/read_options.h"

namespace lbt {

class Catalog;
class ChangeBatch;
class LmdbEnv;
class MemTable;
class RowWriter;
class RowReader;
class StoreView;
class Txn;
class WriteLog;
struct LoggedGroup;
struct MemLayers;
struct PendingWrite;
struct ReadView;
struct Stores;
class WriteGroupQueue;
struct WriteScope;

// How garbage collection shows to readers.
enum class GcMode {
  // A cell a GC rule makes eligible is never read again, at once; it is
  // removed when its column is next written, or by CollectGarbage. Handy
  // to see what a policy does.
  kEager,
  // As production: eligible cells are still read until a collection pass
  // (CollectGarbage, or the background passes of gc_interval) removes
  // them, so code that forgets to filter for them fails here as it would
  // there.
  kLazy,
};

struct DatabaseOptions {
  // Create the directory and the database if they do not exist.
  bool create_if_missing = true;
  bool read_only = false;
  // false: no fsync per commit. A crash of the process loses nothing
  // committed; a power loss may lose the latest commits and, on a file
  // system that reorders writes, the file's consistency (LMDB's warning).
  // With log_writes: the log is synced within kLogSyncInterval instead,
  // and LMDB itself is always synced.
  bool sync = true;
  // The memory map starts at this size and grows by itself when full.
  uint64_t initial_map_bytes = 256ull << 20;
  // The current time in microseconds; the system clock if unset. Tests set
  // it to make "now" and ages deterministic.
  std::function<int64_t()> clock;
  GcMode gc = GcMode::kEager;
  // With kLazy and a positive interval, a background thread runs a
  // collection pass over every table this often. Ignored when read-only.
  std::chrono::milliseconds gc_interval{0};
  // Hears one line when Open had to give something up to open at all
  // (a read-only open of a directory it cannot write), or upgrades the
  // database to this build's format. Unset: silent.
  std::function<void(const std::string& note)> note;
  // Hears how a long upgrade advances, now and then (a line without its
  // newline, for a terminal). Unset: silent.
  std::function<void(const std::string& line)> progress;
  // Row writes go to a write-ahead log (DIR/wal-*.log) and to memory, and
  // are folded into LMDB in key order in the background (a server's write
  // path: one small sequential sync per group of writes, whatever keys
  // they touch). Reads merge what is in memory, so they see every
  // acknowledged write at once. With `sync` off, the log is synced at
  // least every kLogSyncInterval instead of before each acknowledgement.
  // Only one process may have a database open for writing this way; while
  // it does, other processes may open it read-only and see what has been
  // folded (within a second of the writes going idle).
  bool log_writes = false;
};

// DIR/wal.lock: held alone by a process writing through a log, shared by
// processes writing LMDB directly. DIR/serve.addr: where a server writing
// through a log listens, for other processes to send their commands to.
inline constexpr std::string_view kLogLockFile = "wal.lock";
inline constexpr std::string_view kServeAddressFile = "serve.addr";

// In a logged database with sync off, the longest an acknowledged write
// waits for its sync: what a power loss can take (a crash of the process
// takes nothing: the log is in the operating system's hands).
inline constexpr std::chrono::milliseconds kLogSyncInterval{100};

class Database;

// The catalog inside one transaction of Database::EditCatalog or
// ReadCatalog: tables by catalog name, other records by key.
class CatalogTxn {
 public:
  // Table names in byte order.
  std::vector<std::string> TableNames() const;
  // The table's spec, or nullptr; valid until the transaction ends.
  const TableSpec* FindTable(std::string_view name) const;
  Result<std::optional<std::string>> Record(std::string_view key) const;
  // Every record whose key starts with `prefix`, by key.
  Result<std::vector<std::pair<std::string, std::string>>> Records(std::string_view prefix) const;
  // REQUIRES (the three below): inside EditCatalog.
  Status PutRecord(std::string_view key, std::string_view value);
  Status DeleteRecord(std::string_view key);
  // Removes table `name` (NotFound if none) with its IAM policies, as
  // DeleteTable does but without its checks; its cells go after the
  // transaction.
  Status DropTable(std::string_view name);

 private:
  friend class Database;
  CatalogTxn(Database* db, Txn* txn, Catalog* catalog, std::vector<TableId>* dropped)
      : db_(db), txn_(txn), catalog_(catalog), dropped_(dropped) {}
  Database* db_;
  Txn* txn_;
  Catalog* catalog_;
  std::vector<TableId>* dropped_;  // nullptr: read-only
};

// FailedPrecondition when deleting `what` ("it", "its column families",
// "its instance") would delete a table with deletion protection on.
Status RequireUnprotected(const TableSpec& spec, std::string_view what);
// FailedPrecondition when the table has an authorized view with deletion
// protection on: neither it nor its instance may be deleted.
Status RequireNoProtectedViews(const TableSpec& spec);

class Database final {
 public:
  // Opens the database in `dir`. Refuses a directory that holds something
  // else than an lbt database, and a database of a newer format version.
  static Result<std::unique_ptr<Database>> Open(const std::string& dir, const DatabaseOptions& options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // ---- the place ----

  // Flushes committed writes to disk; a no-op unless opened with sync off.
  Status Flush();
  // The current time in microseconds, truncated to milliseconds.
  int64_t NowMicros() const;
  const std::string& dir() const { return dir_; }
  bool read_only() const;
  bool lazy_gc() const { return options_.gc == GcMode::kLazy; }
  std::chrono::milliseconds gc_interval() const { return options_.gc_interval; }

  // ---- schema ----

  // Creates a table with the given families (possibly none; their ids in
  // the order given) and settings, in one transaction. `splits` are
  // ignored: a database has no tablets. InvalidArgument for an automated
  // backup policy production would refuse.
  Status CreateTable(std::string_view table, const NewTable& spec);
  Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families = {}) {
    return CreateTable(table, NewTable{.families = families});
  }
  // Deletes a table with all its data.
  Status DeleteTable(std::string_view table);
  // Deletes `table` as DeleteTable checks it (protection, protected views),
  // but keeps it, cells, views and settings, under `keep_as` (a hidden
  // name) with deleted_micros `now`, in one transaction; a table kept
  // there before is deleted for good.
  Status DeleteTableKeeping(std::string_view table, std::string_view keep_as, int64_t now);
  // Brings table `kept` (DeleteTableKeeping's) back as `to`, as it was
  // deleted. NotFound without `kept`; FailedPrecondition if `to` exists.
  Status UndeleteTable(std::string_view kept, std::string_view to);
  // Table names in byte order.
  Result<std::vector<std::string>> ListTables();
  Result<TableSpec> GetTable(std::string_view table);
  // Applies `changes` in order, in one transaction: all of them, or none
  // when one is refused (its family exists or not as it must, its rule or
  // type change is invalid, or it drops a family of a protected table).
  // (TableAdmin's CreateFamily, DeleteFamily, SetGcRule and SetValueType
  // are one change each.) A dropped family goes with all its cells. A new
  // GC rule's eligible cells stop being visible at once and are removed by
  // the next write to their column or by CollectGarbage. A value type
  // changes between bytes and string only; to or from an aggregate type is
  // InvalidArgument (see CheckValueTypeChange); cells are kept as they
  // are: the type says how to read them.
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes);

  // Disables or enables a table (HBase's disable/enable). A disabled
  // table keeps its schema and data but refuses reads and writes.
  Status SetTableEnabled(std::string_view table, bool enabled);
  // Turns Bigtable's deletion protection on or off. While it is on,
  // DeleteTable and DeleteFamily refuse with FailedPrecondition.
  Status SetDeletionProtection(std::string_view table, bool enabled);
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy);
  Status SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers);
  // Sets a row key schema on a table without one, or removes it (only with
  // `ignore_warnings`), as table.proto allows; any other change is
  // InvalidArgument, as is a schema ValidateRowKeySchema refuses.
  Status SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema, bool ignore_warnings);

  // One copy is always caught up.
  Status WaitForReplication(std::string_view table);

  // ---- change streams (db_change_stream.cc) ----
  // The change log is written with the data (storage/format/change_log.h): by row
  // writes, collection passes, DropRowRange and bulk loads alike.
  // SetChangeStream(nullopt) deletes what the stream kept.
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config);
  Result<std::vector<RowRange>> ChangeStreamPartitions(std::string_view table);
  // The stream polls fresh snapshots; it must be destroyed before this
  // Database.
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(std::string_view table, const ChangeStreamRequest& request);
  // Deletes the changes that the tables' retention no longer keeps, in
  // small transactions of their own that never wait for the writers'
  // lock. Returns how many went. A writable Database runs it in the
  // background soon after opening and every few minutes.
  Result<int64_t> PruneChangeLogs();

  // ---- catalog records (db_records.cc) ----
  // Records other than tables' are the product's (instances, backups,
  // views, IAM policies), which gives them meaning; here they are bytes
  // by key.

  // Every record whose key starts with `prefix`, by key.
  Result<std::vector<std::pair<std::string, std::string>>> ReadRecords(std::string_view prefix);
  // The record under `key`, or nullopt.
  Result<std::optional<std::string>> ReadRecord(std::string_view key);
  // In one write transaction: hands `change` the record under `key`
  // (nullopt when there is none), stores what it leaves (nullopt: none),
  // and, if `drop_table` is not empty and the change succeeded, removes
  // that table (its cells after the transaction). An error changes nothing.
  Status ChangeRecord(std::string_view key, const std::function<Status(std::optional<std::string>* record)>& change,
                      std::string_view drop_table = {});
  // Renames table `from` to `to` in one transaction, setting its restore
  // info: how a restore, made under a hidden name, appears whole at once.
  // AlreadyExists if `to` exists.
  Status RenameTable(std::string_view from, std::string_view to, const std::optional<RestoreInfo>& restored_from);
  // In one write transaction: hands `change` the table's spec; of what it
  // leaves, only the resources under the table are stored: its authorized
  // views, its schema bundles and their etag counter. An error changes
  // nothing.
  Status ChangeTableResources(std::string_view table, const std::function<Status(TableSpec* spec)>& change);
  // In one write transaction: hands `change` the catalog (CatalogTxn). An
  // error from it changes nothing; the cells of the tables it drops go
  // after the transaction (finished at the next writable open if a crash
  // cuts that short).
  Status EditCatalog(const std::function<Status(CatalogTxn& catalog)>& change);
  // Hands `read` the catalog as one snapshot sees it, read-only. `read`
  // must not call this Database.
  Status ReadCatalog(const std::function<Status(const CatalogTxn& catalog)>& read);

  // ---- writes ----

  // Applies `mutations` to one row, in order, atomically.
  Status MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations);
  // MutateRow without waiting for the sync: `done` is called with the
  // write's status once it is durable, on the thread that committed its
  // group (the write queue's committer), or at once, on this thread, when
  // there is no sync to wait for (--sync=off, or no write-ahead log).
  // `done` must not block.
  void MutateRowAsync(std::string table, std::string row_key, std::vector<Mutation> mutations,
                      std::function<void(const Status&)> done);
  // Applies each row's mutations atomically but independently of the
  // others, as Bigtable's MutateRows does: a row that fails leaves the rest
  // applied. Returns one status per row, in order. The call's own error
  // (no such table) means nothing was applied.
  Result<std::vector<Status>> MutateRows(std::string_view table, const std::vector<RowMutation>& rows);
  // Appends to or increments the latest cell of each rule's column, writing
  // the result as a new cell at max(now, latest timestamp). Rules apply in
  // order, so two on one column compound. Returns each changed column's
  // final cell, in storage order.
  Result<Row> ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                 const std::vector<ReadModifyWriteRule>& rules);
  // Reads the row; if `predicate` leaves any cell (predicate nullptr: if the
  // row has any cell) applies `true_mutations`, else `false_mutations`, in
  // the same transaction. Returns whether the predicate matched.
  Result<bool> CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                 const std::optional<Filter>& predicate, const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations);
  // Deletes every row whose key starts with `prefix` ("" = every row).
  Status DropRowRange(std::string_view table, std::string_view prefix);
  // Physically removes every cell the table's GC rules make eligible, in
  // one transaction. `progress`, if set, hears the cells examined so far
  // now and then; returning an error from it stops and rolls back the pass.
  Result<GcStats> CollectGarbage(std::string_view table,
                                 const std::function<Status(int64_t cells)>& progress = nullptr);

  // ---- bulk loads ----

  // Starts a bulk load of rows in any order into `table` (see
  // storage/load/bulk_loader.h). Its temporary file goes to options.temp_dir, or
  // into this database's directory. The load must be destroyed before
  // this Database.
  Result<std::unique_ptr<BulkLoad>> NewBulkLoad(std::string_view table, const BulkLoadOptions& options);
  Result<std::unique_ptr<BulkLoad>> NewBulkLoad(std::string_view table) { return NewBulkLoad(table, {}); }

  // ---- reads ----

  // The rows of a read, through the request's filter, compiled here.
  Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request);
  // A streaming reader over a consistent snapshot of the table, through a
  // filter compiled already.
  Result<std::unique_ptr<RowReader>> NewReader(std::string_view table, const ReadOptions& options);
  // Reads one row; an absent (or fully filtered) row is an empty optional.
  Result<std::optional<Row>> ReadRow(std::string_view table, std::string_view row_key, const ReadOptions& options = {});
  // Reads many rows by key: one snapshot, one cursor, the keys visited in
  // sorted order (each seek starts from where the last one ended). Returns
  // one entry per key, in the order of `keys` (a key may repeat): the row,
  // or nullopt when it is absent or fully filtered. `options`' columns,
  // cells_per_column_limit and filter apply to each row on its own.
  // REQUIRES: options.rows is empty, options.reversed is false and
  // options.rows_limit is 0; options.filter keeps no state from row to row
  // (no ScanDone).
  Result<std::vector<std::optional<Row>>> LookupRows(std::string_view table, const std::vector<std::string>& keys,
                                                     const ReadOptions& options = {});
  // The same with a ReadRequest, whose filter is compiled here.
  Result<std::vector<std::optional<Row>>> LookupRows(std::string_view table, const std::vector<std::string>& keys,
                                                     const ReadRequest& request);
  // Counts the rows within `range` that have visible cells.
  Result<int64_t> CountRows(std::string_view table, const RowRange& range);
  Result<int64_t> CountRows(std::string_view table) { return CountRows(table, RowRange::All()); }

  // Row keys within `range` about `interval_bytes` of data apart, from the
  // stored rows' sizes, then the end marker; offsets count from the start
  // of the range. Reads the table's row index, not its cells.
  Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, uint64_t interval_bytes,
                                               const RowRange& range = RowRange::All());
  // A key about every 4 MiB, as lbt serve reports them.
  Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, const RowRange& range);

  // Rewrites the data file without free pages (LMDB's compacting copy).
  // Refused while another process has the database open.
  // REQUIRES: no reader of this database is alive and no other thread
  // uses it.
  Result<CompactStats> Compact();

  // Runs a collection pass over every table (what the background passes
  // of DatabaseOptions::gc_interval run). Returns the cells removed.
  Result<GcStats> CollectAllGarbage();

 private:
  friend class CatalogTxn;  // drops tables with RemoveTable
  // What a bulk load writes through (load/bulk_loader.h): Update, stores_.
  class LoadTarget;
  Database(std::string dir, DatabaseOptions options);
  Status Initialize();
  // Upgrades the database from stored_format_ to kCellFormatVersion, with the
  // directory alone (see storage/format/upgrade.h), then opens it again.
  Status Upgrade();
  // Opens the environment again (after its file was replaced) and reads
  // it as Open does.
  Status Reopen();
  // Empty stores, with this handle's GC mode.
  std::unique_ptr<Stores> NewStores() const;
  // Runs `fn` in a write transaction, growing the map and retrying when
  // full. With log_writes, every memtable is folded first, leaving out keys
  // that start with `fold_skipping` (non-empty: what `fn` deletes anyway),
  // and the log is emptied after `fn` commits.
  Status Update(const std::function<Status(Txn*)>& fn, std::string_view fold_skipping = {});
  // FailedPrecondition once the database's files were deleted under it.
  Status CheckFilesPresent() const;
  // `s`, or ResourceExhausted when a failed write met a full disk.
  Status ExplainWriteFailure(const Status& s) const;
  // Commits a write that changes nothing, so that the pages the last
  // commit freed can be reused by the next one (see the definition).
  Status SettleFreedPages();

  // Group commit (write_group.h): `step` runs in a transaction, and with
  // log_writes a log append and sync, shared with the steps other threads
  // queued meanwhile; returns once that transaction committed.
  Status UpdateGrouped(const std::function<Status(WriteScope& scope, bool* redo)>& step);
  // Idempotent writes (db_idempotency.cc). Makes the token table
  // (kIdempotencyTable) if it is missing.
  Status EnsureIdempotencyTable();
  // Applies `row` to `table` through `writer` as a step of a group, once
  // per idempotency token: a token applied within the window is a replay,
  // answered OK without writing. Without a token, just applies it.
  Status ApplyOnce(WriteScope& scope, RowWriter& writer, std::string_view table, const RowMutation& row, int64_t now);
  // One row's mutations, checked against the table's schema, as a step of
  // a group (MutateRow's and MutateRowAsync's).
  Status ApplyRowMutations(WriteScope& scope, std::string_view table, std::string_view row_key,
                           const std::vector<Mutation>& mutations);
  // Runs a batch of queued steps as one transaction; sets each one's status.
  void CommitGroup(const std::vector<PendingWrite*>& group);
  // The same with log_writes: one log append and sync for the group.
  void CommitGroupLogged(const std::vector<PendingWrite*>& group);
  // Runs the group's steps, each into a ChangeBatch of its own, and encodes
  // the log records of those that changed something. REQUIRES: write_mu_.
  Status RunLoggedSteps(const std::vector<PendingWrite*>& group, LoggedGroup* logged);
  // Adds a logged group to the memtable and makes it visible to reads.
  // REQUIRES: write_mu_; the group's records are in the log.
  void Publish(const LoggedGroup& logged);

  // ---- the write-ahead log and memtables (db_log.cc) ----

  // What a read sees now. `spare`: reuse a kept read transaction.
  Result<ReadView> BeginRead(bool spare = false);
  void EndRead(ReadView view);
  // Takes the directory's log lock (exclusive when logging, shared
  // otherwise), replays and folds whatever log a crash left, and with
  // log_writes starts the log and the fold thread.
  Status OpenLog();
  Status LogLockRefusal() const;
  // Stops the fold thread and folds everything, leaving no log behind.
  void CloseLog();
  // For a read-only open: says so when a log holds writes it cannot see.
  void NoteUnreplayedLog() const;
  // Replays the log segments into a memtable and folds it into LMDB.
  Status RecoverLog();
  // Starts a new memtable and log segment; the old ones wait to be folded.
  // REQUIRES: write_mu_ held.
  Status Freeze();
  // Folds the oldest frozen memtable into LMDB, if any. REQUIRES: fold_mu_.
  Result<bool> FoldOldest();
  // Writes one memtable into LMDB in synced transactions of bounded size,
  // leaving out keys that start with `skipping` (if not empty); the last
  // one records the memtable's last sequence as folded when
  // `record_folded`.
  Status FoldIntoLmdb(const MemTable& table, std::string_view skipping = {}, bool record_folded = true);
  // Folds the memtables, oldest first, recording nothing: the caller's
  // transaction records next_seq_ with RecordFolded.
  // REQUIRES: write_mu_ and fold_mu_ held.
  Status FoldLayersBefore(const MemLayers& layers, std::string_view skipping);
  Status RecordFolded(Txn* txn);
  // After the write that RecordFolded recorded committed: one empty
  // memtable, and no log records.
  // REQUIRES: write_mu_ and fold_mu_ held.
  void ForgetFolded();
  void RunFolds();
  // Frozen memtables not yet folded.
  size_t FrozenCount();
  // Brings the readers' catalog up to date with `txn` and returns the
  // table's spec as `txn` sees it; it stays valid after other reads.
  Result<std::shared_ptr<const TableSpec>> ReadSpec(Txn* txn, std::string_view table, bool require_enabled);
  Status ChangeTableFlag(std::string_view table, bool TableSpec::*flag, bool value);
  // Removes table `name` from the catalog in `txn`, noting it as a
  // pending drop (format/record_keys.h) and its id in *dropped, and forgets
  // its IAM policies: a new table of the same name starts without one.
  Status RemoveTable(Txn* txn, std::string_view name, std::vector<TableId>* dropped);
  // The table's spec, in the open write transaction, if it may be deleted:
  // NotFound, or FailedPrecondition for it or a view of it protected.
  Result<const TableSpec*> RequireDeletable(std::string_view table);
  // Deletes in `txn` the IAM policy under `key` and those of the resources
  // under it (a table's authorized views'): a resource created under a
  // name once used starts without a policy.
  Status ForgetIamPolicies(Txn* txn, const std::string& key);
  // Deletes the cells, row sizes and changes of tables already removed
  // from the catalog, in bounded transactions, then their pending-drop
  // records.
  Status DeleteCellsOf(const std::vector<TableId>& ids);
  // Finishes the deletions a crash cut short (their pending-drop records).
  Status FinishInterruptedDrops();
  // The spec of an enabled table, for writes of its data.
  // REQUIRES: write_mu_ held.
  Result<const TableSpec*> RequireEnabled(std::string_view table);
  // A kept read transaction renewed to a fresh snapshot, or a new one.
  Result<std::unique_ptr<Txn>> TakeSpareRead();
  // Resets `txn` and keeps it for a later TakeSpareRead.
  void ReturnSpareRead(std::unique_ptr<Txn> txn);

  std::string dir_;
  DatabaseOptions options_;
  std::unique_ptr<LmdbEnv> env_;
  int stored_format_ = kCellFormatVersion;  // as Initialize found it
  // Writes the format version (kLiveLogFormatVersion while a log is in
  // use, kAtRestFormatVersion otherwise); notes the move from 2 or 3.
  Status SetFormatVersion(int version);
  // stores_->catalog is the writers' cache of the schema, guarded by
  // write_mu_; readers keep their own, which may lag or lead it.
  std::unique_ptr<Stores> stores_;
  std::mutex write_mu_;
  std::unique_ptr<WriteGroupQueue> write_queue_;  // the grouped writes waiting to commit
  std::mutex read_mu_;                            // guards read_catalog_ and spare_reads_
  std::unique_ptr<Catalog> read_catalog_;
  // Point lookups reuse reset read transactions instead of beginning new ones.
  std::vector<std::unique_ptr<Txn>> spare_reads_;
  // A shared flock on DIR/lbt.lock while open; Compact takes it exclusive.
  int lock_fd_ = -1;

  // The log (log_writes). Written by the group leader under write_mu_.
  std::unique_ptr<WriteLog> log_;
  // Closed segments not yet folded: (last sequence in it, path). Guarded
  // by layers_mu_.
  std::vector<std::pair<uint64_t, std::string>> closed_segments_;
  bool log_unsynced_ = false;  // records appended since the last sync (write_mu_)
  std::chrono::steady_clock::time_point last_write_;
  uint64_t next_seq_ = 0;                    // the last sequence given to a write (write_mu_)
  std::shared_ptr<MemTable> active_;         // write_mu_
  std::mutex layers_mu_;                     // guards layers_ and published_seq_
  std::shared_ptr<const MemLayers> layers_;  // active first, then frozen, newest first
  uint64_t published_seq_ = 0;               // reads see writes up to this one
  std::mutex fold_mu_;                       // held while folding
  std::condition_variable fold_cv_;          // with layers_mu_: a freeze, a fold, or stopping
  bool fold_stopping_ = false;
  std::thread fold_thread_;
  int log_lock_fd_ = -1;  // DIR/wal.lock

  // ---- change streams (db_change_stream.cc) ----
  friend class ChangeLogStream;
  // With a change stream: records the deletion of every row under
  // `key_prefix` that `txn` and the memtables hold. REQUIRES: inside
  // Update's fn (write_mu_ held).
  Status RecordDroppedRows(Txn* txn, const TableSpec& spec, std::string_view key_prefix);
  // A commit time every change up to which a snapshot begun after this
  // call shows: below the clock, and below the commit times of the write
  // in flight, if any. *exact says whether that holds for certain (a
  // database written through a log, by this process alone); otherwise
  // the horizon is an estimate a second behind, for watermarks and end
  // times, and positions go no further than the changes seen.
  int64_t ChangeHorizon(bool* exact) const;
  // The commit time of the table's last recorded change, or -1 when it has
  // none: with the clock, the furthest position a token can name.
  Result<int64_t> LastChangeCommit(TableId table);
  // InvalidArgument unless every position of `after` (decoded from
  // `resume`'s tokens, in order) is one the table's stream has reached by
  // `now`.
  Status CheckTokensReached(const TableSpec& spec, std::string_view table,
                            const std::vector<ChangeStreamPosition>& resume,
                            const std::vector<std::pair<RowRange, int64_t>>& after, int64_t now);
  // The clock when the write now in flight in this process began (Update
  // or a logged group), INT64_MAX when none: a write takes its commit
  // times after it and becomes visible before clearing it.
  std::atomic<int64_t> in_flight_since_{INT64_MAX};
  struct InFlight;
  void RunChangeLogPrunes();
  std::mutex prune_mu_;  // guards prune_stopping_
  std::condition_variable prune_cv_;
  bool prune_stopping_ = false;
  std::thread prune_thread_;

  // Background collection passes (GcMode::kLazy with a gc_interval).
  void RunGcPasses();
  std::mutex gc_mu_;  // guards gc_stopping_; held by a pass and by Compact
  std::condition_variable gc_cv_;
  bool gc_stopping_ = false;
  std::thread gc_thread_;
};

}  // namespace lbt

#endif  // LBT_STORAGE_DATABASE_H_
