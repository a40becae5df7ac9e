#include "storage/format/key_codec.h"
#include "util/bytes.h"

#include <cstring>

namespace lbt {

namespace {
constexpr char kEscapeByte = '\x00';
constexpr char kEscapedZero = '\xff';
constexpr char kTerminator = '\x01';
// id(n) takes one byte below this.
constexpr uint32_t kFirstLongIdByte = 0xF0;
}  // namespace

void AppendEscaped(std::string* out, std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t zero = s.find('\0', start);
    if (zero == std::string_view::npos) {
      out->append(s.data() + start, s.size() - start);
      break;
    }
    out->append(s.data() + start, zero - start);
    out->push_back(kEscapeByte);
    out->push_back(kEscapedZero);
    start = zero + 1;
  }
  out->push_back(kEscapeByte);
  out->push_back(kTerminator);
}

bool ConsumeEscaped(std::string_view* in, std::string* out) {
  out->clear();
  std::string_view s = *in;
  size_t start = 0;
  while (true) {
    size_t zero = s.find('\0', start);
    if (zero == std::string_view::npos || zero + 1 >= s.size()) return false;
    out->append(s.data() + start, zero - start);
    char marker = s[zero + 1];
    if (marker == kTerminator) {
      in->remove_prefix(zero + 2);
      return true;
    }
    if (marker != kEscapedZero) return false;
    out->push_back('\0');
    start = zero + 2;
  }
}

bool SkipEscaped(std::string_view* in) {
  std::string_view s = *in;
  size_t start = 0;
  while (true) {
    size_t zero = s.find('\0', start);
    if (zero == std::string_view::npos || zero + 1 >= s.size()) return false;
    char marker = s[zero + 1];
    if (marker == kTerminator) {
      in->remove_prefix(zero + 2);
      return true;
    }
    if (marker != kEscapedZero) return false;
    start = zero + 2;
  }
}

void AppendId(std::string* out, uint32_t id) {
  if (id < kFirstLongIdByte) {
    out->push_back(static_cast<char>(id));
    return;
  }
  int bytes = 1;
  while (bytes < 4 && (id >> (8 * bytes)) != 0) ++bytes;
  out->push_back(static_cast<char>(kFirstLongIdByte - 1 + bytes));
  AppendBigEndian(out, id, bytes);
}

bool ConsumeId(std::string_view* in, uint32_t* id) {
  if (in->empty()) return false;
  const uint8_t first = static_cast<uint8_t>((*in)[0]);
  if (first < kFirstLongIdByte) {
    *id = first;
    in->remove_prefix(1);
    return true;
  }
  const size_t bytes = first - (kFirstLongIdByte - 1);
  if (bytes > 4 || in->size() < 1 + bytes) return false;
  const uint32_t v = static_cast<uint32_t>(DecodeBigEndian(in->substr(1, bytes)));
  // Only the shortest form is valid, so that each id has one encoding.
  if (v < kFirstLongIdByte || (bytes > 1 && (v >> (8 * (bytes - 1))) == 0)) return false;
  *id = v;
  in->remove_prefix(1 + bytes);
  return true;
}

// Timestamps sort newest first: flip the sign bit so that signed order becomes
// unsigned order, then invert every bit so that larger sorts first.
void AppendTimestamp(std::string* out, int64_t timestamp_micros) {
  uint64_t v = ~(static_cast<uint64_t>(timestamp_micros) ^ (1ull << 63));
  AppendBigEndian(out, v, 8);
}

bool ConsumeTimestamp(std::string_view* in, int64_t* timestamp_micros) {
  if (in->size() < 8) return false;
  const uint64_t v = DecodeBigEndian(in->substr(0, 8));
  *timestamp_micros = static_cast<int64_t>(~v ^ (1ull << 63));
  in->remove_prefix(8);
  return true;
}

std::string EncodeCellKey(TableId table, std::string_view row, FamilyId family, std::string_view qualifier,
                          int64_t timestamp) {
  std::string key;
  key.reserve(row.size() + qualifier.size() + 20);
  AppendId(&key, table);
  AppendEscaped(&key, row);
  AppendId(&key, family);
  AppendEscaped(&key, qualifier);
  AppendTimestamp(&key, timestamp);
  return key;
}

bool DecodeCellKey(std::string_view key, CellKey* out) {
  return ConsumeId(&key, &out->table) && ConsumeEscaped(&key, &out->row) && ConsumeId(&key, &out->family) &&
         ConsumeEscaped(&key, &out->qualifier) && ConsumeTimestamp(&key, &out->timestamp) && key.empty();
}

std::string TablePrefix(TableId table) {
  std::string p;
  AppendId(&p, table);
  return p;
}

std::string RowPrefix(TableId table, std::string_view row) {
  std::string p = TablePrefix(table);
  AppendEscaped(&p, row);
  return p;
}

std::string FamilyPrefix(TableId table, std::string_view row, FamilyId family) {
  std::string p = RowPrefix(table, row);
  AppendId(&p, family);
  return p;
}

std::string ColumnPrefix(TableId table, std::string_view row, FamilyId family, std::string_view qualifier) {
  std::string p = FamilyPrefix(table, row, family);
  AppendEscaped(&p, qualifier);
  return p;
}

std::string RowKeyPrefix(TableId table, std::string_view row_key_prefix) {
  std::string p = TablePrefix(table);
  AppendEscaped(&p, row_key_prefix);
  p.resize(p.size() - 2);  // escaping is prefix-preserving without the terminator
  return p;
}

}  // namespace lbt
