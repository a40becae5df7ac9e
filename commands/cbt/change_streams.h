// What the change stream commands share with createtable and the
// renderers (commands/cbt/change_streams.cc).

#ifndef LBT_COMMANDS_CBT_CHANGE_STREAMS_H_
#define LBT_COMMANDS_CBT_CHANGE_STREAMS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/status.h"

namespace lbt {

// "7d", "36h": a change stream retention of 1 to 7 days, in microseconds.
Result<int64_t> ParseChangeStreamRetention(std::string_view text);
// watch's start= and end=: now, -<span>, +<span> or an RFC 3339 time.
Result<int64_t> ParseWatchTime(std::string_view text, int64_t now_micros);

}  // namespace lbt

#endif  // LBT_COMMANDS_CBT_CHANGE_STREAMS_H_
