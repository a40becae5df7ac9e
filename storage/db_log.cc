// The Database's write-ahead log and memtables (DatabaseOptions::log_writes).
//
// A group of row writes runs against LMDB under the memtables, each write
// collecting its changes in a ChangeBatch. The group's batches go to the log
// in one append and one sync, into the active memtable, and only then
// become visible to reads (published_seq_), so a read never sees a write
// that a crash could take back. The active memtable is frozen when full,
// or when writes go idle, and a background thread folds frozen ones into
// LMDB in key order, in synced transactions of bounded size, the last of
// which records the last sequence folded; their log segments are deleted
// after.
//
// Opening replays, into a memtable, the records a crash left after the
// last folded sequence, folds it, and deletes the segments.
//
// A record (WARNING: part of the on-disk format):
//   kind         1 byte: kRecordChanges
//   sequence     8 bytes, big-endian
//   changes, each key once, as a ChangeBatch's body (kv/change_batch.h):
//     store      1 byte: StoreTag ('h', the change log, since the
//                changes store: an older lbt refuses such a record)
//     op         1 byte: 0 put, 1 delete
//     key        4-byte big-endian length, bytes
//     value      4-byte big-endian length, bytes (puts only)

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "storage/database_internal.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/mem_table.h"
#include "storage/kv/store_view.h"
#include "storage/kv/write_log.h"
#include "util/background_thread.h"
#include "util/bytes.h"

namespace lbt {

namespace fs = std::filesystem;

namespace {

constexpr char kRecordChanges = 1;
constexpr std::string_view kMetaFoldedSeq = "log_folded_seq";
// A memtable this large is frozen and folded; with two frozen ones waiting,
// writes wait for a fold (back-pressure). Memory for writes stays under
// three times this.
constexpr size_t kMemTableBytes = 16u << 20;
constexpr size_t kMaxFrozen = 2;
// Entries a background fold writes per transaction (see FoldIntoLmdb).
constexpr size_t kFoldChunkEntries = 4096;
// Writes idle this long are folded, so that other processes see them.
constexpr auto kIdleFold = std::chrono::milliseconds(500);

// Removes log segments whose records are all folded; one that stays is
// harmless (replay skips folded sequences).
void RemoveFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::remove(path, ec);
  }
}

std::string SegmentPath(const std::string& dir, uint64_t first_seq) {
  return (fs::path(dir) / fmt::format("wal-{:020}.log", first_seq)).string();
}

// The directory's log segments, oldest first.
std::vector<std::string> ListSegments(const std::string& dir) {
  std::vector<std::string> segments;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("wal-") && name.ends_with(".log")) segments.push_back(entry.path().string());
  }
  std::sort(segments.begin(), segments.end());
  return segments;
}

// The write's record: its batch's body (change_batch.h) under the header.
std::string_view SealRecord(uint64_t seq, ChangeBatch* batch) {
  std::string header(1, kRecordChanges);
  AppendBigEndian(&header, seq, 8);
  return batch->SealRecord(header);
}

bool TakeBytes(std::string_view* in, size_t n, std::string_view* out) {
  if (in->size() < n) return false;
  *out = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}

bool TakeLengthPrefixed(std::string_view* in, std::string_view* out) {
  std::string_view length;
  return TakeBytes(in, 4, &length) && TakeBytes(in, DecodeBigEndian(length), out);
}

// Adds a record's changes to `table`; returns its sequence.
Result<uint64_t> ReplayRecord(std::string_view record, uint64_t folded, MemTable* table) {
  std::string_view kind, seq_bytes;
  if (!TakeBytes(&record, 1, &kind) || kind[0] != kRecordChanges || !TakeBytes(&record, 8, &seq_bytes)) {
    return Status::Corruption("a write-ahead log record is malformed");
  }
  const uint64_t seq = DecodeBigEndian(seq_bytes);
  while (!record.empty()) {
    std::string_view head, key, value;
    if (!TakeBytes(&record, 2, &head) ||
        (head[0] != static_cast<char>(StoreTag::kCells) && head[0] != static_cast<char>(StoreTag::kRows) &&
         head[0] != static_cast<char>(StoreTag::kChanges)) ||
        !TakeLengthPrefixed(&record, &key) || (head[1] == 0 && !TakeLengthPrefixed(&record, &value))) {
      return Status::Corruption("a write-ahead log record is malformed");
    }
    if (seq > folded) table->Add(static_cast<StoreTag>(head[0]), key, seq, head[1] != 0, value);
  }
  return seq;
}

}  // namespace

// ---- reads ----

Result<ReadView> Database::BeginRead(bool spare) {
  ReadView view;
  if (log_ == nullptr) {
    LBT_ASSIGN_OR_RETURN(view.txn, spare ? TakeSpareRead() : Txn::Begin(env_.get(), /*write=*/false));
    return view;
  }
  // The memtables and the snapshot are taken together: a fold commits to
  // LMDB before it drops its memtable, so whatever a read misses in one it
  // finds in the other.
  std::lock_guard<std::mutex> lock(layers_mu_);
  view.layers = layers_;
  view.seq = published_seq_;
  LBT_ASSIGN_OR_RETURN(view.txn, spare ? TakeSpareRead() : Txn::Begin(env_.get(), /*write=*/false));
  return view;
}

void Database::EndRead(ReadView view) {
  if (view.txn != nullptr) ReturnSpareRead(std::move(view.txn));
}

// ---- opening and closing ----

// Why the log's lock cannot be had alone: another server holds it alone,
// or processes that write directly (shells, scripts, programs) share it.
Status Database::LogLockRefusal() const {
  const bool shared_by_others = ::flock(log_lock_fd_, LOCK_SH | LOCK_NB) == 0;
  if (shared_by_others) ::flock(log_lock_fd_, LOCK_UN);
  if (!shared_by_others) {
    return Status::FailedPrecondition(fmt::format(
        "'{}' is open for writing in another process, a server keeping its own write-ahead log; stop it first", dir_));
  }
  return Status::FailedPrecondition(
      fmt::format("'{}' is open for writing in another process (an lbt shell or script, or a program); a server "
                  "keeping a write-ahead log needs it alone: close that process and start again, or serve beside "
                  "it with --no-write-log",
                  dir_));
}

Status Database::OpenLog() {
  // DIR/wal.lock: a process keeping writes in a log holds it alone; one
  // writing LMDB directly holds it shared, so that the two never run side
  // by side (the direct writes would land under the log's, out of order).
  log_lock_fd_ = ::open((fs::path(dir_) / kLogLockFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (log_lock_fd_ < 0) return Status::IOError(fmt::format("cannot open {}/{}", dir_, kLogLockFile));
  if (options_.log_writes && ::flock(log_lock_fd_, LOCK_EX | LOCK_NB) != 0) return LogLockRefusal();
  if (!options_.log_writes) {
    if (::flock(log_lock_fd_, LOCK_SH | LOCK_NB) != 0) {
      return Status::FailedPrecondition(
          fmt::format("'{}' is open in a server (lbt serve) that keeps recent writes in its write-ahead log; write "
                      "through the server, or stop it first",
                      dir_));
    }
    if (ListSegments(dir_).empty()) return SetFormatVersion(kAtRestFormatVersion);
    // A log a crashed server left: replay it, alone.
    if (::flock(log_lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      return Status::Unavailable(fmt::format(
          "'{}' has a write-ahead log to recover and other processes have it open; close them and retry", dir_));
    }
    Status s = RecoverLog();
    ::flock(log_lock_fd_, LOCK_SH);
    return s;
  }
  LBT_RETURN_IF_ERROR(RecoverLog());
  // Before the log holds anything, an lbt that knows no log must refuse
  // the database.
  LBT_RETURN_IF_ERROR(SetFormatVersion(kLiveLogFormatVersion));
  {
    LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
    std::string_view folded;
    LBT_ASSIGN_OR_RETURN(bool found, txn->Get(stores_->meta, kMetaFoldedSeq, &folded));
    next_seq_ = found ? DecodeBigEndian(folded) : 0;
  }
  published_seq_ = next_seq_;
  active_ = std::make_shared<MemTable>();
  auto layers = std::make_shared<MemLayers>();
  layers->tables.push_back(active_);
  layers_ = std::move(layers);
  LBT_ASSIGN_OR_RETURN(log_, WriteLog::Open(SegmentPath(dir_, next_seq_ + 1), 0));
  last_write_ = std::chrono::steady_clock::now();
  fold_thread_ = StartBackgroundThread([this] { RunFolds(); });
  return Status::OK();
}

void Database::NoteUnreplayedLog() const {
  if (options_.note && !ListSegments(dir_).empty()) {
    options_.note(
        fmt::format("'{}' has a write-ahead log that a read-only open cannot replay: reads show the "
                    "database without its latest writes (open it once for writing to fold them in)",
                    dir_));
  }
}

Status Database::SetFormatVersion(int version) {
  if (stored_format_ == version) return Status::OK();
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/true));
  LBT_RETURN_IF_ERROR(txn->Put(stores_->meta, kMetaFormatVersion, std::to_string(version)));
  LBT_RETURN_IF_ERROR(txn->Commit());
  if (stored_format_ < kAtRestFormatVersion && version >= kAtRestFormatVersion && options_.note) {
    options_.note(
        fmt::format("'{}' is now format {} (nothing was rewritten): lbt builds that read format {} "
                    "or older no longer open it",
                    dir_, kAtRestFormatVersion, kLogFormatVersion));
  }
  stored_format_ = version;
  return Status::OK();
}

Status Database::RecoverLog() {
  const std::vector<std::string> segments = ListSegments(dir_);
  if (segments.empty()) return options_.log_writes ? Status::OK() : SetFormatVersion(kAtRestFormatVersion);
  uint64_t folded = 0;
  {
    LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
    std::string_view stored;
    LBT_ASSIGN_OR_RETURN(bool found, txn->Get(stores_->meta, kMetaFoldedSeq, &stored));
    if (found) folded = DecodeBigEndian(stored);
  }
  MemTable table;
  uint64_t records = 0;
  for (const std::string& path : segments) {
    // A torn end was never acknowledged: reading stops before it.
    LBT_RETURN_IF_ERROR(ReadWriteLog(path, [&](std::string_view record) -> Status {
                          LBT_ASSIGN_OR_RETURN(uint64_t seq, ReplayRecord(record, folded, &table));
                          if (seq > folded) ++records;
                          return Status::OK();
                        }).status());
  }
  if (table.entries() > 0) LBT_RETURN_IF_ERROR(FoldIntoLmdb(table));
  RemoveFiles(segments);
  if (records > 0 && options_.note) {
    options_.note(fmt::format("recovered {} write{} from the write-ahead log", records, records == 1 ? "" : "s"));
  }
  return options_.log_writes ? Status::OK() : SetFormatVersion(kAtRestFormatVersion);
}

void Database::CloseLog() {
  if (log_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    fold_stopping_ = true;
  }
  fold_cv_.notify_all();
  if (fold_thread_.joinable()) fold_thread_.join();
  // A failure leaves the log for the next open to replay.
  if (Update([](Txn*) { return Status::OK(); }).ok()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    const std::string path = log_->path();
    log_.reset();
    std::error_code ec;
    fs::remove(path, ec);
    // Nothing is left in a log: any lbt of format 4 may open it again.
    (void)SetFormatVersion(kAtRestFormatVersion);
  }
}

// ---- writing ----

void Database::CommitGroupLogged(const std::vector<PendingWrite*>& group) {
  std::unique_lock<std::mutex> lock(write_mu_);
  auto fail_all = [&](const Status& s) {
    for (PendingWrite* w : group) w->status = s;
  };
  if (Status s = CheckFilesPresent(); !s.ok()) return fail_all(s);
  // Back-pressure: writes wait while folds are behind.
  while (FrozenCount() >= kMaxFrozen) {
    std::unique_lock<std::mutex> layers_lock(layers_mu_);
    fold_cv_.wait_for(layers_lock, std::chrono::milliseconds(50));
  }
  InFlight in_flight(this);
  LoggedGroup logged;
  if (Status s = RunLoggedSteps(group, &logged); !s.ok()) return fail_all(s);
  if (logged.records.empty()) return;
  Status s = log_->Append(logged.records);
  // With sync off the fold thread syncs within kLogSyncInterval.
  if (s.ok() && options_.sync) s = log_->Sync();
  log_unsynced_ = s.ok() && !options_.sync;
  if (!s.ok()) {
    s = ExplainWriteFailure(s);
    for (PendingWrite* w : logged.writes) w->status = s;
    return;
  }
  Publish(logged);
  if (active_->memory_bytes() >= kMemTableBytes) (void)Freeze();
}

Status Database::RunLoggedSteps(const std::vector<PendingWrite*>& group, LoggedGroup* logged) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Txn> txn, Txn::Begin(env_.get(), /*write=*/false));
  std::shared_ptr<const MemLayers> layers;
  {
    std::lock_guard<std::mutex> layers_lock(layers_mu_);
    layers = layers_;
  }
  LBT_RETURN_IF_ERROR(stores_->catalog.Refresh(txn.get()));
  // Each write sees the group's earlier ones (`batches`), which reach the
  // memtable, and reads, only once the log has them.
  uint64_t seq = next_seq_;
  for (PendingWrite* w : group) {
    ChangeBatch batch;
    WriteScope scope{
        txn.get(),
        StoreView(txn.get(), &stores_->cells, StoreTag::kCells, layers.get(), UINT64_MAX, &batch, &logged->batches),
        StoreView(txn.get(), &stores_->rows, StoreTag::kRows, layers.get(), UINT64_MAX, &batch, &logged->batches),
        StoreView(txn.get(), &stores_->changes, StoreTag::kChanges, layers.get(), UINT64_MAX, &batch, &logged->batches),
        &batch,
        stores_->lazy_gc};
    bool redo = false;
    w->status = (*w->step)(scope, &redo);
    if (!w->status.ok() || batch.empty()) continue;
    logged->records.push_back(SealRecord(++seq, &batch));
    logged->batches.push_back(std::move(batch));  // the record's bytes stay where they are
    logged->writes.push_back(w);
  }
  return Status::OK();
}

void Database::Publish(const LoggedGroup& logged) {
  for (size_t i = 0; i < logged.batches.size(); ++i) {
    const uint64_t write_seq = next_seq_ + 1 + i;
    for (StoreTag tag : kAllStoreTags) {
      logged.batches[i].ForEach(tag, [&](const ChangeBatch::Change& c) {
        active_->Add(tag, c.key, write_seq, !c.value.has_value(), c.value.value_or(std::string_view()));
      });
    }
  }
  next_seq_ += logged.batches.size();
  last_write_ = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> layers_lock(layers_mu_);
  published_seq_ = next_seq_;
}

Status Database::Freeze() {
  if (active_->entries() == 0) return Status::OK();
  // The new segment starts before the memtable is swapped, so that a
  // failure changes nothing.
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<WriteLog> next, WriteLog::Open(SegmentPath(dir_, next_seq_ + 1), 0));
  if (!options_.sync) {
    LBT_RETURN_IF_ERROR(log_->Sync());
    log_unsynced_ = false;
  }
  const std::string closed = log_->path();
  log_ = std::move(next);
  auto fresh = std::make_shared<MemTable>();
  auto layers = std::make_shared<MemLayers>();
  layers->tables.push_back(fresh);
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    closed_segments_.emplace_back(active_->max_seq(), closed);
    for (const auto& t : layers_->tables) layers->tables.push_back(t);
    layers_ = std::move(layers);
  }
  active_ = std::move(fresh);
  fold_cv_.notify_all();
  return Status::OK();
}

size_t Database::FrozenCount() {
  std::lock_guard<std::mutex> lock(layers_mu_);
  return layers_->tables.size() - 1;
}

// ---- folding ----

namespace {

// Writes up to `limit` of the walker's entries (0: all) into `txn`,
// leaving out keys that start with `skipping` (if not empty). Returns
// whether entries remain.
Result<bool> FoldEntries(Txn* txn, const Stores& stores, MemTable::Walker* walker, std::string_view skipping,
                         size_t limit) {
  // The walker gives each store's keys in order: a kept cursor per store
  // puts most of them from the page of the one before.
  std::unique_ptr<OrderedStore::SortedWriter> writers[3];
  auto writer_for = [&](StoreTag tag) -> Result<OrderedStore::SortedWriter*> {
    const int slot = StoreIndex(tag);
    if (writers[slot] == nullptr) {
      const OrderedStore& store = slot == 0 ? stores.cells : slot == 1 ? stores.rows : stores.changes;
      LBT_ASSIGN_OR_RETURN(writers[slot], store.NewSortedWriter(txn));
    }
    return writers[slot].get();
  };
  MemEntry e;
  for (size_t n = 0; limit == 0 || n < limit; ++n) {
    if (!walker->Next(&e)) return false;
    // What a drop skips is cells and rows: the change log keeps the
    // changes made before it.
    if (!skipping.empty() && e.store != StoreTag::kChanges && e.key.starts_with(skipping)) continue;
    LBT_ASSIGN_OR_RETURN(OrderedStore::SortedWriter * writer, writer_for(e.store));
    if (e.deleted) {
      LBT_RETURN_IF_ERROR(writer->Delete(e.key).status());
    } else {
      LBT_RETURN_IF_ERROR(writer->Put(e.key, e.value));
    }
  }
  return true;
}

Status PutFoldedSeq(Txn* txn, const Stores& stores, uint64_t seq) {
  std::string folded;
  AppendBigEndian(&folded, seq, 8);
  return txn->Put(stores.meta, kMetaFoldedSeq, folded);
}

}  // namespace

Status Database::FoldIntoLmdb(const MemTable& table, std::string_view skipping, bool record_folded) {
  // In transactions of kFoldChunkEntries: LMDB keeps the memory of a
  // transaction's dirty pages for later ones, so one transaction per
  // memtable held up to a page per entry for good. A crash between chunks
  // is harmless: the last sequence folded is written with the last chunk,
  // and replaying the records again writes the same final values.
  MemTable::Walker walker(&table);
  for (bool more = true; more;) {
    const MemTable::Walker chunk_start = walker;
    for (int attempt = 0;; ++attempt) {
      LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/true));
      Result<bool> folded = FoldEntries(txn.get(), *stores_, &walker, skipping, kFoldChunkEntries);
      Status s = folded.status();
      if (s.ok() && !*folded && record_folded) s = PutFoldedSeq(txn.get(), *stores_, table.max_seq());
      if (s.ok()) s = txn->Commit();
      const bool map_full = txn->map_full();
      txn.reset();
      if (s.ok()) {
        more = *folded;
        break;
      }
      if (!map_full || attempt >= 40) return ExplainWriteFailure(s);
      LBT_RETURN_IF_ERROR(env_->GrowMap());
      walker = chunk_start;
    }
  }
  return Status::OK();
}

Status Database::FoldLayersBefore(const MemLayers& layers, std::string_view skipping) {
  for (auto it = layers.tables.rbegin(); it != layers.tables.rend(); ++it) {
    LBT_RETURN_IF_ERROR(FoldIntoLmdb(**it, skipping, /*record_folded=*/false));
  }
  return Status::OK();
}

Status Database::RecordFolded(Txn* txn) { return PutFoldedSeq(txn, *stores_, next_seq_); }

void Database::ForgetFolded() {
  std::vector<std::string> doomed;
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    active_ = std::make_shared<MemTable>();
    auto layers = std::make_shared<MemLayers>();
    layers->tables.push_back(active_);
    layers_ = std::move(layers);
    for (auto& [seq, path] : closed_segments_) doomed.push_back(path);
    closed_segments_.clear();
  }
  fold_cv_.notify_all();
  RemoveFiles(doomed);
  // Every record is folded; a failure to clear leaves records that replay
  // skips (their sequences are folded).
  (void)log_->Clear();
}

Result<bool> Database::FoldOldest() {
  std::shared_ptr<MemTable> oldest;
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    if (layers_->tables.size() < 2) return false;
    oldest = layers_->tables.back();
  }
  LBT_RETURN_IF_ERROR(FoldIntoLmdb(*oldest));
  // The segments of what was folded are no longer needed.
  std::vector<std::string> doomed;
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    auto layers = std::make_shared<MemLayers>(*layers_);
    layers->tables.pop_back();
    layers_ = std::move(layers);
    while (!closed_segments_.empty() && closed_segments_.front().first <= oldest->max_seq()) {
      doomed.push_back(closed_segments_.front().second);
      closed_segments_.erase(closed_segments_.begin());
    }
  }
  fold_cv_.notify_all();
  RemoveFiles(doomed);
  return true;
}

void Database::RunFolds() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(layers_mu_);
      // With sync off it wakes often enough to sync the log in time.
      const auto wake = options_.sync ? kIdleFold / 2 : kLogSyncInterval / 2;
      fold_cv_.wait_for(lock, wake, [this] { return fold_stopping_ || layers_->tables.size() > 1; });
      if (fold_stopping_) return;
    }
    {
      std::lock_guard<std::mutex> lock(fold_mu_);
      (void)FoldOldest();  // a failure is retried on the next round
    }
    std::lock_guard<std::mutex> write_lock(write_mu_);
    // With sync off, what was acknowledged unsynced is synced now: a power
    // loss takes at most the last kLogSyncInterval of writes.
    if (log_unsynced_ && log_->Sync().ok()) log_unsynced_ = false;
    // Idle writes are frozen so that they fold, and other processes see them.
    if (std::chrono::steady_clock::now() - last_write_ >= kIdleFold) (void)Freeze();
  }
}

}  // namespace lbt
