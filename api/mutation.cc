#include "api/mutation.h"
#include "util/bytes.h"

namespace lbt {

std::string EncodeInt64(int64_t v) {
  std::string s;
  AppendBigEndian(&s, static_cast<uint64_t>(v), 8);
  return s;
}

bool DecodeInt64(const std::string& bytes, int64_t* v) {
  if (bytes.size() != 8) return false;
  *v = static_cast<int64_t>(DecodeBigEndian(bytes));
  return true;
}

Mutation Mutation::SetCell(std::string family, std::string qualifier, std::string value, int64_t timestamp) {
  Mutation m;
  m.kind = Kind::kSetCell;
  m.family = std::move(family);
  m.qualifier = std::move(qualifier);
  m.value = std::move(value);
  m.timestamp = timestamp;
  return m;
}

Mutation Mutation::AddToCell(std::string family, std::string qualifier, int64_t delta, int64_t timestamp) {
  Mutation m;
  m.kind = Kind::kAddToCell;
  m.family = std::move(family);
  m.qualifier = std::move(qualifier);
  m.int_value = delta;
  m.timestamp = timestamp;
  return m;
}

Mutation Mutation::AddBytesToCell(std::string family, std::string qualifier, std::string bytes, int64_t timestamp,
                                  bool merge) {
  Mutation m = AddToCell(std::move(family), std::move(qualifier), 0, timestamp);
  m.bytes_input = true;
  m.merge = merge;
  m.value = std::move(bytes);
  return m;
}

Mutation Mutation::DeleteFromColumn(std::string family, std::string qualifier, TimestampRange range) {
  Mutation m;
  m.kind = Kind::kDeleteFromColumn;
  m.family = std::move(family);
  m.qualifier = std::move(qualifier);
  m.range = range;
  return m;
}

Mutation Mutation::DeleteFromFamily(std::string family) {
  Mutation m;
  m.kind = Kind::kDeleteFromFamily;
  m.family = std::move(family);
  return m;
}

Mutation Mutation::DeleteFromRow() {
  Mutation m;
  m.kind = Kind::kDeleteFromRow;
  return m;
}

ReadModifyWriteRule ReadModifyWriteRule::Append(std::string family, std::string qualifier, std::string bytes) {
  ReadModifyWriteRule r;
  r.kind = Kind::kAppend;
  r.family = std::move(family);
  r.qualifier = std::move(qualifier);
  r.append_value = std::move(bytes);
  return r;
}

ReadModifyWriteRule ReadModifyWriteRule::Increment(std::string family, std::string qualifier, int64_t delta) {
  ReadModifyWriteRule r;
  r.kind = Kind::kIncrement;
  r.family = std::move(family);
  r.qualifier = std::move(qualifier);
  r.increment = delta;
  return r;
}

}  // namespace lbt
