#include "api/row_key_schema.h"

#include <fmt/format.h>

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

}  // namespace lbt
