#include "server/query_requests.h"

#include <fmt/format.h>

#include <charconv>

#include "proto/query_convert.h"
#include "util/bytes.h"

namespace lbt::server {

namespace {

// Format 2: the prefix, valid_until in microseconds and the fingerprint
// (8 bytes each, big-endian), then the PrepareQueryRequest kept.
constexpr std::string_view kPreparedPrefix = "lbt-prepared-query-2:";
// Format 1, the query and its parameter types alone.
constexpr std::string_view kFormat1Prefix = "lbt-prepared-query-1:";
constexpr std::string_view kResumePrefix = "lbt-rows:";

}  // namespace

std::string EncodePreparedQuery(const PreparedQueryToken& token) {
  v2::PrepareQueryRequest kept;
  kept.set_query(token.request.query());
  *kept.mutable_param_types() = token.request.param_types();
  std::string out(kPreparedPrefix);
  AppendBigEndian(&out, static_cast<uint64_t>(token.valid_until_micros), 8);
  AppendBigEndian(&out, token.fingerprint, 8);
  kept.AppendToString(&out);
  return out;
}

Result<PreparedQueryToken> DecodePreparedQuery(std::string_view bytes) {
  if (bytes.starts_with(kFormat1Prefix)) {
    return Status::PreparedQueryExpired("prepared_query: prepared by an older lbt; prepare the query again");
  }
  PreparedQueryToken token;
  const size_t head = kPreparedPrefix.size() + 16;
  if (!bytes.starts_with(kPreparedPrefix) || bytes.size() < head ||
      !token.request.ParseFromArray(bytes.data() + head, static_cast<int>(bytes.size() - head))) {
    return Status::InvalidArgument("prepared_query: not a prepared query from PrepareQuery");
  }
  token.valid_until_micros = static_cast<int64_t>(DecodeBigEndian(bytes.substr(kPreparedPrefix.size(), 8)));
  token.fingerprint = DecodeBigEndian(bytes.substr(kPreparedPrefix.size() + 8, 8));
  return token;
}

Result<TableSpec> SchemaWitness::GetTable(std::string_view table) {
  Result<TableSpec> spec = ForwardingBigtable::GetTable(table);
  seen_.append(table).push_back('\0');
  if (!spec.ok()) {
    seen_.append("?\0");
    return spec;
  }
  for (const auto& [name, family] : spec->families) {  // by name
    seen_.append(name).push_back('\0');
    seen_.append(ValueTypeName(StoredValueType(family.value_type))).push_back('\0');
  }
  if (spec->row_key_schema) seen_.append(DescribeRowKeySchema(*spec->row_key_schema));
  // A bundle's message types shape what a CAST to them reads.
  for (const SchemaBundleSpec& bundle : spec->schema_bundles)
    seen_.append(bundle.id + "@" + bundle.etag).push_back('\0');
  seen_.push_back('\n');
  return spec;
}

uint64_t SchemaWitness::Fingerprint(const v2::ResultSetMetadata& metadata) const {
  return Fnv1a64(seen_ + metadata.SerializeAsString());
}

Result<sql::ParamTypes> ParamTypesFromProto(const google::protobuf::Map<std::string, v2::Type>& types) {
  sql::ParamTypes out;
  for (const auto& [name, type] : types) {
    LBT_ASSIGN_OR_RETURN(sql::TypePtr t, proto::SqlTypeFromProto(type, fmt::format("param_types[{}]", name)));
    out[name] = std::move(t);
  }
  return out;
}

Result<sql::Params> ParamsFromProto(const google::protobuf::Map<std::string, v2::Value>& params,
                                    const sql::ParamTypes* declared) {
  sql::Params out;
  for (const auto& [name, value] : params) {
    const std::string field = fmt::format("params[{}]", name);
    sql::TypePtr type;
    if (value.has_type()) {
      LBT_ASSIGN_OR_RETURN(type, proto::SqlTypeFromProto(value.type(), field + ".type"));
    }
    if (declared != nullptr) {
      auto it = declared->find(name);
      if (it == declared->end()) {
        return Status::InvalidArgument(fmt::format("{}: the query was prepared without parameter @{}", field, name));
      }
      if (type != nullptr && !sql::SameType(type, it->second)) {
        return Status::InvalidArgument(
            fmt::format("{}.type: {} does not match the prepared {}", field, type->ToString(), it->second->ToString()));
      }
      type = it->second;
    } else if (type == nullptr) {
      return Status::InvalidArgument(fmt::format("{}.type: required when the request sets query", field));
    }
    LBT_ASSIGN_OR_RETURN(sql::Value v, proto::SqlValueFromProto(value, type, field));
    out.emplace(name, std::move(v));
  }
  return out;
}

std::string ResumeToken(int64_t rows_delivered) { return fmt::format("{}{}", kResumePrefix, rows_delivered); }

Result<int64_t> RowsBeforeResumeToken(std::string_view token) {
  if (token == kFinalResumeToken) return -1;
  int64_t rows = -1;
  std::string_view digits = token.substr(std::min(token.size(), kResumePrefix.size()));
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rows);
  if (token.substr(0, kResumePrefix.size()) != kResumePrefix || ec != std::errc() ||
      end != digits.data() + digits.size() || rows < 0) {
    return Status::InvalidArgument("resume_token: not a token this server sent");
  }
  return rows;
}

}  // namespace lbt::server
