#include "api/change_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <ctime>

namespace lbt {

namespace {
constexpr std::string_view kTokenPrefix = "lbt1:";
}  // namespace

Status ValidateChangeStreamRetention(int64_t retention_micros, std::string_view field) {
  if (retention_micros < kMinChangeStreamRetention || retention_micros > kMaxChangeStreamRetention) {
    return Status::InvalidArgument(fmt::format("{}: must be at least 1 day and at most 7 days", field));
  }
  return Status::OK();
}

Status ChangeStreamOff(std::string_view table) {
  return Status::FailedPrecondition(fmt::format("the change stream of table '{}' is not enabled", table));
}

std::string FormatChangeTime(int64_t micros) {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, micros % 1000000);
}

std::string EncodeChangeStreamToken(int64_t position_micros) {
  return fmt::format("{}{}", kTokenPrefix, position_micros);
}

Result<int64_t> DecodeChangeStreamToken(std::string_view token, std::string_view field) {
  int64_t micros = -1;
  if (token.starts_with(kTokenPrefix)) {
    std::string_view digits = token.substr(kTokenPrefix.size());
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), micros);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) micros = -1;
  }
  if (micros < 0) {
    return Status::InvalidArgument(fmt::format("{}: '{}' is not a change stream token of lbt's", field, token));
  }
  return micros;
}

}  // namespace lbt
