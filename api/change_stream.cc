#include "api/change_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <ctime>

#include "util/bytes.h"

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

std::string EncodeChangeStreamToken(const ChangeStreamToken& token) {
  return fmt::format("{}{}:{}", kTokenPrefix, token.stream, token.position_micros);
}

namespace {

// Digits at the front of *in, up to `until` (or the end); false if none.
template <typename T>
bool TakeNumber(std::string_view* in, char until, T* out) {
  const size_t stop = until == '\0' ? in->size() : in->find(until);
  if (stop == std::string_view::npos || stop == 0) return false;
  auto [end, ec] = std::from_chars(in->data(), in->data() + stop, *out);
  if (ec != std::errc() || end != in->data() + stop) return false;
  in->remove_prefix(until == '\0' ? stop : stop + 1);
  return true;
}

}  // namespace

Result<ChangeStreamToken> DecodeChangeStreamToken(std::string_view token, std::string_view field) {
  ChangeStreamToken out;
  std::string_view rest = token;
  const bool ok = rest.starts_with(kTokenPrefix) && (rest.remove_prefix(kTokenPrefix.size()), true) &&
                  TakeNumber(&rest, ':', &out.stream) && TakeNumber(&rest, '\0', &out.position_micros) &&
                  out.position_micros >= 0;
  if (!ok) {
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is not a change stream token of lbt's", field, Abbreviated(token)));
  }
  return out;
}

}  // namespace lbt
