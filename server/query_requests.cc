#include "server/query_requests.h"

#include <fmt/format.h>

#include <charconv>

#include "proto/query_convert.h"

namespace lbt::server {

namespace {

constexpr std::string_view kPreparedPrefix = "lbt-prepared-query-1:";
constexpr std::string_view kResumePrefix = "lbt-rows:";

}  // namespace

std::string EncodePreparedQuery(const v2::PrepareQueryRequest& request) {
  v2::PrepareQueryRequest kept;
  kept.set_query(request.query());
  *kept.mutable_param_types() = request.param_types();
  std::string out(kPreparedPrefix);
  kept.AppendToString(&out);
  return out;
}

Result<v2::PrepareQueryRequest> DecodePreparedQuery(std::string_view bytes) {
  v2::PrepareQueryRequest request;
  if (bytes.substr(0, kPreparedPrefix.size()) != kPreparedPrefix ||
      !request.ParseFromArray(bytes.data() + kPreparedPrefix.size(),
                              static_cast<int>(bytes.size() - kPreparedPrefix.size()))) {
    return Status::InvalidArgument("prepared_query: not a prepared query from PrepareQuery");
  }
  return request;
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
