#include "api/backup.h"

#include <fmt/format.h>

namespace lbt {

Status ValidateBackupId(std::string_view id, std::string_view field) {
  Status table_rule = ValidateTableName(id);
  if (table_rule.ok()) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{}: backup id '{}' must be 1 to 50 characters matching [_a-zA-Z0-9][-_.a-zA-Z0-9]*", field, id));
}

Status ValidateExpireTime(int64_t expire_micros, int64_t created_micros, std::string_view field) {
  if (expire_micros >= created_micros + kMinBackupLifeMicros &&
      expire_micros <= created_micros + kMaxBackupLifeMicros) {
    return Status::OK();
  }
  return Status::InvalidArgument(fmt::format(
      "{}: the expire time must be at least 6 hours and at most 90 days after the backup's creation", field));
}

}  // namespace lbt
