#include "sql/operators/limit.h"

#include <fmt/format.h>

namespace lbt::sql {

bool Limit::Produce(Values* row) {
  if (limit_ >= 0 && emitted_ >= limit_) return false;  // before reading a row it would not hand on
  while (input().Next(row)) {
    if (skipped_ < offset_) {
      ++skipped_;
      continue;
    }
    ++emitted_;
    return true;
  }
  return false;
}

std::string Limit::detail() const {
  if (limit_ < 0) return fmt::format("OFFSET {}", offset_);
  if (offset_ == 0) return fmt::format("{}", limit_);
  return fmt::format("{} OFFSET {}", limit_, offset_);
}

}  // namespace lbt::sql
