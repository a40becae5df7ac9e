// Change streams of a Database: turning them on and off, recording drops,
// pruning what the retention no longer keeps, and reading them
// (api/change_stream.h; the log's layout is storage/format/change_log.h).
//
// A reader polls: each poll reads the table's changes after the last
// commit it looked at from a fresh snapshot, in commit order. Commit times
// are given in commit order and a write becomes visible only whole, in
// that order, so a snapshot that shows a change at time T shows every
// change before T: the position a reader has looked up to is exact, and
// no change can appear behind it later. This holds across processes too:
// a writer picks its commit time inside its write transaction.

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <thread>

#include "storage/database_internal.h"
#include "storage/format/change_log.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "util/bytes.h"

namespace lbt {

namespace {

// Changes one poll reads at most: memory stays bounded however far behind
// a reader starts.
constexpr size_t kPollChanges = 512;
// How often an idle reader looks for new changes.
constexpr std::chrono::milliseconds kPollInterval{25};
// Another process writing LMDB directly takes its commit time inside its
// transaction, unseen by this one: a commit up to this much older than the
// clock may still appear (see ChangeHorizon).
constexpr int64_t kOtherProcessLagMicros = 1'000'000;
// How far in the future a start time may be.
constexpr int64_t kClockSkewMicros = 1'000'000;
// Changes a pruning transaction deletes at most.
constexpr size_t kPruneChunk = 4096;
// Partitions are split at about this much data (SampleRowKeys' interval),
// and there are at most kMaxPartitions of them.
constexpr uint64_t kPartitionBytes = 4u << 20;
constexpr size_t kMaxPartitions = 16;

}  // namespace

// ---- configuration ----

Status Database::SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) {
  if (config) {
    LBT_RETURN_IF_ERROR(
        ValidateChangeStreamRetention(config->retention_micros, "change_stream_config.retention_period"));
  }
  bool dropped = false;
  TableId id = 0;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
    TableSpec changed = *spec;
    id = spec->id;
    dropped = spec->change_stream.has_value() && !config.has_value();
    if (config) {
      changed.change_stream = ChangeStreamConfig{
          config->retention_micros, spec->change_stream ? spec->change_stream->enabled_micros : NowMicros()};
    } else {
      changed.change_stream.reset();
    }
    return stores_->catalog.Store(txn, changed);
  }));
  if (!dropped) return Status::OK();
  // Off: what it kept goes, in bounded transactions. Reads of a stream
  // enabled again never reach back before it was.
  const std::string from = TablePrefix(id), to = PrefixSuccessor(from);
  for (size_t deleted = 1; deleted > 0;) {
    LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
      LBT_ASSIGN_OR_RETURN(deleted, DeleteKeys(txn, stores_->changes, from, to, kPruneChunk));
      return Status::OK();
    }));
  }
  return SettleFreedPages();
}

// ---- writes that record ----

Status Database::RecordDroppedRows(Txn* txn, const TableSpec& spec, std::string_view key_prefix) {
  // The rows as the drop sees them: LMDB under the memtables, which still
  // hold the keys the drop skips folding.
  std::shared_ptr<const MemLayers> layers;
  {
    std::lock_guard<std::mutex> lock(layers_mu_);
    layers = layers_;
  }
  StoreView rows(txn, &stores_->rows, StoreTag::kRows, layers.get(), UINT64_MAX, nullptr);
  ChangeRecorder recorder(StoreView(txn, &stores_->changes, StoreTag::kChanges), &spec, NowMicros());
  const size_t table_prefix = TablePrefix(spec.id).size();
  std::vector<std::string> dropped;
  {
    LBT_ASSIGN_OR_RETURN(auto it, rows.NewIterator());
    for (it->Seek(key_prefix); it->Valid() && it->key().starts_with(key_prefix); it->Next()) {
      std::string_view rest = it->key().substr(table_prefix);
      if (!ConsumeEscaped(&rest, &dropped.emplace_back())) return Status::Corruption("a row index key does not decode");
    }
    LBT_RETURN_IF_ERROR(it->status());
  }
  for (const std::string& row : dropped) {
    LBT_RETURN_IF_ERROR(recorder.Record(DataChange::Type::kUser, row, {Mutation::DeleteFromRow()}));
  }
  return Status::OK();
}

int64_t Database::ChangeHorizon(bool* exact) const {
  const int64_t now = NowMicros();
  const int64_t in_flight = in_flight_since_.load();
  // A write of this process takes its commit time no earlier than its
  // in_flight_since_, and a later one no earlier than `now`. With a log,
  // no other process writes; without, another may be in the middle of a
  // write it took its time for earlier.
  const int64_t horizon = std::min(now, in_flight) - 1;
  *exact = log_ != nullptr;
  return *exact ? horizon : horizon - kOtherProcessLagMicros;
}

Result<int64_t> Database::LastChangeCommit(TableId table) {
  if (!stores_->has_changes) return -1;
  LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead(/*spare=*/true));
  int64_t last = -1;
  Status s = [&]() -> Status {
    const std::string prefix = TablePrefix(table);
    LBT_ASSIGN_OR_RETURN(auto it, view.changes(stores_->changes).NewIterator());
    it->SeekForPrev(ChangeKey(table, INT64_MAX));
    if (it->Valid() && it->key().starts_with(prefix) && !DecodeChangeCommit(it->key(), prefix.size(), &last)) {
      return Status::Corruption("a change log key is malformed");
    }
    return it->status();
  }();
  EndRead(std::move(view));
  LBT_RETURN_IF_ERROR(s);
  return last;
}

// ---- pruning ----

Result<int64_t> Database::PruneChangeLogs() {
  if (options_.read_only || !stores_->has_changes) return 0;
  std::vector<std::pair<TableId, int64_t>> cutoffs;  // (table, first commit kept)
  {
    LBT_ASSIGN_OR_RETURN(ReadView view, BeginRead());
    std::lock_guard<std::mutex> lock(read_mu_);
    LBT_RETURN_IF_ERROR(read_catalog_->Refresh(view.txn.get()));
    for (const std::string& name : read_catalog_->TableNames()) {
      const TableSpec* spec = read_catalog_->Find(name);
      if (spec != nullptr && spec->change_stream) {
        cutoffs.emplace_back(spec->id, NowMicros() - spec->change_stream->retention_micros);
      }
    }
  }
  // Each chunk is a transaction of its own that never takes the writers'
  // lock: what it deletes was folded into LMDB long ago, and logged writes
  // never touch LMDB. LMDB serializes it with direct writers and folds.
  int64_t total = 0;
  for (const auto& [id, cutoff] : cutoffs) {
    const std::string from = TablePrefix(id), to = ChangeKey(id, cutoff);
    for (size_t deleted = 1; deleted > 0;) {
      LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/true));
      LBT_ASSIGN_OR_RETURN(deleted, DeleteKeys(txn.get(), stores_->changes, from, to, kPruneChunk));
      LBT_RETURN_IF_ERROR(txn->Commit());
      total += static_cast<int64_t>(deleted);
    }
  }
  return total;
}

void Database::RunChangeLogPrunes() {
  std::unique_lock<std::mutex> lock(prune_mu_);
  // Soon after opening, then now and then.
  for (auto wait = std::chrono::milliseconds(2000); !prune_cv_.wait_for(lock, wait, [this] { return prune_stopping_; });
       wait = std::chrono::minutes(5)) {
    (void)PruneChangeLogs();  // a failure (a full disk) is tried again next time
  }
}

// ---- partitions ----

Result<std::vector<RowRange>> Database::ChangeStreamPartitions(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
  if (!spec.change_stream) return ChangeStreamOff(table);
  LBT_ASSIGN_OR_RETURN(std::vector<KeySample> all, SampleRowKeys(table, kPartitionBytes, RowRange::All()));
  // At most kMaxPartitions: every k-th split key of a table with many.
  const size_t splits = all.size() - 1;
  const size_t step = (splits + kMaxPartitions - 1) / kMaxPartitions;
  std::vector<RowRange> partitions;
  std::string start;
  for (size_t i = step == 0 ? splits : step - 1; i < splits; i += step) {
    if (all[i].row_key <= start) continue;
    partitions.push_back(RowRange::ClosedOpen(start, all[i].row_key));
    start = all[i].row_key;
  }
  partitions.push_back(RowRange::ClosedOpen(start, ""));
  return partitions;
}

// ---- reading ----

class ChangeLogStream final : public ChangeStream {
 public:
  // `after`: the positions of request.resume's tokens, decoded.
  // `enabled_micros`: when the stream being read was enabled; one turned
  // off and on since has lost changes in between, and ends the read.
  ChangeLogStream(Database* db, std::string table, TableId id, int64_t enabled_micros, ChangeStreamRequest request,
                  std::vector<std::pair<RowRange, int64_t>> after)
      : db_(db),
        table_(std::move(table)),
        id_(id),
        enabled_micros_(enabled_micros),
        request_(std::move(request)),
        after_(std::move(after)) {
    if (request_.resume.empty()) {
      scanned_ = request_.start_micros - 1;
    } else {
      scanned_ = INT64_MAX;
      for (const auto& [range, after] : after_) {
        scanned_ = std::min(scanned_, after);
        max_after_ = std::max(max_after_, after);
      }
    }
    position_ = watermark_ = scanned_;
  }

  Result<std::optional<DataChange>> Next(std::chrono::milliseconds wait) override {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
      if (!ready_.empty()) {
        DataChange change = std::move(ready_.front());
        ready_.pop_front();
        position_ = watermark_ = change.commit_micros;
        if (ready_.empty()) Settle();
        return std::optional<DataChange>(std::move(change));
      }
      if (finished_) return std::optional<DataChange>();
      LBT_RETURN_IF_ERROR(Poll());
      // Behind: read on at once (each poll reads a bounded part).
      if (!ready_.empty() || finished_ || !at_end_) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return std::optional<DataChange>();
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kPollInterval, deadline - now));
    }
  }

  std::string token() const override { return EncodeChangeStreamToken({id_, position_}); }
  int64_t low_watermark() const override { return watermark_; }
  bool finished() const override { return finished_ && ready_.empty(); }

 private:
  // Whether the change of `row` at `commit` is this stream's to return.
  bool Wanted(std::string_view row, int64_t commit) const {
    if (!request_.partition.Contains(row)) return false;
    if (after_.empty()) return true;
    for (const auto& [range, after] : after_) {
      if (range.Contains(row)) return commit > after;
    }
    return false;
  }

  // Once every change read is returned: the position is what was looked
  // at and, at the end of what is visible, the horizon where it is exact
  // (no change up to it can still appear), never past the end time: a
  // token resumes with the changes after it. The watermark follows the
  // horizon's estimate.
  void Settle() {
    position_ = std::max(position_, scanned_);
    if (at_end_) {
      position_ = std::max(position_, max_after_);
      if (horizon_exact_) position_ = std::max(position_, horizon_);
    }
    if (request_.end_micros) position_ = std::min(position_, *request_.end_micros);
    watermark_ = std::max(watermark_, position_);
    if (at_end_) watermark_ = std::max(watermark_, horizon_);
  }

  Status Poll() {
    horizon_ = db_->ChangeHorizon(&horizon_exact_);  // before the snapshot: see its contract
    LBT_ASSIGN_OR_RETURN(ReadView view, db_->BeginRead(/*spare=*/true));
    Status s = Scan(view);
    db_->EndRead(std::move(view));
    LBT_RETURN_IF_ERROR(s);
    Settle();
    if (request_.end_micros && (past_end_ || (at_end_ && horizon_ >= *request_.end_micros))) finished_ = true;
    return Status::OK();
  }

  Status Scan(const ReadView& view) {
    LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec,
                         db_->ReadSpec(view.txn.get(), table_, /*require_enabled=*/false));
    if (spec->id != id_) return Status::NotFound(fmt::format("table '{}' was deleted", table_));
    if (!spec->change_stream) return ChangeStreamOff(table_);
    if (spec->change_stream->enabled_micros != enabled_micros_) {
      return Status::FailedPrecondition(fmt::format(
          "the change stream of table '{}' was turned off and on again while read: changes in between were not "
          "recorded",
          table_));
    }
    at_end_ = true;
    if (!db_->stores_->has_changes) return Status::OK();
    const std::string prefix = TablePrefix(id_);
    LBT_ASSIGN_OR_RETURN(auto it, view.changes(db_->stores_->changes).NewIterator());
    size_t read = 0;
    for (it->Seek(ChangeKey(id_, scanned_ + 1)); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      if (read++ == kPollChanges) {
        at_end_ = false;
        break;
      }
      int64_t commit;
      if (!DecodeChangeCommit(it->key(), prefix.size(), &commit)) {
        return Status::Corruption("a change log key is malformed");
      }
      if (request_.end_micros && commit > *request_.end_micros) {
        past_end_ = true;
        break;
      }
      DataChange change;
      LBT_RETURN_IF_ERROR(DecodeChange(it->value(), &change));
      scanned_ = commit;
      change.commit_micros = commit;
      if (Wanted(change.row_key, commit)) ready_.push_back(std::move(change));
    }
    return it->status();
  }

  Database* db_;
  std::string table_;
  TableId id_;
  int64_t enabled_micros_;
  ChangeStreamRequest request_;
  std::vector<std::pair<RowRange, int64_t>> after_;
  int64_t scanned_;  // every change up to this commit was looked at
  int64_t max_after_ = INT64_MIN;
  int64_t position_, watermark_;
  int64_t horizon_ = INT64_MIN;
  bool horizon_exact_ = false;
  bool at_end_ = false;    // the last poll saw every visible change
  bool past_end_ = false;  // a change after the end time was seen
  bool finished_ = false;
  std::deque<DataChange> ready_;
};

Status Database::CheckTokensReached(const TableSpec& spec, std::string_view table,
                                    const std::vector<ChangeStreamPosition>& resume,
                                    const std::vector<std::pair<RowRange, int64_t>>& after, int64_t now) {
  // A stream gives tokens no further than the clock, or than the last
  // change where commit times ran ahead of it. A token past both names a
  // position no stream reached: resuming there would skip every change
  // committed before the clock catches up with it.
  int64_t reached = now;
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i].second <= reached) continue;
    LBT_ASSIGN_OR_RETURN(int64_t last, LastChangeCommit(spec.id));
    reached = std::max(reached, last);
    if (after[i].second <= reached) continue;
    return Status::InvalidArgument(
        fmt::format("continuation_tokens: '{}' is past the end of the change stream of table '{}': it names {}, "
                    "which the stream has not reached",
                    Abbreviated(resume[i].token), table, FormatChangeTime(after[i].second)));
  }
  return Status::OK();
}

Result<std::unique_ptr<ChangeStream>> Database::ReadChangeStream(std::string_view table,
                                                                 const ChangeStreamRequest& request) {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
  if (!spec.change_stream) return ChangeStreamOff(table);
  LBT_RETURN_IF_ERROR((RowSet{{}, {request.partition}}.Validate()));
  const int64_t now = NowMicros();
  // Before the stream was enabled there is nothing to miss: a start there
  // starts at the enabling. Before the retention, changes may be gone.
  const int64_t kept_from = now - spec.change_stream->retention_micros;
  int64_t start = request.start_micros;
  std::vector<std::pair<RowRange, int64_t>> after;
  for (const ChangeStreamPosition& p : request.resume) {
    LBT_ASSIGN_OR_RETURN(ChangeStreamToken token, DecodeChangeStreamToken(p.token, "continuation_tokens"));
    // A token of another table's stream, or of this table's stream before
    // it was turned off and on again, would skip changes or invent a gap.
    if (token.stream != spec.id || token.position_micros < spec.change_stream->enabled_micros - 1) {
      return Status::InvalidArgument(
          fmt::format("continuation_tokens: '{}' is not a position in the change stream of table '{}' as it is now",
                      Abbreviated(p.token), table));
    }
    after.emplace_back(p.range, token.position_micros);
  }
  if (!after.empty()) {
    // Checked first: a position the stream reached is below INT64_MAX.
    LBT_RETURN_IF_ERROR(CheckTokensReached(spec, table, request.resume, after, now));
    start = INT64_MAX;
    for (const auto& [range, position] : after) start = std::min(start, position + 1);
  }
  if (start < kept_from) {
    return Status::InvalidArgument(
        fmt::format("{}: the change stream of table '{}' keeps changes from {} (as far back as its retention reaches), "
                    "and this is earlier",
                    request.resume.empty() ? "start_time" : "continuation_tokens", table, FormatChangeTime(kept_from)));
  }
  // A client's clock may run a little ahead of this one's.
  if (request.resume.empty() && start > now + kClockSkewMicros) {
    return Status::InvalidArgument(fmt::format("start_time: {} is in the future", FormatChangeTime(start)));
  }
  // Nothing was recorded before the stream was enabled, and what a
  // stream enabled before left may still be being deleted.
  ChangeStreamRequest from_enabled = request;
  const int64_t enabled = spec.change_stream->enabled_micros;
  from_enabled.start_micros = std::max(from_enabled.start_micros, enabled);
  for (auto& [range, position] : after) position = std::max(position, enabled - 1);
  if (request.end_micros && *request.end_micros < start) {
    return Status::InvalidArgument("end_time: before the start of the stream");
  }
  return std::unique_ptr<ChangeStream>(std::make_unique<ChangeLogStream>(this, std::string(table), spec.id, enabled,
                                                                         std::move(from_enabled), std::move(after)));
}

}  // namespace lbt
