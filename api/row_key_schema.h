// Row-key schemas (Table.row_key_schema): a table's row key read as a
// struct of named, typed fields, which SQL reads as columns. This is the
// seeds' row-key design (fields joined by a delimiter, most significant
// first) declared to the service.

#ifndef LBT_API_ROW_KEY_SCHEMA_H_
#define LBT_API_ROW_KEY_SCHEMA_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

// One field of a row key. Its type is scalar, with an encoding: Bytes
// (raw), String (UTF-8 bytes), Int64 and Timestamp (microseconds as an
// Int64), each integer big-endian or in ordered code.
struct RowKeyField {
  enum class Type { kBytes, kString, kInt64, kTimestamp };
  enum class IntEncoding { kBigEndianBytes, kOrderedCodeBytes };

  std::string name;
  Type type = Type::kBytes;
  IntEncoding int_encoding = IntEncoding::kBigEndianBytes;  // kInt64, kTimestamp

  friend bool operator==(const RowKeyField&, const RowKeyField&) = default;
};

// How the fields make up the key: one field alone (kSingleton), the
// fields joined by `delimiter` (kDelimitedBytes), or each in ordered code
// (kOrderedCodeBytes).
struct RowKeySchema {
  enum class Encoding { kSingleton, kDelimitedBytes, kOrderedCodeBytes };

  std::vector<RowKeyField> fields;
  Encoding encoding = Encoding::kDelimitedBytes;
  std::string delimiter;  // kDelimitedBytes

  friend bool operator==(const RowKeySchema&, const RowKeySchema&) = default;
};

// "bytes", "string", "int64", "timestamp"; "big_endian", "ordered_code";
// "singleton", "delimited", "ordered_code".
// WARNING: these names are stored in the catalog (storage/catalog.cc).
std::string_view RowKeyTypeName(RowKeyField::Type type);
std::string_view IntEncodingName(RowKeyField::IntEncoding encoding);
std::string_view RowKeyEncodingName(RowKeySchema::Encoding encoding);
// The names above back; false for another.
bool ParseRowKeyType(std::string_view name, RowKeyField::Type* type);
bool ParseIntEncoding(std::string_view name, RowKeyField::IntEncoding* encoding);
bool ParseRowKeyEncoding(std::string_view name, RowKeySchema::Encoding* encoding);

// The schema as people read it: "device:string#ts:int64 (delimited by '#')".
std::string DescribeRowKeySchema(const RowKeySchema& schema);

// The shell's form of a schema: its fields, "name:type[:int_encoding],..."
// ("device:string,ts:int64:ordered_code"; integers big_endian unless
// said), and its encoding, "delimited:<delimiter>", "ordered_code" or
// "singleton" ("" is delimited by '#', the seeds' separator).
// InvalidArgument naming what does not parse; the result still needs
// ValidateRowKeySchema against its table.
Result<RowKeySchema> ParseRowKeySchemaText(std::string_view fields, std::string_view encoding);
// The two texts ParseRowKeySchemaText takes back.
std::string RowKeyFieldsText(const RowKeySchema& schema);
std::string RowKeyEncodingText(const RowKeySchema& schema);

}  // namespace lbt

#endif  // LBT_API_ROW_KEY_SCHEMA_H_
