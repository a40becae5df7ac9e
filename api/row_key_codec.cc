#include "api/row_key_codec.h"

#include <fmt/format.h>

#include <bit>

#include "util/bytes.h"

namespace lbt {

namespace {

using Field = RowKeyField;
using Schema = RowKeySchema;

// The header of an ordered-code integer n bytes long: n bits equal to the
// sign bit's opposite, then a delimiter bit; here the bits to XOR into the
// first two bytes of the sign-extended value.
constexpr uint8_t kHeader[11][2] = {{0, 0},    {0x80, 0}, {0xc0, 0}, {0xe0, 0},    {0xf0, 0},   {0xf8, 0},
                                    {0xfc, 0}, {0xfe, 0}, {0xff, 0}, {0xff, 0x80}, {0xff, 0xc0}};

bool IsInteger(const Field& f) { return f.type == Field::Type::kInt64 || f.type == Field::Type::kTimestamp; }

std::string EncodeField(const Field& f, const RowKeyFieldValue& v) {
  if (!IsInteger(f)) return v.bytes;
  std::string out;
  if (f.int_encoding == Field::IntEncoding::kBigEndianBytes) {
    AppendBigEndian(&out, static_cast<uint64_t>(v.number), 8);
  } else {
    AppendOrderedCodeInt64(v.number, &out);
  }
  return out;
}

// Why `part` is not a value of `f`, or "" when it is one (set in *v).
std::string DecodeField(const Field& f, std::string_view part, RowKeyFieldValue* v) {
  switch (f.type) {
    case Field::Type::kBytes: v->bytes.assign(part); return "";
    case Field::Type::kString:
      if (!IsValidUtf8(part)) return fmt::format("field {} is not UTF-8", f.name);
      v->bytes.assign(part);
      return "";
    case Field::Type::kInt64:
    case Field::Type::kTimestamp: break;
  }
  if (f.int_encoding == Field::IntEncoding::kBigEndianBytes) {
    if (part.size() != 8) return fmt::format("field {} is {} bytes, not an 8-byte integer", f.name, part.size());
    v->number = static_cast<int64_t>(DecodeBigEndian(part));
    return "";
  }
  size_t length = 0;
  if (!ReadOrderedCodeInt64(part, &v->number, &length) || length != part.size()) {
    return fmt::format("field {} is not an ordered-code integer", f.name);
  }
  return "";
}

// Escapes 0x00 as 0x00 0xFF (the ordered-code struct's fields).
void AppendEscaped(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xff');
  }
}

// The ordered-code struct's encoded parts, unescaped; an empty field's
// 0x00 0x00 as an empty part. False for bytes no encoding makes.
bool SplitOrderedCode(std::string_view key, std::vector<std::string>* parts) {
  parts->assign(1, "");
  bool marked_empty = false;  // the current part was 0x00 0x00
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i] != '\0') {
      if (marked_empty) return false;
      parts->back().push_back(key[i]);
      continue;
    }
    if (i + 1 == key.size()) return false;
    const char next = key[++i];
    if (next == '\x01') {
      if (parts->back().empty() && !marked_empty) return false;  // an empty field is 0x00 0x00
      parts->emplace_back();
      marked_empty = false;
    } else if (next == '\xff' && !marked_empty) {
      parts->back().push_back('\0');
    } else if (next == '\0' && parts->back().empty() && !marked_empty) {
      marked_empty = true;
    } else {
      return false;
    }
  }
  return !parts->back().empty() || marked_empty;
}

std::vector<std::string> SplitDelimited(std::string_view key, const std::string& delimiter) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = key.find(delimiter, start);
    if (at == std::string_view::npos) break;
    parts.emplace_back(key.substr(start, at - start));
    start = at + delimiter.size();
  }
  parts.emplace_back(key.substr(start));
  return parts;
}

}  // namespace

void AppendOrderedCodeInt64(int64_t value, std::string* out) {
  const uint64_t magnitude = static_cast<uint64_t>(value < 0 ? ~value : value);
  const int bits = 64 - std::countl_zero(magnitude) + 1;  // with the sign bit
  const int n = std::min(10, (bits + 6) / 7);
  // The value sign-extended to 10 bytes; its last n bytes, with the header.
  uint8_t buf[10];
  buf[0] = buf[1] = value < 0 ? 0xff : 0;
  for (int i = 0; i < 8; ++i) buf[2 + i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (56 - 8 * i));
  uint8_t* first = buf + (10 - n);
  first[0] ^= kHeader[n][0];
  if (n > 1) first[1] ^= kHeader[n][1];
  out->append(reinterpret_cast<const char*>(first), static_cast<size_t>(n));
}

bool ReadOrderedCodeInt64(std::string_view bytes, int64_t* value, size_t* length) {
  if (bytes.empty()) return false;
  const auto b0 = static_cast<uint8_t>(bytes[0]);
  const bool negative = (b0 & 0x80) == 0;
  const uint8_t b1 = bytes.size() > 1 ? static_cast<uint8_t>(bytes[1]) : (negative ? 0xff : 0);
  const auto lead = static_cast<uint16_t>(((b0 << 8) | b1) ^ (negative ? 0xffff : 0));
  const int n = std::countl_one(lead);
  if (n < 1 || n > 10 || static_cast<size_t>(n) > bytes.size()) return false;
  uint8_t buf[10];
  for (int i = 0; i < n; ++i) buf[i] = static_cast<uint8_t>(bytes[i]);
  buf[0] ^= kHeader[n][0];
  if (n > 1) buf[1] ^= kHeader[n][1];
  uint64_t v = negative ? ~0ULL : 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | buf[i];
  // Only the shortest form is an encoding: re-encoding must give it back.
  std::string again;
  AppendOrderedCodeInt64(static_cast<int64_t>(v), &again);
  if (again != bytes.substr(0, static_cast<size_t>(n))) return false;
  *value = static_cast<int64_t>(v);
  *length = static_cast<size_t>(n);
  return true;
}

Result<std::vector<RowKeyFieldValue>> DecodeRowKey(const Schema& schema, std::string_view key) {
  auto fail = [&](const std::string& why) {
    return Status::InvalidArgument(
        fmt::format("row key \"{}\" does not decode as the table's row-key schema: {}", PrintableBytes(key), why));
  };
  std::vector<std::string> parts;
  switch (schema.encoding) {
    case Schema::Encoding::kSingleton: parts.emplace_back(key); break;
    case Schema::Encoding::kDelimitedBytes: parts = SplitDelimited(key, schema.delimiter); break;
    case Schema::Encoding::kOrderedCodeBytes:
      if (!SplitOrderedCode(key, &parts)) return fail("it is not in ordered code");
      // Trailing empty fields are left out of the key.
      while (parts.size() < schema.fields.size()) parts.emplace_back();
      break;
  }
  if (parts.size() != schema.fields.size()) {
    return fail(
        fmt::format("it has {} part{}, not {}", parts.size(), parts.size() == 1 ? "" : "s", schema.fields.size()));
  }
  std::vector<RowKeyFieldValue> values(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string why = DecodeField(schema.fields[i], parts[i], &values[i]);
    if (!why.empty()) return fail(why);
  }
  return values;
}

std::string EncodeRowKey(const Schema& schema, const std::vector<RowKeyFieldValue>& values) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < values.size() && i < schema.fields.size(); ++i) {
    parts.push_back(EncodeField(schema.fields[i], values[i]));
  }
  std::string key;
  switch (schema.encoding) {
    case Schema::Encoding::kSingleton: return parts.empty() ? key : parts[0];
    case Schema::Encoding::kDelimitedBytes:
      for (size_t i = 0; i < parts.size(); ++i) key += (i > 0 ? schema.delimiter : "") + parts[i];
      return key;
    case Schema::Encoding::kOrderedCodeBytes: break;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  if (parts.empty()) return std::string("\0\0", 2);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) key.append("\0\x01", 2);
    if (parts[i].empty()) {
      key.append("\0\0", 2);
    } else {
      AppendEscaped(parts[i], &key);
    }
  }
  return key;
}

std::string RowKeyPrefix(const Schema& schema, const std::vector<RowKeyFieldValue>& leading) {
  std::string prefix;
  switch (schema.encoding) {
    case Schema::Encoding::kSingleton: return prefix;
    case Schema::Encoding::kDelimitedBytes:
      for (size_t i = 0; i < leading.size(); ++i)
        prefix += EncodeField(schema.fields[i], leading[i]) + schema.delimiter;
      return prefix;
    case Schema::Encoding::kOrderedCodeBytes: break;
  }
  // A field left empty may end the key (trailing empty fields are left
  // out), so the prefix stops before the first empty one.
  for (size_t i = 0; i < leading.size(); ++i) {
    const std::string part = EncodeField(schema.fields[i], leading[i]);
    if (part.empty()) break;
    if (i > 0) prefix.append("\0\x01", 2);
    AppendEscaped(part, &prefix);
  }
  return prefix;
}

}  // namespace lbt
