// Change streams: a table's committed changes, in commit order, for as
// long as its retention keeps them (Bigtable's ReadChangeStream).
//
// A table whose change stream is enabled (TableSpec::change_stream) has
// every committed change of a row recorded with the data, in the same
// transaction: one DataChange per row a call changed, holding the row's
// mutations as applied (a server-time cell with the time it got; a row
// deletion as one family deletion per family). Commit timestamps are
// strictly increasing within a table, so a position in the stream is the
// commit timestamp read up to, and a token is that position written out.

#ifndef LBT_API_CHANGE_STREAM_H_
#define LBT_API_CHANGE_STREAM_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/mutation.h"
#include "api/row_set.h"
#include "api/status.h"

namespace lbt {

inline constexpr int64_t kMicrosPerDay = 86'400'000'000;
// Production's bounds on a change stream's retention.
inline constexpr int64_t kMinChangeStreamRetention = kMicrosPerDay;
inline constexpr int64_t kMaxChangeStreamRetention = 7 * kMicrosPerDay;
// Between heartbeats when a request names no interval (production's default).
inline constexpr std::chrono::milliseconds kDefaultHeartbeat{5000};

struct ChangeStreamConfig {
  int64_t retention_micros = kMaxChangeStreamRetention;
  // When the stream was enabled: reads cannot start before it.
  int64_t enabled_micros = 0;
  friend bool operator==(const ChangeStreamConfig& a, const ChangeStreamConfig& b) {
    return a.retention_micros == b.retention_micros && a.enabled_micros == b.enabled_micros;
  }
};

// InvalidArgument naming `field` unless `retention_micros` is 1 to 7 days.
Status ValidateChangeStreamRetention(int64_t retention_micros, std::string_view field);

// One committed change of one row.
struct DataChange {
  enum class Type { kUser = 1, kGarbageCollection = 2 };
  Type type = Type::kUser;
  std::string row_key;
  int64_t commit_micros = 0;
  // One cluster commits every change: ties never need breaking.
  int32_t tiebreaker = 0;
  // kSetCell (always with its timestamp), kAddToCell, kDeleteFromColumn
  // and kDeleteFromFamily: never kDeleteFromRow or server time.
  std::vector<Mutation> mutations;
};

// Where a read of a change stream goes on: after the position `token`
// (a continuation token, as a stream gave it) for the rows of `range`.
struct ChangeStreamPosition {
  RowRange range;
  std::string token;
};

struct ChangeStreamRequest {
  // The partition: the rows whose changes are read.
  RowRange partition;
  // Positions from continuation tokens; their ranges cover the partition.
  std::vector<ChangeStreamPosition> resume;
  // Without `resume`: the first commit time read (inclusive).
  int64_t start_micros = 0;
  // The last commit time read (inclusive); nullopt: read on and on.
  std::optional<int64_t> end_micros;
};

// Reads changes as they commit. One thread at a time.
class ChangeStream {
 public:
  virtual ~ChangeStream() = default;
  // Returns the next change of the partition, waiting up to `wait` once
  // every committed change was looked at; nullopt when none came in time
  // (the caller may send a heartbeat) or when the stream is finished
  // (finished() tells which). Changes come in commit order, each once.
  virtual Result<std::optional<DataChange>> Next(std::chrono::milliseconds wait) = 0;
  // A continuation token for where the stream is: every change of the
  // partition up to it has been returned.
  virtual std::string token() const = 0;
  // An estimate of the earliest commit time still to come.
  virtual int64_t low_watermark() const = 0;
  // True once the stream has read past its end time.
  virtual bool finished() const = 0;
};

// FailedPrecondition: the table's change stream is off.
Status ChangeStreamOff(std::string_view table);

// A commit time for people: "2026-11-25T10:00:00.123456Z".
std::string FormatChangeTime(int64_t micros);

// lbt's continuation tokens: the stream's id (a local table's) and the
// commit time every change up to which was returned, written out
// ("lbt1:<stream>:<micros>"), and back. InvalidArgument naming `field` for
// anything else (another service's tokens are opaque to lbt).
struct ChangeStreamToken {
  uint64_t stream = 0;
  int64_t position_micros = 0;
};
std::string EncodeChangeStreamToken(const ChangeStreamToken& token);
Result<ChangeStreamToken> DecodeChangeStreamToken(std::string_view token, std::string_view field);

}  // namespace lbt

#endif  // LBT_API_CHANGE_STREAM_H_
