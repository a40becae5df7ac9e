#include "api/row_key_schema.h"

#include <fmt/format.h>

#include <vector>

namespace lbt {

std::string_view RowKeyTypeName(RowKeyField::Type type) {
  switch (type) {
    case RowKeyField::Type::kBytes: return "bytes";
    case RowKeyField::Type::kString: return "string";
    case RowKeyField::Type::kInt64: return "int64";
    case RowKeyField::Type::kTimestamp: return "timestamp";
  }
  return "bytes";
}

std::string_view IntEncodingName(RowKeyField::IntEncoding encoding) {
  return encoding == RowKeyField::IntEncoding::kOrderedCodeBytes ? "ordered_code" : "big_endian";
}

std::string_view RowKeyEncodingName(RowKeySchema::Encoding encoding) {
  switch (encoding) {
    case RowKeySchema::Encoding::kSingleton: return "singleton";
    case RowKeySchema::Encoding::kDelimitedBytes: return "delimited";
    case RowKeySchema::Encoding::kOrderedCodeBytes: return "ordered_code";
  }
  return "delimited";
}

bool ParseRowKeyType(std::string_view name, RowKeyField::Type* type) {
  for (auto t : {RowKeyField::Type::kBytes, RowKeyField::Type::kString, RowKeyField::Type::kInt64,
                 RowKeyField::Type::kTimestamp}) {
    if (name == RowKeyTypeName(t)) return *type = t, true;
  }
  return false;
}

bool ParseIntEncoding(std::string_view name, RowKeyField::IntEncoding* encoding) {
  for (auto e : {RowKeyField::IntEncoding::kBigEndianBytes, RowKeyField::IntEncoding::kOrderedCodeBytes}) {
    if (name == IntEncodingName(e)) return *encoding = e, true;
  }
  return false;
}

bool ParseRowKeyEncoding(std::string_view name, RowKeySchema::Encoding* encoding) {
  for (auto e : {RowKeySchema::Encoding::kSingleton, RowKeySchema::Encoding::kDelimitedBytes,
                 RowKeySchema::Encoding::kOrderedCodeBytes}) {
    if (name == RowKeyEncodingName(e)) return *encoding = e, true;
  }
  return false;
}

std::string DescribeRowKeySchema(const RowKeySchema& schema) {
  const std::string joint = schema.encoding == RowKeySchema::Encoding::kDelimitedBytes ? schema.delimiter : ", ";
  std::string out;
  for (const RowKeyField& f : schema.fields) {
    if (!out.empty()) out += joint;
    out += fmt::format("{}:{}", f.name, RowKeyTypeName(f.type));
    if (f.type == RowKeyField::Type::kInt64 || f.type == RowKeyField::Type::kTimestamp) {
      out += fmt::format("({})", IntEncodingName(f.int_encoding));
    }
  }
  switch (schema.encoding) {
    case RowKeySchema::Encoding::kSingleton: return out + " (singleton)";
    case RowKeySchema::Encoding::kDelimitedBytes: return out + fmt::format(" (delimited by '{}')", schema.delimiter);
    case RowKeySchema::Encoding::kOrderedCodeBytes: return out + " (ordered code)";
  }
  return out;
}

namespace {

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

Result<RowKeyField> ParseFieldText(std::string_view text) {
  const std::vector<std::string_view> parts = Split(text, ':');
  RowKeyField f;
  f.name = std::string(parts[0]);
  if (parts.size() < 2 || parts.size() > 3 || !ParseRowKeyType(parts[1], &f.type)) {
    return Status::InvalidArgument(
        fmt::format("bad row-key field '{}': expected name:type with type bytes, string, int64 or timestamp", text));
  }
  const bool integer = f.type == RowKeyField::Type::kInt64 || f.type == RowKeyField::Type::kTimestamp;
  if (parts.size() == 3 && (!integer || !ParseIntEncoding(parts[2], &f.int_encoding))) {
    return Status::InvalidArgument(fmt::format(
        "bad row-key field '{}': only int64 and timestamp fields take an encoding, big_endian or ordered_code", text));
  }
  return f;
}

}  // namespace

Result<RowKeySchema> ParseRowKeySchemaText(std::string_view fields, std::string_view encoding) {
  RowKeySchema schema;
  for (std::string_view part : Split(fields, ',')) {
    LBT_ASSIGN_OR_RETURN(RowKeyField f, ParseFieldText(part));
    schema.fields.push_back(std::move(f));
  }
  if (encoding.empty()) encoding = "delimited:#";
  const size_t colon = encoding.find(':');
  if (!ParseRowKeyEncoding(encoding.substr(0, colon), &schema.encoding) ||
      (schema.encoding == RowKeySchema::Encoding::kDelimitedBytes) != (colon != std::string_view::npos)) {
    return Status::InvalidArgument(
        fmt::format("bad row-key encoding '{}': expected delimited:<delimiter>, ordered_code or singleton", encoding));
  }
  if (colon != std::string_view::npos) schema.delimiter = std::string(encoding.substr(colon + 1));
  return schema;
}

std::string RowKeyFieldsText(const RowKeySchema& schema) {
  std::string out;
  for (const RowKeyField& f : schema.fields) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}:{}", f.name, RowKeyTypeName(f.type));
    if (f.int_encoding != RowKeyField::IntEncoding::kBigEndianBytes)
      out += fmt::format(":{}", IntEncodingName(f.int_encoding));
  }
  return out;
}

std::string RowKeyEncodingText(const RowKeySchema& schema) {
  std::string out(RowKeyEncodingName(schema.encoding));
  if (schema.encoding == RowKeySchema::Encoding::kDelimitedBytes) out += ":" + schema.delimiter;
  return out;
}

}  // namespace lbt
