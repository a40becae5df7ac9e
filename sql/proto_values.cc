#include "sql/proto_values.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "util/bytes.h"

namespace lbt::sql {

namespace {

namespace pb = google::protobuf;
using Field = pb::FieldDescriptor;

TypePtr StructOf(const pb::Descriptor* m, int depth);

TypePtr ScalarType(const Field* f, int depth) {
  switch (f->cpp_type()) {
    case Field::CPPTYPE_INT32:
    case Field::CPPTYPE_INT64:
    case Field::CPPTYPE_UINT32:
    case Field::CPPTYPE_UINT64: return Type::Int64();
    case Field::CPPTYPE_FLOAT: return Type::Float32();
    case Field::CPPTYPE_DOUBLE: return Type::Float64();
    case Field::CPPTYPE_BOOL: return Type::Bool();
    case Field::CPPTYPE_ENUM: return Type::String();
    case Field::CPPTYPE_STRING: return f->type() == Field::TYPE_BYTES ? Type::Bytes() : Type::String();
    case Field::CPPTYPE_MESSAGE: break;
  }
  return depth >= kMaxProtoDepth ? Type::Bytes() : StructOf(f->message_type(), depth);
}

// A message at `depth` (0 for the cast's own) as a STRUCT.
TypePtr StructOf(const pb::Descriptor* m, int depth) {
  std::vector<std::pair<std::string, TypePtr>> fields;
  for (int i = 0; i < m->field_count(); ++i) {
    const Field* f = m->field(i);
    TypePtr t = ScalarType(f, depth + 1);
    fields.emplace_back(std::string(f->name()), f->is_repeated() ? Type::Array(t) : t);
  }
  return Type::Struct(std::move(fields));
}

Value MessageValue(const pb::Message& message, const TypePtr& type, int depth);

// One value of field `f` (the index-th of a repeated one, -1 otherwise).
Value FieldValue(const pb::Message& message, const Field* f, int index, const TypePtr& type, int depth) {
  const pb::Reflection* r = message.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case Field::CPPTYPE_INT32:
      return Value::Int64(rep ? r->GetRepeatedInt32(message, f, index) : r->GetInt32(message, f));
    case Field::CPPTYPE_INT64:
      return Value::Int64(rep ? r->GetRepeatedInt64(message, f, index) : r->GetInt64(message, f));
    case Field::CPPTYPE_UINT32:
      return Value::Int64(rep ? r->GetRepeatedUInt32(message, f, index) : r->GetUInt32(message, f));
    case Field::CPPTYPE_UINT64:
      return Value::Int64(
          static_cast<int64_t>(rep ? r->GetRepeatedUInt64(message, f, index) : r->GetUInt64(message, f)));
    case Field::CPPTYPE_FLOAT:
      return Value::Float32(rep ? r->GetRepeatedFloat(message, f, index) : r->GetFloat(message, f));
    case Field::CPPTYPE_DOUBLE:
      return Value::Float64(rep ? r->GetRepeatedDouble(message, f, index) : r->GetDouble(message, f));
    case Field::CPPTYPE_BOOL: return Value::Bool(rep ? r->GetRepeatedBool(message, f, index) : r->GetBool(message, f));
    case Field::CPPTYPE_ENUM: {
      const int number = rep ? r->GetRepeatedEnumValue(message, f, index) : r->GetEnumValue(message, f);
      const pb::EnumValueDescriptor* v = f->enum_type()->FindValueByNumber(number);
      return Value::String(v != nullptr ? std::string(v->name()) : std::to_string(number));
    }
    case Field::CPPTYPE_STRING: {
      std::string s = rep ? r->GetRepeatedString(message, f, index) : r->GetString(message, f);
      return f->type() == Field::TYPE_BYTES ? Value::Bytes(std::move(s)) : Value::String(std::move(s));
    }
    case Field::CPPTYPE_MESSAGE: break;
  }
  if (!rep && !r->HasField(message, f)) return Value::Null(type);
  const pb::Message& inner = rep ? r->GetRepeatedMessage(message, f, index) : r->GetMessage(message, f);
  if (type->kind == TypeKind::kBytes) return Value::Bytes(inner.SerializeAsString());
  return MessageValue(inner, type, depth + 1);
}

Value MessageValue(const pb::Message& message, const TypePtr& type, int depth) {
  const pb::Descriptor* m = message.GetDescriptor();
  const pb::Reflection* r = message.GetReflection();
  Values fields;
  for (int i = 0; i < m->field_count(); ++i) {
    const Field* f = m->field(i);
    const TypePtr& t = type->fields[static_cast<size_t>(i)].second;
    if (!f->is_repeated()) {
      fields.push_back(FieldValue(message, f, -1, t, depth));
      continue;
    }
    Values elements;
    for (int k = 0; k < r->FieldSize(message, f); ++k) elements.push_back(FieldValue(message, f, k, t->element, depth));
    fields.push_back(Value::Array(t, std::move(elements)));
  }
  return Value::Struct(type, std::move(fields));
}

}  // namespace

TypePtr ProtoStructType(const pb::Descriptor* message) { return StructOf(message, 0); }

Value FamilyCellValue(const ProtoCast& cast, std::string_view bytes) {
  if (cast.enum_type != nullptr) {
    if (bytes.size() != 8) return Value::Null(Type::String());
    const auto number = static_cast<int64_t>(DecodeBigEndian(bytes));
    const pb::EnumValueDescriptor* v = cast.enum_type->FindValueByNumber(static_cast<int>(number));
    return Value::String(v != nullptr ? std::string(v->name()) : std::to_string(number));
  }
  Result<Value> decoded = DecodeProto(cast, bytes, /*safe=*/true);
  return decoded.ok() ? *decoded : Value::Null(cast.type);
}

Result<Value> DecodeProto(const ProtoCast& cast, std::string_view bytes, bool safe) {
  std::unique_ptr<pb::Message> message = cast.types->Parse(cast.message, bytes);
  if (message == nullptr) {
    if (safe) return Value::Null(cast.type);
    return Status::InvalidArgument(
        fmt::format("{} bytes are not a {} message", bytes.size(), cast.message->full_name()));
  }
  return MessageValue(*message, cast.type, 0);
}

}  // namespace lbt::sql
