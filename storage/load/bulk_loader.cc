#include "storage/load/bulk_loader.h"
#include "util/bytes.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "api/limits.h"
#include "storage/format/change_log.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/load/run_sorter.h"
#include "storage/rows/row_writer.h"

namespace lbt {

namespace {

// A sorted record is one input row: the key is the escaped row key (without
// the table id, so that the records do not depend on it), and the payload
// its cells, each [varint family index][varint qualifier size][qualifier]
// [8-byte big-endian timestamp][varint value size][value].

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(in->front());
    in->remove_prefix(1);
    *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

bool GetBytes(std::string_view* in, std::string_view* out) {
  uint64_t size;
  if (!GetVarint(in, &size) || size > in->size()) return false;
  *out = in->substr(0, size);
  in->remove_prefix(size);
  return true;
}

struct InputCell {
  size_t family;  // index into the loader's family names
  std::string_view qualifier;
  int64_t timestamp;
  std::string_view value;
};

// Appends the cells of one record's payload to *cells.
Status ParseCells(std::string_view payload, std::vector<InputCell>* cells) {
  while (!payload.empty()) {
    InputCell c;
    uint64_t family;
    if (!GetVarint(&payload, &family) || !GetBytes(&payload, &c.qualifier) || payload.size() < 8) {
      return Status::Corruption("a bulk load record is malformed");
    }
    const uint64_t ts = DecodeBigEndian(payload.substr(0, 8));
    payload.remove_prefix(8);
    if (!GetBytes(&payload, &c.value)) return Status::Corruption("a bulk load record is malformed");
    c.family = static_cast<size_t>(family);
    c.timestamp = static_cast<int64_t>(ts);
    cells->push_back(c);
  }
  return Status::OK();
}

// What refuses one row and lets the others be written.
bool IsRowError(const Status& s) { return s.IsInvalidArgument() || s.IsNotFound() || s.IsOutOfRange(); }

Status RowTooLarge(uint64_t bytes) {
  return Status::OutOfRange(
      fmt::format("row would hold {} bytes; Bigtable's limit is {} bytes (256 MiB) per row", bytes, kMaxRowBytes));
}

// Writes the rows of one transaction, one row key at a time, in key order.
class RowGroupWriter {
 public:
  RowGroupWriter(Txn* txn, const Stores* stores, const TableSpec* spec, const std::vector<std::string>& names,
                 int64_t now)
      : txn_(txn),
        stores_(stores),
        spec_(spec),
        names_(names),
        now_(now),
        row_prefix_(TablePrefix(spec->id)),
        table_prefix_size_(row_prefix_.size()) {
    for (const std::string& name : names) {
      const FamilySpec* family = spec->FindFamily(name);  // nullptr if deleted since the loader was made
      families_.push_back(family);
      encoded_families_.emplace_back();
      // A deleted family's cells are refused before they are written.
      AppendId(&encoded_families_.back(), family == nullptr ? 0 : family->id);
    }
  }

  Status Open() {
    LBT_ASSIGN_OR_RETURN(cells_, stores_->cells.NewAppender(txn_));
    LBT_ASSIGN_OR_RETURN(rows_, stores_->rows.NewAppender(txn_));
    return Status::OK();
  }

  // Writes the input rows of one row key. A failure of this row alone
  // (a limit, a family deleted meanwhile) goes to *row_error, writing
  // nothing of it; any other error is returned.
  Status Write(std::string_view escaped_key, const std::vector<std::string_view>& payloads, Status* row_error,
               BulkLoadStats* delta) {
    row_prefix_.resize(table_prefix_size_);
    row_prefix_.append(escaped_key);
    cells_in_.clear();
    for (std::string_view payload : payloads) LBT_RETURN_IF_ERROR(ParseCells(payload, &cells_in_));
    LBT_ASSIGN_OR_RETURN(bool has_data, HasData());
    *row_error = has_data ? Merge(escaped_key, delta) : WriteNew(delta);
    if (row_error->ok() || IsRowError(*row_error)) return Status::OK();
    return *row_error;  // a full map (Update grows it and runs again), a failed disk
  }

 private:
  // Whether the table holds cells of the row. The first stored key at or
  // after a row is remembered: every row before it has none, so a run of
  // new rows costs one seek, not one each.
  Result<bool> HasData() {
    if (!next_known_ || (next_exists_ && next_key_ < row_prefix_)) {
      LBT_ASSIGN_OR_RETURN(auto it, stores_->cells.NewIterator(txn_));
      it->Seek(row_prefix_);
      LBT_RETURN_IF_ERROR(it->status());
      next_known_ = true;
      next_exists_ = it->Valid();
      if (next_exists_) next_key_.assign(it->key());
    }
    return next_exists_ && next_key_.starts_with(row_prefix_);
  }

  // The row's cells sorted by key, a later input first among equal keys.
  void EncodeAndSort() {
    keys_.clear();
    offsets_.clear();
    for (const InputCell& c : cells_in_) {
      offsets_.push_back(keys_.size());
      keys_.append(row_prefix_);
      keys_.append(encoded_families_[c.family]);
      AppendEscaped(&keys_, c.qualifier);
      AppendTimestamp(&keys_, c.timestamp);
    }
    offsets_.push_back(keys_.size());
    order_.resize(cells_in_.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), [this](size_t a, size_t b) {
      int c = Key(a).compare(Key(b));
      return c != 0 ? c < 0 : a > b;
    });
  }

  std::string_view Key(size_t i) const {
    return std::string_view(keys_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }

  // A row new to the table: its final cells are known before anything is
  // written, so the limit is checked first and the cells go straight in.
  Status WriteNew(BulkLoadStats* delta) {
    EncodeAndSort();
    kept_.clear();
    uint64_t size = 0;
    int64_t collected = 0, index = 0;
    std::string_view column;
    for (size_t k = 0; k < order_.size(); ++k) {
      const size_t i = order_[k];
      if (k > 0 && Key(i) == Key(order_[k - 1])) continue;  // replaced by a later input
      const InputCell& c = cells_in_[i];
      const FamilySpec* family = families_[c.family];
      if (family == nullptr) return spec_->RequireFamily(names_[c.family]).status();
      std::string_view this_column = Key(i).substr(0, Key(i).size() - 8);
      if (this_column != column) index = 0;
      column = this_column;
      if (!stores_->lazy_gc && family->gc_rule.Collects(index++, c.timestamp, now_)) {
        ++collected;
        continue;
      }
      size += CellBytes(family->name, c.qualifier, c.value);
      kept_.push_back(i);
    }
    if (size > kMaxRowBytes) return RowTooLarge(size);
    for (size_t i : kept_) LBT_RETURN_IF_ERROR(cells_->PutNew(Key(i), cells_in_[i].value));
    if (!kept_.empty()) LBT_RETURN_IF_ERROR(rows_->PutNew(row_prefix_, EncodeInt64(static_cast<int64_t>(size))));
    if (spec_->change_stream) LBT_RETURN_IF_ERROR(RecordNew());
    delta->rows_appended += 1;
    delta->cells_written += static_cast<int64_t>(kept_.size());
    delta->cells_collected += collected;
    return Status::OK();
  }

  // Records the new row's cells as its change, in the order they came.
  Status RecordNew() {
    std::string row_key;
    std::string_view rest = std::string_view(row_prefix_).substr(table_prefix_size_);
    if (!ConsumeEscaped(&rest, &row_key)) return Status::Corruption("a bulk load record is malformed");
    set_refs_.clear();
    for (const InputCell& c : cells_in_) set_refs_.push_back({names_[c.family], c.qualifier, c.timestamp, c.value});
    return Recorder()->RecordSets(row_key, set_refs_);
  }

  // A row with data already: the row writer merges, in a nested
  // transaction so that a failure leaves the rest of the batch as it is.
  Status Merge(std::string_view escaped_key, BulkLoadStats* delta) {
    std::string row_key;
    std::string_view rest = escaped_key;
    if (!ConsumeEscaped(&rest, &row_key)) return Status::Corruption("a bulk load record is malformed");
    std::vector<Mutation> mutations;
    for (const InputCell& c : cells_in_) {
      mutations.push_back(
          Mutation::SetCell(names_[c.family], std::string(c.qualifier), std::string(c.value), c.timestamp));
    }
    LBT_RETURN_IF_ERROR(ValidateRowMutations(*spec_, row_key, mutations));
    LBT_ASSIGN_OR_RETURN(auto nested, Txn::BeginNested(txn_));
    RowWriter writer(nested.get(), stores_, spec_, now_);
    // The change goes into the nested transaction with the row, its commit
    // time counted on from the transaction's recorder, which goes on from
    // it once the row committed.
    std::optional<ChangeRecorder> nested_recorder;
    if (spec_->change_stream) {
      nested_recorder.emplace(StoreView(nested.get(), &stores_->changes, StoreTag::kChanges), spec_, now_,
                              Recorder()->last());
      writer.RecordChangesWith(&*nested_recorder);
    }
    Status s = writer.Apply(row_key, mutations);
    if (s.ok()) s = nested->Commit();
    if (s.ok() && nested_recorder) Recorder()->GoOnFrom(nested_recorder->last());
    if (!s.ok()) return s;  // the nested transaction aborts as it goes
    delta->rows_merged += 1;
    delta->cells_written += static_cast<int64_t>(mutations.size());
    return Status::OK();
  }

  ChangeRecorder* Recorder() {
    if (recorder_ == nullptr) {
      recorder_ = std::make_unique<ChangeRecorder>(StoreView(txn_, &stores_->changes, StoreTag::kChanges), spec_, now_);
    }
    return recorder_.get();
  }

  Txn* txn_;
  const Stores* stores_;
  const TableSpec* spec_;
  const std::vector<std::string>& names_;
  std::unique_ptr<ChangeRecorder> recorder_;  // the transaction's, for tables with a change stream
  std::vector<SetCellRef> set_refs_;
  int64_t now_;
  std::string row_prefix_;  // the table's prefix, then the current row's
  size_t table_prefix_size_;
  std::vector<const FamilySpec*> families_;
  std::vector<std::string> encoded_families_;  // id(family), by index
  std::unique_ptr<OrderedStore::Appender> cells_, rows_;
  bool next_known_ = false, next_exists_ = false;
  std::string next_key_;
  std::vector<InputCell> cells_in_;
  std::string keys_;
  std::vector<size_t> offsets_, order_, kept_;
};

void AddDelta(BulkLoadStats* to, const BulkLoadStats& delta) {
  to->rows_committed += delta.rows_committed;
  to->rows_failed += delta.rows_failed;
  to->cells_written += delta.cells_written;
  to->cells_collected += delta.cells_collected;
  to->rows_appended += delta.rows_appended;
  to->rows_merged += delta.rows_merged;
}

}  // namespace

// One transaction's input rows, kept so that the transaction can run
// again when the map fills: views into the sorted stream when its records
// last, copies otherwise.
struct BulkLoader::Batch {
  std::vector<std::string_view> keys, payloads;
  std::vector<size_t> groups;  // where each row key's records start
  size_t bytes = 0;
  // Copies, in chunks that never move once written (each reserved up front).
  std::vector<std::string> chunks;

  void Clear() {
    keys.clear();
    payloads.clear();
    groups.clear();
    bytes = 0;
    if (chunks.size() > 1) chunks.resize(1);
    if (!chunks.empty()) chunks[0].clear();
  }
  std::string_view Copy(std::string_view s) {
    if (chunks.empty() || chunks.back().capacity() - chunks.back().size() < s.size()) {
      chunks.emplace_back();
      chunks.back().reserve(std::max<size_t>(size_t{1} << 20, s.size()));
    }
    std::string& chunk = chunks.back();
    const size_t at = chunk.size();
    chunk.append(s);
    return std::string_view(chunk).substr(at);
  }
};

struct BulkLoader::Attempt {
  BulkLoadStats delta;
  std::vector<std::pair<std::string, Status>> failed;
};

BulkLoader::BulkLoader(std::unique_ptr<BulkLoadTarget> target, TableSpec spec, const BulkLoadOptions& options,
                       std::string temp_dir, int64_t now)
    : target_(std::move(target)), spec_(std::move(spec)), options_(options), now_(now) {
  for (const auto& [name, family] : spec_.families) families_.push_back(name);
  RunSorterOptions sort;
  sort.memory_bytes = options.sort_memory_bytes;
  sort.temp_dir = std::move(temp_dir);
  sorter_ = std::make_unique<RunSorter>(std::move(sort));
}

BulkLoader::~BulkLoader() = default;

Status BulkLoader::Add(const RowMutation& row) {
  for (const Mutation& m : row.mutations) {
    if (m.kind != Mutation::Kind::kSetCell) {
      return Status::InvalidArgument("a bulk load writes cells only: every mutation must set a cell");
    }
  }
  LBT_RETURN_IF_ERROR(ValidateRowMutations(spec_, row.row_key, row.mutations));
  key_buffer_.clear();
  AppendEscaped(&key_buffer_, row.row_key);
  payload_buffer_.clear();
  for (const Mutation& m : row.mutations) {
    // families_ is sorted (the spec's map order), and the family exists.
    auto family = std::lower_bound(families_.begin(), families_.end(), m.family);
    PutVarint(&payload_buffer_, static_cast<uint64_t>(family - families_.begin()));
    PutVarint(&payload_buffer_, m.qualifier.size());
    payload_buffer_.append(m.qualifier);
    const auto ts = static_cast<uint64_t>(m.StoredTimestamp(now_, GranularityMicros(spec_.granularity)));
    AppendBigEndian(&payload_buffer_, ts, 8);
    PutVarint(&payload_buffer_, m.value.size());
    payload_buffer_.append(m.value);
  }
  LBT_RETURN_IF_ERROR(sorter_->Add(key_buffer_, payload_buffer_));
  ++stats_.rows_added;
  return Status::OK();
}

Status BulkLoader::FillBatch(SortedStream* stream, bool* more, Batch* batch) {
  batch->Clear();
  while (*more) {
    std::string_view key = stream->key();
    const bool new_key = batch->keys.empty() || key != batch->keys.back();
    // A transaction ends only between row keys: a row is never split.
    const bool full =
        batch->bytes >= options_.bytes_per_commit ||
        (options_.rows_per_commit > 0 && static_cast<int64_t>(batch->keys.size()) >= options_.rows_per_commit);
    if (new_key && full) break;
    if (new_key) batch->groups.push_back(batch->keys.size());
    const bool keep = stream->stable();
    batch->keys.push_back(keep ? key : batch->Copy(key));
    batch->payloads.push_back(keep ? stream->payload() : batch->Copy(stream->payload()));
    batch->bytes += key.size() + stream->payload().size();
    *more = stream->Next();
  }
  return stream->status();
}

Status BulkLoader::WriteBatch(Txn* txn, const Batch& batch, Attempt* attempt) {
  *attempt = Attempt{};
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, target_->RequireEnabled(spec_.name));
  if (spec->id != spec_.id) {
    return Status::FailedPrecondition(
        fmt::format("table '{}' was deleted and created again during the load", TableIdOf(spec_.name)));
  }
  RowGroupWriter writer(txn, target_->stores(), spec, families_, target_->NowMicros());
  LBT_RETURN_IF_ERROR(writer.Open());
  std::vector<std::string_view> payloads;
  for (size_t g = 0; g < batch.groups.size(); ++g) {
    const size_t end = g + 1 < batch.groups.size() ? batch.groups[g + 1] : batch.keys.size();
    payloads.assign(batch.payloads.begin() + static_cast<ptrdiff_t>(batch.groups[g]),
                    batch.payloads.begin() + static_cast<ptrdiff_t>(end));
    Status row_error;
    LBT_RETURN_IF_ERROR(writer.Write(batch.keys[batch.groups[g]], payloads, &row_error, &attempt->delta));
    const auto rows = static_cast<int64_t>(payloads.size());
    if (row_error.ok()) {
      attempt->delta.rows_committed += rows;
      continue;
    }
    attempt->delta.rows_failed += rows;
    std::string row_key;
    std::string_view escaped = batch.keys[batch.groups[g]];
    ConsumeEscaped(&escaped, &row_key);
    attempt->failed.emplace_back(std::move(row_key), std::move(row_error));
  }
  return Status::OK();
}

Status BulkLoader::Finish(const std::function<Status(const BulkLoadStats&)>& on_commit,
                          const std::function<void(std::string_view row_key, const Status&)>& on_row_error) {
  if (finished_) return Status::FailedPrecondition("the bulk load has finished already");
  finished_ = true;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<SortedStream> stream, sorter_->Finish());
  stats_.runs_spilled = sorter_->runs_written();
  stats_.bytes_spilled = static_cast<int64_t>(sorter_->bytes_written());
  bool more = stream->Next();
  Batch batch;
  while (true) {
    LBT_RETURN_IF_ERROR(FillBatch(stream.get(), &more, &batch));
    if (batch.keys.empty()) return Status::OK();
    Attempt attempt;
    LBT_RETURN_IF_ERROR(target_->Update([&](Txn* txn) { return WriteBatch(txn, batch, &attempt); }));
    AddDelta(&stats_, attempt.delta);
    ++stats_.commits;
    for (const auto& [key, status] : attempt.failed) {
      if (on_row_error) on_row_error(key, status);
    }
    if (on_commit) LBT_RETURN_IF_ERROR(on_commit(stats_));
  }
}

}  // namespace lbt
