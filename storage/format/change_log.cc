#include "storage/format/change_log.h"

#include <algorithm>

#include "storage/format/key_codec.h"
#include "util/bytes.h"

namespace lbt {

namespace {

constexpr char kChangeVersion = 1;
// Kind bytes past Mutation::Kind's: an AddToCell of bytes (an HLL++
// family's input), and a MergeToCell of a state's bytes. An AddToCell of
// an integer keeps Mutation::Kind's byte, as before these were added.
constexpr char kAddBytesToCell = 16;
constexpr char kMergeBytesToCell = 17;

void AppendBytes(std::string* out, std::string_view bytes) {
  AppendBigEndian(out, bytes.size(), 4);
  out->append(bytes);
}

void AppendInt64(std::string* out, int64_t v) { AppendBigEndian(out, static_cast<uint64_t>(v), 8); }

// Reads what the Append functions wrote, front to back.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool Byte(char* c) {
    if (in_.empty()) return false;
    *c = in_[0];
    in_.remove_prefix(1);
    return true;
  }
  bool Int64(int64_t* v) {
    if (in_.size() < 8) return false;
    *v = static_cast<int64_t>(DecodeBigEndian(in_.substr(0, 8)));
    in_.remove_prefix(8);
    return true;
  }
  bool Bytes(std::string* out) {
    if (in_.size() < 4) return false;
    const uint64_t n = DecodeBigEndian(in_.substr(0, 4));
    if (in_.size() - 4 < n) return false;
    out->assign(in_.substr(4, n));
    in_.remove_prefix(4 + n);
    return true;
  }
  bool empty() const { return in_.empty(); }

 private:
  std::string_view in_;
};

bool DecodeMutation(Reader* in, Mutation* m) {
  char kind;
  if (!in->Byte(&kind) || !in->Bytes(&m->family) || !in->Bytes(&m->qualifier)) return false;
  if (kind == kAddBytesToCell || kind == kMergeBytesToCell) {
    m->kind = Mutation::Kind::kAddToCell;
    m->bytes_input = true;
    m->merge = kind == kMergeBytesToCell;
    return in->Int64(&m->timestamp) && in->Bytes(&m->value);
  }
  m->kind = static_cast<Mutation::Kind>(kind);
  switch (m->kind) {
    case Mutation::Kind::kSetCell: return in->Int64(&m->timestamp) && in->Bytes(&m->value);
    case Mutation::Kind::kAddToCell: return in->Int64(&m->timestamp) && in->Int64(&m->int_value);
    case Mutation::Kind::kDeleteFromColumn: return in->Int64(&m->range.start_micros) && in->Int64(&m->range.end_micros);
    case Mutation::Kind::kDeleteFromFamily: return true;
    case Mutation::Kind::kDeleteFromRow: return false;
  }
  return false;
}

}  // namespace

std::string ChangeKey(TableId table, int64_t commit_micros) {
  std::string key = TablePrefix(table);
  AppendInt64(&key, commit_micros);
  return key;
}

bool DecodeChangeCommit(std::string_view key, size_t table_prefix_size, int64_t* commit_micros) {
  if (key.size() != table_prefix_size + 8) return false;
  *commit_micros = static_cast<int64_t>(DecodeBigEndian(key.substr(table_prefix_size)));
  return true;
}

namespace {

// The head of a change's value: version, type, row key.
void AppendChangeHead(std::string* out, DataChange::Type type, std::string_view row_key) {
  out->push_back(kChangeVersion);
  out->push_back(static_cast<char>(type));
  AppendBytes(out, row_key);
}

void AppendSetCell(std::string* out, std::string_view family, std::string_view qualifier, int64_t timestamp,
                   std::string_view value) {
  out->push_back(static_cast<char>(Mutation::Kind::kSetCell));
  AppendBytes(out, family);
  AppendBytes(out, qualifier);
  AppendInt64(out, timestamp);
  AppendBytes(out, value);
}

}  // namespace

std::string EncodeChange(const DataChange& change) {
  std::string out;
  AppendChangeHead(&out, change.type, change.row_key);
  for (const Mutation& m : change.mutations) {
    if (m.kind == Mutation::Kind::kSetCell) {
      AppendSetCell(&out, m.family, m.qualifier, m.timestamp, m.value);
      continue;
    }
    if (m.kind == Mutation::Kind::kAddToCell && m.bytes_input) {
      out.push_back(m.merge ? kMergeBytesToCell : kAddBytesToCell);
      AppendBytes(&out, m.family);
      AppendBytes(&out, m.qualifier);
      AppendInt64(&out, m.timestamp);
      AppendBytes(&out, m.value);
      continue;
    }
    out.push_back(static_cast<char>(m.kind));
    AppendBytes(&out, m.family);
    AppendBytes(&out, m.qualifier);
    switch (m.kind) {
      case Mutation::Kind::kSetCell: break;
      case Mutation::Kind::kAddToCell:
        AppendInt64(&out, m.timestamp);
        AppendInt64(&out, m.int_value);
        break;
      case Mutation::Kind::kDeleteFromColumn:
        AppendInt64(&out, m.range.start_micros);
        AppendInt64(&out, m.range.end_micros);
        break;
      case Mutation::Kind::kDeleteFromFamily:
      case Mutation::Kind::kDeleteFromRow: break;
    }
  }
  return out;
}

Status DecodeChange(std::string_view value, DataChange* change) {
  Reader in(value);
  char version, type;
  change->mutations.clear();
  if (!in.Byte(&version) || version != kChangeVersion || !in.Byte(&type) || !in.Bytes(&change->row_key) ||
      (type != static_cast<char>(DataChange::Type::kUser) &&
       type != static_cast<char>(DataChange::Type::kGarbageCollection))) {
    return Status::Corruption("a change log entry is malformed");
  }
  change->type = static_cast<DataChange::Type>(type);
  while (!in.empty()) {
    if (!DecodeMutation(&in, &change->mutations.emplace_back())) {
      return Status::Corruption("a change log entry is malformed");
    }
  }
  return Status::OK();
}

Result<int64_t> ChangeRecorder::NextCommit() {
  if (last_ >= 0) return last_ = std::max(now_, last_ + 1);
  const std::string prefix = TablePrefix(table_->id);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<KeyIterator> it, changes_.NewIterator());
  it->SeekForPrev(ChangeKey(table_->id, INT64_MAX));
  int64_t last = -1;
  if (it->Valid() && it->key().starts_with(prefix) && !DecodeChangeCommit(it->key(), prefix.size(), &last)) {
    return Status::Corruption("a change log key is malformed");
  }
  LBT_RETURN_IF_ERROR(it->status());
  return last_ = std::max(now_, last + 1);
}

Status ChangeRecorder::Record(DataChange::Type type, std::string_view row_key, const std::vector<Mutation>& mutations) {
  if (mutations.empty()) return Status::OK();
  DataChange change;
  change.type = type;
  change.row_key.assign(row_key);
  for (const Mutation& m : mutations) {
    if (m.kind == Mutation::Kind::kDeleteFromRow) {
      for (const FamilySpec* family : table_->FamiliesInCreationOrder()) {
        change.mutations.push_back(Mutation::DeleteFromFamily(family->name));
      }
      continue;
    }
    Mutation& applied = change.mutations.emplace_back(m);
    if (m.kind == Mutation::Kind::kSetCell || m.kind == Mutation::Kind::kAddToCell) {
      applied.timestamp = m.StoredTimestamp(now_, GranularityMicros(table_->granularity));
      applied.client_timestamp = false;
    }
  }
  LBT_ASSIGN_OR_RETURN(int64_t commit, NextCommit());
  return changes_.PutNew(ChangeKey(table_->id, commit), EncodeChange(change));
}

Status ChangeRecorder::RecordSets(std::string_view row_key, const std::vector<SetCellRef>& cells) {
  if (cells.empty()) return Status::OK();
  std::string value;
  AppendChangeHead(&value, DataChange::Type::kUser, row_key);
  for (const SetCellRef& c : cells) AppendSetCell(&value, c.family, c.qualifier, c.timestamp, c.value);
  LBT_ASSIGN_OR_RETURN(int64_t commit, NextCommit());
  return changes_.PutNew(ChangeKey(table_->id, commit), value);
}

}  // namespace lbt
