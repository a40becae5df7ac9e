#include "proto/query_convert.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace lbt::proto {

namespace {

// ---- CRC32C ----

constexpr uint32_t kCastagnoli = 0x82F63B78;  // the reflected polynomial

std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) != 0 ? kCastagnoli : 0);
    table[i] = crc;
  }
  return table;
}

uint32_t Crc32cPortable(uint32_t crc, const unsigned char* p, size_t n) {
  static const std::array<uint32_t, 256> table = MakeCrcTable();
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
// SSE 4.2 computes CRC32C itself, eight bytes an instruction.
__attribute__((target("sse4.2"))) uint32_t Crc32cHardware(uint32_t crc, const unsigned char* p, size_t n) {
  uint64_t crc64 = crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t word;
    __builtin_memcpy(&word, p, 8);
    crc64 = __builtin_ia32_crc32di(crc64, word);
  }
  crc = static_cast<uint32_t>(crc64);
  for (; n > 0; --n, ++p) crc = __builtin_ia32_crc32qi(crc, *p);
  return crc;
}
#endif

// ---- types ----

// A Timestamp's seconds from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
constexpr int64_t kMinTimestampSeconds = -62'135'596'800;
constexpr int64_t kMaxTimestampSeconds = 253'402'300'799;

Status TypeError(std::string_view field, std::string_view why) {
  return Status::InvalidArgument(fmt::format("{}: {}", field, why));
}

std::string Join(std::string_view field, std::string_view part) { return fmt::format("{}.{}", field, part); }

// A result stream that breaks the protocol: the service's fault.
Status BrokenStream(std::string_view why) {
  return Status::FromCode(Status::Code::kInternal, fmt::format("the query's results: {}", why));
}

// ---- values ----

void TimestampToProto(int64_t micros, google::protobuf::Timestamp* out) {
  int64_t seconds = micros / 1000000;
  int64_t rest = micros % 1000000;
  if (rest < 0) {
    rest += 1000000;
    --seconds;
  }
  out->set_seconds(seconds);
  out->set_nanos(static_cast<int32_t>(rest * 1000));
}

void DateToProto(int64_t days, google::type::Date* out) {
  int64_t year;
  unsigned month, day;
  sql::CivilFromDays(days, &year, &month, &day);
  out->set_year(static_cast<int32_t>(year));
  out->set_month(static_cast<int32_t>(month));
  out->set_day(static_cast<int32_t>(day));
}

Status KindError(const v2::Value& value, const sql::TypePtr& type, std::string_view field) {
  return Status::InvalidArgument(fmt::format("{}: a {} value cannot hold {}", field, type->ToString(),
                                             value.GetDescriptor()->FindFieldByNumber(value.kind_case())->name()));
}

Result<sql::Values> ElementsFromProto(const v2::Value& value, const sql::TypePtr& type, std::string_view field) {
  if (value.kind_case() != v2::Value::kArrayValue) return KindError(value, type, field);
  const auto& items = value.array_value().values();
  sql::Values out;
  out.reserve(items.size());
  for (int i = 0; i < items.size(); ++i) {
    const std::string where = fmt::format("{}.array_value.values[{}]", field, i);
    sql::TypePtr item_type;
    if (type->kind == sql::TypeKind::kArray) {
      item_type = type->element;
    } else if (static_cast<size_t>(i) < type->fields.size()) {
      item_type = type->fields[i].second;
    } else {
      return TypeError(field, fmt::format("a {} has {} fields, not more", type->ToString(), type->fields.size()));
    }
    LBT_ASSIGN_OR_RETURN(sql::Value item, SqlValueFromProto(items[i], item_type, where));
    out.push_back(std::move(item));
  }
  if (type->kind == sql::TypeKind::kStruct && out.size() != type->fields.size()) {
    return TypeError(field,
                     fmt::format("a {} has {} fields, not {}", type->ToString(), type->fields.size(), out.size()));
  }
  return out;
}

Result<sql::Value> MapFromProto(const v2::Value& value, const sql::TypePtr& type, std::string_view field) {
  if (value.kind_case() != v2::Value::kArrayValue) return KindError(value, type, field);
  const auto& items = value.array_value().values();
  sql::MapEntries entries;
  for (int i = 0; i < items.size(); ++i) {
    const std::string where = fmt::format("{}.array_value.values[{}]", field, i);
    const v2::Value& entry = items[i];
    if (entry.kind_case() != v2::Value::kArrayValue || entry.array_value().values_size() != 2) {
      return TypeError(where, "a map entry is an array_value of a key and a value");
    }
    LBT_ASSIGN_OR_RETURN(sql::Value key, SqlValueFromProto(entry.array_value().values(0), type->key, where));
    LBT_ASSIGN_OR_RETURN(sql::Value item, SqlValueFromProto(entry.array_value().values(1), type->value, where));
    entries.emplace_back(std::move(key), std::move(item));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return sql::Compare(a.first, b.first) < 0; });
  for (size_t i = 1; i < entries.size(); ++i) {
    if (sql::GroupEqual(entries[i - 1].first, entries[i].first)) return TypeError(field, "a map key appears twice");
  }
  return sql::Value::Map(type, std::move(entries));
}

}  // namespace

uint32_t Crc32c(std::string_view data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
#if defined(__x86_64__)
  static const bool hardware = __builtin_cpu_supports("sse4.2");
  if (hardware) return ~Crc32cHardware(~0u, p, data.size());
#endif
  return ~Crc32cPortable(~0u, p, data.size());
}

v2::Type ToProto(const sql::Type& type) {
  v2::Type out;
  switch (type.kind) {
    case sql::TypeKind::kBytes: out.mutable_bytes_type(); break;
    case sql::TypeKind::kString: out.mutable_string_type(); break;
    case sql::TypeKind::kInt64: out.mutable_int64_type(); break;
    case sql::TypeKind::kFloat32: out.mutable_float32_type(); break;
    case sql::TypeKind::kFloat64: out.mutable_float64_type(); break;
    case sql::TypeKind::kBool: out.mutable_bool_type(); break;
    case sql::TypeKind::kTimestamp: out.mutable_timestamp_type(); break;
    case sql::TypeKind::kDate: out.mutable_date_type(); break;
    // Never a result's (Prepare refuses one): as its WKT, should one pass.
    case sql::TypeKind::kGeography: out.mutable_string_type(); break;
    case sql::TypeKind::kArray: *out.mutable_array_type()->mutable_element_type() = ToProto(*type.element); break;
    case sql::TypeKind::kMap:
      *out.mutable_map_type()->mutable_key_type() = ToProto(*type.key);
      *out.mutable_map_type()->mutable_value_type() = ToProto(*type.value);
      break;
    case sql::TypeKind::kStruct:
      for (const auto& [name, field_type] : type.fields) {
        v2::Type::Struct::Field* field = out.mutable_struct_type()->add_fields();
        field->set_field_name(name);
        *field->mutable_type() = ToProto(*field_type);
      }
      break;
  }
  return out;
}

Result<sql::TypePtr> SqlTypeFromProto(const v2::Type& type, std::string_view field) {
  switch (type.kind_case()) {
    case v2::Type::kBytesType: return sql::Type::Bytes();
    case v2::Type::kStringType: return sql::Type::String();
    case v2::Type::kInt64Type: return sql::Type::Int64();
    case v2::Type::kFloat32Type: return sql::Type::Float32();
    case v2::Type::kFloat64Type: return sql::Type::Float64();
    case v2::Type::kBoolType: return sql::Type::Bool();
    case v2::Type::kTimestampType: return sql::Type::Timestamp();
    case v2::Type::kDateType: return sql::Type::Date();
    case v2::Type::kArrayType: {
      LBT_ASSIGN_OR_RETURN(sql::TypePtr element,
                           SqlTypeFromProto(type.array_type().element_type(), Join(field, "array_type.element_type")));
      return sql::Type::Array(std::move(element));
    }
    case v2::Type::kMapType: {
      LBT_ASSIGN_OR_RETURN(sql::TypePtr key,
                           SqlTypeFromProto(type.map_type().key_type(), Join(field, "map_type.key_type")));
      LBT_ASSIGN_OR_RETURN(sql::TypePtr value,
                           SqlTypeFromProto(type.map_type().value_type(), Join(field, "map_type.value_type")));
      return sql::Type::Map(std::move(key), std::move(value));
    }
    case v2::Type::kStructType: {
      std::vector<std::pair<std::string, sql::TypePtr>> fields;
      for (int i = 0; i < type.struct_type().fields_size(); ++i) {
        const v2::Type::Struct::Field& f = type.struct_type().fields(i);
        LBT_ASSIGN_OR_RETURN(sql::TypePtr t,
                             SqlTypeFromProto(f.type(), fmt::format("{}.struct_type.fields[{}].type", field, i)));
        fields.emplace_back(f.field_name(), std::move(t));
      }
      return sql::Type::Struct(std::move(fields));
    }
    case v2::Type::KIND_NOT_SET: return TypeError(field, "a type is required");
    default: break;
  }
  return TypeError(field, fmt::format("the {} type is not supported in queries",
                                      type.GetDescriptor()->FindFieldByNumber(type.kind_case())->name()));
}

v2::Value ToProto(const sql::Value& value) {
  v2::Value out;
  if (value.is_null()) return out;
  switch (value.kind()) {
    case sql::TypeKind::kBytes: out.set_bytes_value(value.str()); break;
    case sql::TypeKind::kString: out.set_string_value(value.str()); break;
    case sql::TypeKind::kInt64: out.set_int_value(value.int64()); break;
    case sql::TypeKind::kFloat32:
    case sql::TypeKind::kFloat64: out.set_float_value(value.float64()); break;
    case sql::TypeKind::kBool: out.set_bool_value(value.boolean()); break;
    case sql::TypeKind::kTimestamp: TimestampToProto(value.int64(), out.mutable_timestamp_value()); break;
    case sql::TypeKind::kDate: DateToProto(value.int64(), out.mutable_date_value()); break;
    case sql::TypeKind::kGeography: out.set_string_value(value.ToText()); break;
    case sql::TypeKind::kArray:
    case sql::TypeKind::kStruct: {
      v2::ArrayValue* items = out.mutable_array_value();
      for (const sql::Value& item : value.elements()) *items->add_values() = ToProto(item);
      break;
    }
    case sql::TypeKind::kMap: {
      v2::ArrayValue* items = out.mutable_array_value();
      for (const auto& [key, item] : value.entries()) {
        v2::ArrayValue* entry = items->add_values()->mutable_array_value();
        *entry->add_values() = ToProto(key);
        *entry->add_values() = ToProto(item);
      }
      break;
    }
  }
  return out;
}

Result<sql::Value> SqlValueFromProto(const v2::Value& value, const sql::TypePtr& type, std::string_view field) {
  using Kind = v2::Value::KindCase;
  if (value.kind_case() == v2::Value::KIND_NOT_SET) return sql::Value::Null(type);
  auto expect = [&](Kind kind) { return value.kind_case() == kind ? Status::OK() : KindError(value, type, field); };
  switch (type->kind) {
    case sql::TypeKind::kBytes:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kBytesValue));
      return sql::Value::Bytes(value.bytes_value());
    case sql::TypeKind::kString:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kStringValue));
      return sql::Value::String(value.string_value());
    case sql::TypeKind::kInt64:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kIntValue));
      return sql::Value::Int64(value.int_value());
    case sql::TypeKind::kBool:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kBoolValue));
      return sql::Value::Bool(value.bool_value());
    case sql::TypeKind::kFloat32:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kFloatValue));
      return sql::Value::Float32(static_cast<float>(value.float_value()));
    case sql::TypeKind::kFloat64:
      LBT_RETURN_IF_ERROR(expect(v2::Value::kFloatValue));
      return sql::Value::Float64(value.float_value());
    case sql::TypeKind::kTimestamp: {
      LBT_RETURN_IF_ERROR(expect(v2::Value::kTimestampValue));
      // Protobuf's range, the years 1 to 9999: its microseconds fit.
      const google::protobuf::Timestamp& t = value.timestamp_value();
      if (t.seconds() < kMinTimestampSeconds || t.seconds() > kMaxTimestampSeconds || t.nanos() < 0 ||
          t.nanos() > 999'999'999) {
        return TypeError(field, "not a time between the years 1 and 9999");
      }
      return sql::Value::Timestamp(t.seconds() * 1'000'000 + t.nanos() / 1000);
    }
    case sql::TypeKind::kDate: {
      LBT_RETURN_IF_ERROR(expect(v2::Value::kDateValue));
      const google::type::Date& d = value.date_value();
      if (d.year() < 1 || d.year() > 9999 || d.month() < 1 || d.month() > 12 || d.day() < 1 || d.day() > 31) {
        return TypeError(field, "not a valid date between the years 1 and 9999");
      }
      return sql::Value::Date(sql::DaysFromCivil(d.year(), d.month(), d.day()));
    }
    case sql::TypeKind::kArray:
    case sql::TypeKind::kStruct: {
      LBT_ASSIGN_OR_RETURN(sql::Values items, ElementsFromProto(value, type, field));
      return sql::Value::Array(type, std::move(items));
    }
    case sql::TypeKind::kMap: return MapFromProto(value, type, field);
    case sql::TypeKind::kGeography: return TypeError(field, "GEOGRAPHY has no Bigtable type");
  }
  return TypeError(field, "unknown type");
}

v2::ResultSetMetadata ToProto(const std::vector<sql::ResultColumn>& columns) {
  v2::ResultSetMetadata out;
  for (const sql::ResultColumn& column : columns) {
    v2::ColumnMetadata* c = out.mutable_proto_schema()->add_columns();
    c->set_name(column.name);
    *c->mutable_type() = ToProto(*column.type);
  }
  return out;
}

Result<std::vector<sql::ResultColumn>> ColumnsFromProto(const v2::ResultSetMetadata& metadata, std::string_view field) {
  if (!metadata.has_proto_schema()) return TypeError(field, "the metadata has no proto_schema");
  std::vector<sql::ResultColumn> columns;
  for (int i = 0; i < metadata.proto_schema().columns_size(); ++i) {
    const v2::ColumnMetadata& c = metadata.proto_schema().columns(i);
    LBT_ASSIGN_OR_RETURN(sql::TypePtr type,
                         SqlTypeFromProto(c.type(), fmt::format("{}.proto_schema.columns[{}].type", field, i)));
    columns.push_back({c.name(), std::move(type)});
  }
  return columns;
}

// ---- ResultBatcher ----

bool ResultBatcher::Add(const sql::Values& row) {
  // Serialized ProtoRows messages concatenate into one holding all their
  // values, so each row is appended as its own message.
  v2::ProtoRows rows;
  for (const sql::Value& value : row) *rows.add_values() = ToProto(value);
  last_row_bytes_ = rows.ByteSizeLong();
  // Protobuf cannot encode a message of 2 GiB or more; the caller refuses
  // such a row by its size.
  if (last_row_bytes_ < (size_t{1} << 31)) rows.AppendToString(&batch_);
  return batch_.size() >= batch_bytes_;
}

v2::PartialResultSet ResultBatcher::Take(std::string resume_token) {
  v2::PartialResultSet out;
  // No estimated_batch_size: it sizes a batch still to come, and each batch
  // here arrives whole in one message (Node's client even misreads an
  // estimate sent beside the checksum as data pending).
  if (!batch_.empty()) {
    out.set_batch_checksum(Crc32c(batch_));
    out.mutable_proto_rows_batch()->set_batch_data(std::move(batch_));
    batch_.clear();
  }
  out.set_resume_token(std::move(resume_token));
  return out;
}

// ---- ResultAssembler ----

Status ResultAssembler::Add(const v2::PartialResultSet& results, std::deque<sql::Values>* ready) {
  if (results.reset()) {
    buffer_.clear();
    queued_.clear();
  }
  if (results.has_proto_rows_batch()) buffer_ += results.proto_rows_batch().batch_data();
  if (results.has_batch_checksum()) LBT_RETURN_IF_ERROR(ParseBatch(results.batch_checksum()));
  if (!results.resume_token().empty()) {
    if (!buffer_.empty()) return BrokenStream("a resume token arrived inside a batch");
    for (sql::Values& row : queued_) ready->push_back(std::move(row));
    queued_.clear();
    resume_token_ = results.resume_token();
  }
  return Status::OK();
}

Status ResultAssembler::ParseBatch(uint32_t checksum) {
  if (Crc32c(buffer_) != checksum) return Status::Corruption("the query's results: a batch failed its checksum");
  v2::ProtoRows rows;
  if (!rows.ParseFromString(buffer_)) return BrokenStream("a batch does not parse");
  buffer_.clear();
  const size_t width = columns_.size();
  if (width == 0 || rows.values_size() % width != 0) {
    return BrokenStream(fmt::format("{} values do not make rows of {} columns", rows.values_size(), width));
  }
  for (size_t start = 0; start < static_cast<size_t>(rows.values_size()); start += width) {
    sql::Values row;
    row.reserve(width);
    for (size_t i = 0; i < width; ++i) {
      LBT_ASSIGN_OR_RETURN(sql::Value v, SqlValueFromProto(rows.values(static_cast<int>(start + i)), columns_[i].type,
                                                           columns_[i].name));
      row.push_back(std::move(v));
    }
    queued_.push_back(std::move(row));
  }
  return Status::OK();
}

Status ResultAssembler::Finish() const {
  if (!buffer_.empty() || !queued_.empty()) {
    return BrokenStream("the stream ended before its last rows were confirmed");
  }
  return Status::OK();
}

}  // namespace lbt::proto
