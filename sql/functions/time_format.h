// The format elements of FORMAT_DATE, FORMAT_TIMESTAMP, PARSE_DATE and
// PARSE_TIMESTAMP, as GoogleSQL's "format elements for date and time
// parts" give them, in UTC: %Y %C %y %G %g %m %d %e %j %U %W %V %u %w %a %A
// %b %h %B %H %I %k %l %M %S %p %P %F %D %T %R %x %X %c %s %z %Z %Ez %n %t
// %% and %E<n>S / %E*S (seconds with n or 6 fractional digits).

#ifndef LBT_SQL_FUNCTIONS_TIME_FORMAT_H_
#define LBT_SQL_FUNCTIONS_TIME_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/status.h"

namespace lbt::sql {

// `micros` since the epoch, formatted as a clock `offset_micros` from UTC
// shows it (%z, %Ez and %Z name the offset; %s stays UTC's). An element
// that is not one of the above is copied as written.
std::string FormatTime(std::string_view format, int64_t micros, int64_t offset_micros = 0);

// Parses `text` by `format` into microseconds since the epoch (UTC, or the
// offset a %z gives). Fields the format leaves out take 1970-01-01
// 00:00:00's. Whitespace in the format matches any run of whitespace.
// OUT_OF_RANGE naming what does not match.
Result<int64_t> ParseTime(std::string_view format, std::string_view text);

// A time zone argument's offset from UTC in microseconds: lbt computes in
// UTC and takes "UTC" or a fixed offset ("+05:30", "UTC-8"); a named zone
// is INVALID_ARGUMENT saying so.
Result<int64_t> TimeZoneOffsetMicros(std::string_view zone);

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_TIME_FORMAT_H_
