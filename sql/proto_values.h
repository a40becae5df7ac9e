// Protobuf messages of a table's schema bundles (api/schema_bundle.h) as
// SQL values: CAST(bytes AS bundle.pkg.Message) decodes a message into a
// STRUCT of its fields, in field order, read with `.field`:
//   - integers as INT64 (uint64 and fixed64 bit for bit), float as FLOAT32,
//     double as FLOAT64, bool as BOOL, string as STRING, bytes as BYTES;
//   - an enum as STRING, its value's name (the number, as text, for a
//     number the enum does not name);
//   - a message as a STRUCT, NULL when unset; past kMaxProtoDepth levels
//     (or a message that contains itself deeper) as BYTES, its encoding;
//   - a repeated field as an ARRAY (a map as an ARRAY of key-value STRUCTs).
// An unset scalar reads as its default, as protobuf reads it. A family of
// a bundle's proto or enum type (Type.Proto, Type.Enum) reads its cells so.

#ifndef LBT_SQL_PROTO_VALUES_H_
#define LBT_SQL_PROTO_VALUES_H_

#include <memory>
#include <string_view>

#include "protoschema/descriptor_set.h"
#include "sql/value.h"

namespace lbt::sql {

inline constexpr int kMaxProtoDepth = 8;

// What a bound CAST to a bundle's message type decodes with, or a proto
// or enum family's cells (then `enum_type` for an enum family).
struct ProtoCast {
  std::shared_ptr<const protoschema::ProtoTypes> types;
  const google::protobuf::Descriptor* message = nullptr;
  const google::protobuf::EnumDescriptor* enum_type = nullptr;
  TypePtr type;  // the STRUCT it decodes to; STRING for an enum
};

// The STRUCT type of `message` as above.
TypePtr ProtoStructType(const google::protobuf::Descriptor* message);

// `bytes` decoded as the cast's message; InvalidArgument when they are not
// one of it (NULL for SAFE_CAST: `safe`).
Result<Value> DecodeProto(const ProtoCast& cast, std::string_view bytes, bool safe);

// A proto or enum family's cell: the message (NULL when the bytes are not
// one), or the enum's name for an 8-byte big-endian number (its number as
// text when the enum does not name it; NULL when not 8 bytes).
Value FamilyCellValue(const ProtoCast& cast, std::string_view bytes);

}  // namespace lbt::sql

#endif  // LBT_SQL_PROTO_VALUES_H_
