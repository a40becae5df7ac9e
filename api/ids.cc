#include "api/ids.h"

#include <fmt/format.h>

#include "api/limits.h"

namespace lbt {

namespace {
bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}
}  // namespace

Status ValidateTableName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("a table name cannot be empty");
  if (name.size() > kMaxTableIdLength) {
    return Status::InvalidArgument(
        fmt::format("table name is {} characters long; the limit is {}", name.size(), kMaxTableIdLength));
  }
  bool first_ok = name[0] == '_' || (IsNameChar(name[0]) && name[0] != '-' && name[0] != '.');
  for (char c : name) {
    if (!IsNameChar(c) || !first_ok) {
      return Status::InvalidArgument(
          fmt::format("invalid table name '{}': expected letters, digits, '_', '-' and '.', "
                      "not starting with '-' or '.'",
                      name));
    }
  }
  return Status::OK();
}

Status ValidateFamilyName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("a column family name cannot be empty");
  if (name.size() > kMaxFamilyNameLength) {
    return Status::InvalidArgument(
        fmt::format("column family name is {} characters long; the limit is {}", name.size(), kMaxFamilyNameLength));
  }
  for (char c : name) {
    if (!IsNameChar(c)) {
      return Status::InvalidArgument(
          fmt::format("invalid column family name '{}': expected letters, digits, '_', '-' and '.'", name));
    }
  }
  return Status::OK();
}

namespace {

// An id that follows table ids' rules; `what` names its kind in the error.
Status ValidateViewId(std::string_view id, std::string_view field, std::string_view what) {
  if (ValidateTableName(id).ok()) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{}: '{}' is not a valid {} id: ids follow table ids' rules "
                  "([_a-zA-Z0-9][-_.a-zA-Z0-9]*, at most 50 characters)",
                  field, id, what));
}

}  // namespace

Status ValidateAuthorizedViewId(std::string_view id, std::string_view field) {
  return ValidateViewId(id, field, "authorized view");
}

Status ValidateLogicalViewId(std::string_view id, std::string_view field) {
  return ValidateViewId(id, field, "logical view");
}

Status ValidateMaterializedViewId(std::string_view id, std::string_view field) {
  return ValidateViewId(id, field, "materialized view");
}

Status ValidateSchemaBundleId(std::string_view id, std::string_view field) {
  return ValidateViewId(id, field, "schema bundle");
}

}  // namespace lbt
