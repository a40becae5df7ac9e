// What the parts of a row key look like. Row keys are usually several
// values joined by a delimiter (`phone#4c410523#20200501`); the schema
// lab reads each segment's shape to tell a timestamp from an identifier, a
// domain from a word, a padded number from an unpadded one.

#ifndef LBT_LAB_KEY_SHAPE_H_
#define LBT_LAB_KEY_SHAPE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lbt::lab {

enum class SegmentKind {
  kEmpty,
  kTimestamp,          // epoch seconds/ms/µs/ns, or a date-time such as 20200501 or 2021-03-05-1200
  kReversedTimestamp,  // Long.MAX_VALUE minus an epoch time in ms, µs or ns
  kNumber,             // digits that are not a time
  kHash,               // 16+ hex digits, or a UUID-free base64 run: what a hash prints
  kEmail,
  kPhone,           // +1-555-0100, (555) 010-0199, 555-010-0199
  kDomain,          // maps.google.com: names under a top-level domain, not reversed
  kReversedDomain,  // com.google.maps
  kBinary,          // bytes that are not printable text
  kText,            // anything else: words, identifiers
};

// The name of a kind, as findings show it: "timestamp", "number", ...
std::string_view SegmentKindName(SegmentKind kind);

// The delimiters lbt splits keys at, in order of preference.
inline constexpr std::string_view kKeyDelimiters = "#:/|";

// The delimiter keys use: the first of kKeyDelimiters that occurs in at
// least half of `keys`, or '\0' when they have none.
char DetectDelimiter(const std::vector<std::string_view>& keys);

// `key` split at `delimiter` ('\0': one segment).
std::vector<std::string_view> SplitKey(std::string_view key, char delimiter);

SegmentKind ClassifySegment(std::string_view segment);

// For kTimestamp and kReversedTimestamp segments: the time, in
// microseconds since the epoch; 0 for other kinds or a date it cannot read.
int64_t SegmentTimeMicros(std::string_view segment);

// True if `segment` is all ASCII digits (and not empty).
bool IsDigits(std::string_view segment);

// The key as text for a finding: printable ASCII kept, other bytes as \xNN.
std::string PrintableKey(std::string_view key);

}  // namespace lbt::lab

#endif  // LBT_LAB_KEY_SHAPE_H_
