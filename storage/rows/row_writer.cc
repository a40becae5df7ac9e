#include "storage/rows/row_writer.h"

#include "storage/format/change_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "api/hll_sketch.h"
#include "api/limits.h"
#include "storage/format/change_log.h"
#include "storage/format/key_codec.h"

namespace lbt {

namespace {

Status ValidateRowKey(std::string_view row_key) {
  if (row_key.empty()) return Status::InvalidArgument("a row key cannot be empty");
  if (row_key.size() > kMaxRowKeyBytes) {
    return Status::OutOfRange(
        fmt::format("row key is {} bytes; Bigtable's limit is {} bytes (4 KiB)", row_key.size(), kMaxRowKeyBytes));
  }
  return Status::OK();
}

Status ValidateQualifier(std::string_view qualifier) {
  if (qualifier.size() > kMaxQualifierBytes) {
    return Status::OutOfRange(fmt::format("column qualifier is {} bytes; Bigtable's limit is {} bytes (16 KiB)",
                                          qualifier.size(), kMaxQualifierBytes));
  }
  return Status::OK();
}

// Whether an AddToCell or MergeToCell's input fits its family: an int64
// aggregate takes an integer (raw bytes of 8); an HLL++ family adds an
// input of its type and merges a sketch.
Status ValidateAggregateInput(const FamilySpec& family, const Mutation& m) {
  const std::string_view call = m.merge ? "MergeToCell" : "AddToCell";
  if (IsIntAggregate(family.value_type)) {
    if (m.bytes_input && m.value.size() != 8) {
      return Status::InvalidArgument(
          fmt::format("column family '{}' is an {} aggregate: {}'s input must be an int64 (8 raw bytes), got {} bytes",
                      family.name, ValueTypeName(family.value_type), call, m.value.size()));
    }
    return Status::OK();
  }
  if (m.merge) {
    if (!m.bytes_input) {
      return Status::InvalidArgument(fmt::format(
          "column family '{}' is an HLL++ aggregate: MergeToCell's input must be a sketch (raw bytes)", family.name));
    }
    Result<HllSketch> sketch = HllSketch::Parse(m.value);
    if (!sketch.ok()) {
      return Status::InvalidArgument(
          fmt::format("column family '{}': MergeToCell's input is {}", family.name, sketch.status().message()));
    }
    return Status::OK();
  }
  if (family.value_type == ValueType::kHllInt64 && m.bytes_input && m.value.size() != 8) {
    return Status::InvalidArgument(
        fmt::format("column family '{}' counts int64 inputs (inthll): AddToCell's input must be an int64, got {} bytes",
                    family.name, m.value.size()));
  }
  if (family.value_type == ValueType::kHllBytes && !m.bytes_input) {
    return Status::InvalidArgument(fmt::format(
        "column family '{}' counts raw bytes (rawhll): AddToCell's input must be raw_value bytes", family.name));
  }
  return Status::OK();
}

// Merges an aggregate input into the stored state as the family's type says.
int64_t Merge(ValueType type, int64_t state, int64_t input) {
  switch (type) {
    case ValueType::kIntSum: return static_cast<int64_t>(static_cast<uint64_t>(state) + static_cast<uint64_t>(input));
    case ValueType::kIntMin: return std::min(state, input);
    case ValueType::kIntMax: return std::max(state, input);
    case ValueType::kBytes:
    case ValueType::kString:
    case ValueType::kStringUtf8Raw:
    case ValueType::kHllInt64:
    case ValueType::kHllBytes:
    case ValueType::kProto:
    case ValueType::kEnum: break;
  }
  return input;
}

}  // namespace

Status ValidateTimestamp(const Mutation& m, const TableSpec& table) {
  if (m.timestamp == kServerTime) return Status::OK();
  if (m.timestamp < 0) {
    return Status::InvalidArgument(
        fmt::format("timestamp {} is negative; expected microseconds since the epoch", m.timestamp));
  }
  // A timestamp the client library made up is cut to fit instead.
  if (m.client_timestamp || table.granularity == TimestampGranularity::kMicros) return Status::OK();
  if (m.timestamp % GranularityMicros(table.granularity) != 0) {
    return Status::InvalidArgument(
        fmt::format("timestamp {} is not a multiple of 1000: table '{}' keeps microseconds at millisecond "
                    "granularity (MILLIS)",
                    m.timestamp, TableIdOf(table.name)));
  }
  return Status::OK();
}

Status ValidateRowMutations(const TableSpec& table, std::string_view row_key, const std::vector<Mutation>& mutations) {
  LBT_RETURN_IF_ERROR(ValidateRowKey(row_key));
  for (const Mutation& m : mutations) {
    if (m.kind == Mutation::Kind::kDeleteFromRow) continue;
    LBT_ASSIGN_OR_RETURN(const FamilySpec* family, table.RequireFamily(m.family));
    switch (m.kind) {
      case Mutation::Kind::kSetCell:
        LBT_RETURN_IF_ERROR(ValidateQualifier(m.qualifier));
        LBT_RETURN_IF_ERROR(ValidateTimestamp(m, table));
        if (m.value.size() > kMaxValueBytes) {
          return Status::OutOfRange(
              fmt::format("value is {} bytes; Bigtable's limit is {} bytes (100 MiB)", m.value.size(), kMaxValueBytes));
        }
        if (IsIntAggregate(family->value_type) && m.value.size() != 8) {
          return Status::InvalidArgument(
              fmt::format("column family '{}' is an {} aggregate: a value set there must be an 8-byte "
                          "big-endian integer, got {} bytes",
                          family->name, ValueTypeName(family->value_type), m.value.size()));
        }
        if (IsHll(family->value_type)) {
          Result<HllSketch> sketch = HllSketch::Parse(m.value);
          if (!sketch.ok()) {
            return Status::InvalidArgument(
                fmt::format("column family '{}' is an HLL++ aggregate: a value set there must be a sketch; this is {}",
                            family->name, sketch.status().message()));
          }
        }
        break;
      case Mutation::Kind::kAddToCell:
        LBT_RETURN_IF_ERROR(ValidateQualifier(m.qualifier));
        LBT_RETURN_IF_ERROR(ValidateTimestamp(m, table));
        if (!IsAggregate(family->value_type)) {
          return Status::InvalidArgument(
              fmt::format("column family '{}' is not an aggregate family; AddToCell needs one of type "
                          "intsum, intmin, intmax or inthll",
                          family->name));
        }
        LBT_RETURN_IF_ERROR(ValidateAggregateInput(*family, m));
        break;
      case Mutation::Kind::kDeleteFromColumn: {
        LBT_RETURN_IF_ERROR(ValidateQualifier(m.qualifier));
        const TimestampRange& r = m.range;
        if (r.start_micros < 0 || r.end_micros < 0 || (r.end_micros != 0 && r.end_micros < r.start_micros)) {
          return Status::InvalidArgument(
              fmt::format("invalid time range [{}, {}): expected 0 <= start <= end (end 0 = no limit)", r.start_micros,
                          r.end_micros));
        }
        const int64_t unit = GranularityMicros(table.granularity);
        if (r.start_micros % unit != 0 || r.end_micros % unit != 0) {
          return Status::InvalidArgument(
              fmt::format("time range [{}, {}) is not in whole milliseconds (multiples of 1000 "
                          "microseconds), as table '{}' keeps them (MILLIS)",
                          r.start_micros, r.end_micros, TableIdOf(table.name)));
        }
        break;
      }
      case Mutation::Kind::kDeleteFromFamily:
      case Mutation::Kind::kDeleteFromRow: break;
    }
  }
  return Status::OK();
}

FamilyId RowWriter::IdOf(const Mutation& m) const { return table_->FindFamily(m.family)->id; }

std::string_view RowWriter::FamilyName(FamilyId id) const {
  const FamilySpec* family = table_->FindFamilyById(id);
  return family == nullptr ? std::string_view() : std::string_view(family->name);
}

Result<uint64_t> RowWriter::LoadRowSize(std::string_view row_key) {
  std::string_view stored;
  LBT_ASSIGN_OR_RETURN(bool found, rows_.Get(RowPrefix(table_->id, row_key), &stored));
  if (!found) return uint64_t{0};
  int64_t size = 0;
  if (!DecodeInt64(std::string(stored), &size) || size < 0) {
    return Status::Corruption("a row size entry is malformed");
  }
  return static_cast<uint64_t>(size);
}

Status RowWriter::StoreRowSize(std::string_view row_key, uint64_t size, bool existed) {
  std::string key = RowPrefix(table_->id, row_key);
  if (size == 0) return existed ? rows_.Delete(key).status() : Status::OK();
  std::string value = EncodeInt64(static_cast<int64_t>(size));
  return existed ? rows_.Put(key, value) : rows_.PutNew(key, value);
}

Status RowWriter::PutCell(const std::string& key, std::string_view family, std::string_view qualifier,
                          std::string_view value, bool may_exist, uint64_t* row_size) {
  bool replaced = false;
  if (may_exist) {
    std::string_view old;
    LBT_ASSIGN_OR_RETURN(replaced, cells_.Get(key, &old));
    if (replaced) *row_size -= CellBytes(family, qualifier, old);
  }
  *row_size += CellBytes(family, qualifier, value);
  // Checked before each write, so an oversized row fails before it is built.
  if (*row_size > kMaxRowBytes) {
    return Status::OutOfRange(fmt::format("row would hold {} bytes; Bigtable's limit is {} bytes (256 MiB) per row",
                                          *row_size, kMaxRowBytes));
  }
  if (!replaced) return cells_.PutNew(key, value);
  return cells_.Put(key, value);
}

Status RowWriter::DeleteAll(const std::vector<PendingDelete>& doomed, uint64_t* row_size) {
  for (const PendingDelete& d : doomed) {
    LBT_RETURN_IF_ERROR(cells_.Delete(d.key).status());
    *row_size -= std::min(*row_size, d.bytes);
  }
  return Status::OK();
}

Status RowWriter::DeleteUnder(const std::string& prefix, const TimestampRange& range, uint64_t* row_size) {
  std::vector<PendingDelete> doomed;
  {
    LBT_ASSIGN_OR_RETURN(auto it, cells_.NewIterator());
    it->Seek(prefix);
    CellKey cell;
    for (; it->Valid() && it->key().starts_with(prefix); it->Next()) {
      if (!DecodeCellKey(it->key(), &cell)) return Status::Corruption("a cell key is malformed");
      if (!range.Contains(cell.timestamp)) continue;
      doomed.push_back({std::string(it->key()), CellBytes(FamilyName(cell.family), cell.qualifier, it->value())});
    }
    LBT_RETURN_IF_ERROR(it->status());
  }
  return DeleteAll(doomed, row_size);
}

Status RowWriter::CollectColumn(std::string_view row_key, const FamilySpec& family, std::string_view qualifier,
                                uint64_t* row_size) {
  if (!family.gc_rule.CanCollect()) return Status::OK();
  std::string prefix = ColumnPrefix(table_->id, row_key, family.id, qualifier);
  std::vector<PendingDelete> doomed;
  {
    LBT_ASSIGN_OR_RETURN(auto it, cells_.NewIterator());
    it->Seek(prefix);
    int64_t index = 0;
    for (; it->Valid() && it->key().starts_with(prefix); it->Next()) {
      std::string_view rest = it->key().substr(prefix.size());
      int64_t ts;
      if (!ConsumeTimestamp(&rest, &ts)) return Status::Corruption("a cell key is malformed");
      if (family.gc_rule.Collects(index++, ts, now_)) {
        doomed.push_back({std::string(it->key()), CellBytes(family.name, qualifier, it->value())});
      }
    }
    LBT_RETURN_IF_ERROR(it->status());
  }
  return DeleteAll(doomed, row_size);
}

ChangeRecorder* RowWriter::Recorder() {
  if (shared_recorder_ != nullptr) return shared_recorder_;
  if (own_recorder_ == nullptr) own_recorder_ = std::make_unique<ChangeRecorder>(changes_, table_, now_);
  return own_recorder_.get();
}

Status RowWriter::Apply(std::string_view row_key, const std::vector<Mutation>& mutations) {
  LBT_ASSIGN_OR_RETURN(uint64_t row_size, LoadRowSize(row_key));
  // A row with no size entry has no cells yet.
  const bool new_row = row_size == 0;
  const bool only_sets = std::all_of(mutations.begin(), mutations.end(),
                                     [](const Mutation& m) { return m.kind == Mutation::Kind::kSetCell; });
  if (new_row && only_sets) {
    LBT_RETURN_IF_ERROR(ApplyNewCells(row_key, mutations, &row_size));
  } else {
    LBT_RETURN_IF_ERROR(ApplyInOrder(row_key, mutations, new_row, &row_size));
  }
  LBT_RETURN_IF_ERROR(CollectWrittenColumns(row_key, mutations, &row_size));
  LBT_RETURN_IF_ERROR(StoreRowSize(row_key, row_size, !new_row));
  if (!table_->change_stream) return Status::OK();
  return Recorder()->Record(DataChange::Type::kUser, row_key, mutations);
}

// Only new cells: writing them in key order gives the same row (a stable
// sort keeps the last write to a cell last) and lets LMDB append each one,
// packing pages full.
Status RowWriter::ApplyNewCells(std::string_view row_key, const std::vector<Mutation>& mutations, uint64_t* row_size) {
  std::vector<std::pair<std::string, const Mutation*>> cells;
  cells.reserve(mutations.size());
  for (const Mutation& m : mutations) {
    cells.emplace_back(EncodeCellKey(table_->id, row_key, IdOf(m), m.qualifier, Stamp(m)), &m);
  }
  std::stable_sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < cells.size(); ++i) {
    const Mutation& m = *cells[i].second;
    const bool may_exist = i > 0 && cells[i - 1].first == cells[i].first;
    LBT_RETURN_IF_ERROR(PutCell(cells[i].first, m.family, m.qualifier, m.value, may_exist, row_size));
  }
  return Status::OK();
}

Status RowWriter::ApplyInOrder(std::string_view row_key, const std::vector<Mutation>& mutations, bool new_row,
                               uint64_t* row_size) {
  // In a new row, a cell can only replace one this write made: look for an
  // older cell only in columns the write touched before.
  std::vector<std::pair<std::string_view, std::string_view>> touched;  // usually few
  auto first_touch = [&](const Mutation& m) {
    for (const auto& [f, q] : touched) {
      if (f == m.family && q == m.qualifier) return false;
    }
    touched.emplace_back(m.family, m.qualifier);
    return true;
  };
  const TableId id = table_->id;
  for (const Mutation& m : mutations) {
    switch (m.kind) {
      case Mutation::Kind::kSetCell: {
        std::string key = EncodeCellKey(id, row_key, IdOf(m), m.qualifier, Stamp(m));
        const bool may_exist = !(first_touch(m) && new_row);
        LBT_RETURN_IF_ERROR(PutCell(key, m.family, m.qualifier, m.value, may_exist, row_size));
        break;
      }
      case Mutation::Kind::kAddToCell: {
        first_touch(m);
        LBT_RETURN_IF_ERROR(AddToCell(row_key, m, row_size));
        break;
      }
      case Mutation::Kind::kDeleteFromColumn:
        first_touch(m);
        LBT_RETURN_IF_ERROR(DeleteUnder(ColumnPrefix(id, row_key, IdOf(m), m.qualifier), m.range, row_size));
        break;
      case Mutation::Kind::kDeleteFromFamily:
        LBT_RETURN_IF_ERROR(DeleteUnder(FamilyPrefix(id, row_key, IdOf(m)), {}, row_size));
        break;
      case Mutation::Kind::kDeleteFromRow:
        LBT_RETURN_IF_ERROR(DeleteUnder(RowPrefix(id, row_key), {}, row_size));
        break;
    }
  }
  return Status::OK();
}

Status RowWriter::AddToCell(std::string_view row_key, const Mutation& m, uint64_t* row_size) {
  const FamilySpec* family = table_->FindFamily(m.family);
  std::string key = EncodeCellKey(table_->id, row_key, family->id, m.qualifier, Stamp(m));
  std::string_view old;
  LBT_ASSIGN_OR_RETURN(bool exists, cells_.Get(key, &old));
  if (IsHll(family->value_type)) {
    LBT_ASSIGN_OR_RETURN(std::string sketch, AddToSketch(*family, m, exists ? std::optional(old) : std::nullopt));
    return PutCell(key, m.family, m.qualifier, sketch, /*may_exist=*/true, row_size);
  }
  int64_t state = m.int_value;
  if (exists) {
    int64_t stored;
    if (!DecodeInt64(std::string(old), &stored)) {
      return Status::Corruption("an aggregate cell does not hold an 8-byte integer");
    }
    state = Merge(family->value_type, stored, m.int_value);
  }
  return PutCell(key, m.family, m.qualifier, EncodeInt64(state), /*may_exist=*/true, row_size);
}

// An HLL++ cell's new sketch: `stored` (or an empty one) with the input
// counted or the input sketch merged. ValidateAggregateInput checked it.
Result<std::string> RowWriter::AddToSketch(const FamilySpec& family, const Mutation& m,
                                           std::optional<std::string_view> stored) {
  HllSketch sketch;
  if (stored) {
    Result<HllSketch> parsed = HllSketch::Parse(*stored);
    if (!parsed.ok()) return Status::Corruption("an HLL++ cell does not hold a sketch");
    sketch = std::move(*parsed);
  }
  if (m.merge) {
    LBT_ASSIGN_OR_RETURN(HllSketch input, HllSketch::Parse(m.value));
    sketch.Merge(input);
  } else if (m.bytes_input && family.value_type == ValueType::kHllBytes) {
    sketch.AddBytes(m.value);
  } else {
    sketch.AddInt64(m.int_value);
  }
  return sketch.Serialize();
}

// Collects each written column once, as its family's GC rule says.
Status RowWriter::CollectWrittenColumns(std::string_view row_key, const std::vector<Mutation>& mutations,
                                        uint64_t* row_size) {
  if (lazy_gc_) return Status::OK();  // collection passes do it
  auto writes = [](const Mutation& m) {
    return m.kind == Mutation::Kind::kSetCell || m.kind == Mutation::Kind::kAddToCell;
  };
  for (const Mutation& m : mutations) {
    if (!writes(m)) continue;
    const FamilySpec* family = table_->FindFamily(m.family);
    if (!family->gc_rule.CanCollect()) continue;
    bool seen = false;
    for (const Mutation* earlier = mutations.data(); earlier != &m && !seen; ++earlier) {
      seen = writes(*earlier) && earlier->family == m.family && earlier->qualifier == m.qualifier;
    }
    if (!seen) LBT_RETURN_IF_ERROR(CollectColumn(row_key, *family, m.qualifier, row_size));
  }
  return Status::OK();
}

Status RowWriter::CollectTable(int64_t* examined, int64_t* deleted,
                               const std::function<Status(int64_t examined)>& progress) {
  const std::string table_prefix = TablePrefix(table_->id);
  std::string next_row = table_prefix;  // where the next row starts, at least
  while (true) {
    std::string row_key;
    std::vector<PendingDelete> doomed;
    std::vector<Mutation> collected;  // for the change log: one deletion per cell
    std::string row_prefix;
    {
      LBT_ASSIGN_OR_RETURN(auto it, cells_.NewIterator());
      it->Seek(next_row);
      if (!it->Valid() || !it->key().starts_with(table_prefix)) return it->status();
      CellKey cell;
      if (!DecodeCellKey(it->key(), &cell)) return Status::Corruption("a cell key is malformed");
      row_key = cell.row;
      row_prefix = RowPrefix(table_->id, row_key);
      std::string column;
      int64_t index = 0;
      const FamilySpec* family = nullptr;  // the column's; nullptr for a family the table no longer has
      for (; it->Valid() && it->key().starts_with(row_prefix); it->Next()) {
        if (!DecodeCellKey(it->key(), &cell)) return Status::Corruption("a cell key is malformed");
        ++*examined;
        // The key up to its timestamp names the column.
        std::string_view this_column = it->key().substr(0, it->key().size() - 8);
        if (this_column != column) {
          column.assign(this_column);
          index = 0;
          family = table_->FindFamilyById(cell.family);
        }
        if (family != nullptr && !family->gc_rule.Collects(index++, cell.timestamp, now_)) continue;
        const std::string_view family_name = family == nullptr ? std::string_view() : std::string_view(family->name);
        if (family != nullptr && table_->change_stream) {
          collected.push_back(Mutation::DeleteFromColumn(family->name, cell.qualifier,
                                                         TimestampRange{cell.timestamp, cell.timestamp + 1000}));
        }
        doomed.push_back({std::string(it->key()), CellBytes(family_name, cell.qualifier, it->value())});
      }
      LBT_RETURN_IF_ERROR(it->status());
    }
    if (!doomed.empty()) {
      LBT_ASSIGN_OR_RETURN(uint64_t row_size, LoadRowSize(row_key));
      LBT_RETURN_IF_ERROR(DeleteAll(doomed, &row_size));
      LBT_RETURN_IF_ERROR(StoreRowSize(row_key, row_size, /*existed=*/true));
      *deleted += static_cast<int64_t>(doomed.size());
      if (!collected.empty()) {
        LBT_RETURN_IF_ERROR(
            ChangeRecorder(changes_, table_, now_).Record(DataChange::Type::kGarbageCollection, row_key, collected));
      }
    }
    if (progress) LBT_RETURN_IF_ERROR(progress(*examined));
    next_row = PrefixSuccessor(row_prefix);
  }
}

Status RowWriter::DeleteFamilyEverywhere(FamilyId family) {
  const std::string table_prefix = TablePrefix(table_->id);
  std::string next_row = table_prefix;
  while (true) {
    std::string row_key;
    {
      LBT_ASSIGN_OR_RETURN(auto it, cells_.NewIterator());
      it->Seek(next_row);
      if (!it->Valid() || !it->key().starts_with(table_prefix)) return it->status();
      std::string_view rest = it->key().substr(table_prefix.size());
      if (!ConsumeEscaped(&rest, &row_key)) return Status::Corruption("a cell key is malformed");
    }
    LBT_ASSIGN_OR_RETURN(uint64_t row_size, LoadRowSize(row_key));
    LBT_RETURN_IF_ERROR(DeleteUnder(FamilyPrefix(table_->id, row_key, family), {}, &row_size));
    LBT_RETURN_IF_ERROR(StoreRowSize(row_key, row_size, /*existed=*/true));
    next_row = PrefixSuccessor(RowPrefix(table_->id, row_key));
  }
}

}  // namespace lbt
