// Bigtable's documented limits, which lbt enforces instead of LMDB's.

#ifndef LBT_API_LIMITS_H_
#define LBT_API_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace lbt {

inline constexpr size_t kMaxRowKeyBytes = 4 * 1024;
inline constexpr size_t kMaxQualifierBytes = 16 * 1024;
inline constexpr size_t kMaxValueBytes = 100 * 1024 * 1024;
inline constexpr uint64_t kMaxRowBytes = 256ull * 1024 * 1024;
inline constexpr size_t kMaxTableIdLength = 50;
inline constexpr size_t kMaxFamilyNameLength = 64;
// A GC rule's max_num_versions is a 32-bit integer in Bigtable's API.
inline constexpr int64_t kMaxGcVersions = 2147483647;
// The longest google.protobuf.Duration: 315,576,000,000 seconds (10,000
// years, 3,652,500 days) and 999,999,999 nanoseconds.
inline constexpr int64_t kMaxDurationSeconds = 315'576'000'000LL;
// A GC rule's max_age is such a Duration.
inline constexpr int64_t kMaxGcAgeMicros = kMaxDurationSeconds * 1'000'000 + 999'999;

// Bigtable keeps timestamps in microseconds at millisecond granularity.
inline constexpr int64_t kTimestampGranularityMicros = 1000;

}  // namespace lbt

#endif  // LBT_API_LIMITS_H_
