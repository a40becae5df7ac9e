// Mutations: the changes a write applies to one row, in order.

#ifndef LBT_API_MUTATION_H_
#define LBT_API_MUTATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "api/cell.h"

namespace lbt {

// [start, end) in microseconds; end == 0 means no upper bound.
struct TimestampRange {
  int64_t start_micros = 0;
  int64_t end_micros = 0;

  bool Contains(int64_t ts) const { return ts >= start_micros && (end_micros == 0 || ts < end_micros); }
};

struct Mutation {
  enum class Kind { kSetCell, kAddToCell, kDeleteFromColumn, kDeleteFromFamily, kDeleteFromRow };

  Kind kind = Kind::kSetCell;
  std::string family;
  std::string qualifier;
  int64_t timestamp = kServerTime;  // kSetCell, kAddToCell
  std::string value;                // kSetCell
  int64_t int_value = 0;            // kAddToCell
  // kAddToCell: the input is `value`'s bytes (a Value's raw_value): an
  // HLL++ family of raw input counts them, an int64 aggregate reads them
  // as an 8-byte big-endian integer (also in int_value when they are one).
  bool bytes_input = false;
  // kAddToCell from MergeToCell: the input is an aggregate's state (an
  // int64 aggregate's is its value, merged as an input; an HLL++ family's
  // is a sketch in `value`).
  bool merge = false;
  TimestampRange range;  // kDeleteFromColumn
  // kSetCell, kAddToCell: the client library made `timestamp` up (a
  // CLIENT_AUTO_GENERATED timestamp_origin): it is cut to the table's
  // granularity rather than refused when it does not fit it.
  bool client_timestamp = false;

  // The timestamp the cell is written at in a table whose timestamps are
  // multiples of `granularity_micros`: `now` for kServerTime, a client's
  // timestamp cut to the granularity, or the one given.
  int64_t StoredTimestamp(int64_t now, int64_t granularity_micros) const {
    if (timestamp == kServerTime) return now;
    if (!client_timestamp || timestamp < 0) return timestamp;
    return timestamp - timestamp % granularity_micros;
  }

  // Writes `value` at (family, qualifier, timestamp), replacing any cell there.
  static Mutation SetCell(std::string family, std::string qualifier, std::string value,
                          int64_t timestamp = kServerTime);
  // Merges `delta` into the cell at `timestamp` of an aggregate family
  // (sum, min or max as the family's type says), or creates that cell.
  static Mutation AddToCell(std::string family, std::string qualifier, int64_t delta, int64_t timestamp = kServerTime);
  // AddToCell of raw bytes (an HLL++ family of raw input counts them); with
  // `merge`, MergeToCell of a state (an HLL++ sketch).
  static Mutation AddBytesToCell(std::string family, std::string qualifier, std::string bytes,
                                 int64_t timestamp = kServerTime, bool merge = false);
  // Deletes the column's cells within `range` (all of them by default).
  static Mutation DeleteFromColumn(std::string family, std::string qualifier, TimestampRange range = {});
  static Mutation DeleteFromFamily(std::string family);
  static Mutation DeleteFromRow();
};

// A token that makes a retried write apply once (Bigtable's Idempotency:
// a write whose token was applied within kIdempotencyWindowMicros is a
// replay, answered OK without applying it again). It matters for
// aggregates: an AddToCell retried after a lost answer must not count
// twice.
struct Idempotency {
  std::string token;              // empty: none; else 8 to 1024 bytes
  int64_t start_time_micros = 0;  // when the first attempt was sent; 0: unknown
};

// How long a token is remembered. Production does not say; lbt keeps an
// hour (the README's differences table says so). A write whose first
// attempt started longer ago than this is refused: a replay of it could no
// longer be told apart.
inline constexpr int64_t kIdempotencyWindowMicros = int64_t{3600} * 1000000;

// A row key and the mutations to apply to it, all or nothing.
struct RowMutation {
  std::string row_key;
  std::vector<Mutation> mutations;
  Idempotency idempotency;
};

// One rule of ReadModifyWriteRow: append bytes to the latest value of a
// column, or add to it as an 8-byte big-endian int64 (absent = 0, "").
struct ReadModifyWriteRule {
  enum class Kind { kAppend, kIncrement };
  Kind kind = Kind::kAppend;
  std::string family;
  std::string qualifier;
  std::string append_value;
  int64_t increment = 0;

  static ReadModifyWriteRule Append(std::string family, std::string qualifier, std::string bytes);
  static ReadModifyWriteRule Increment(std::string family, std::string qualifier, int64_t delta);
};

}  // namespace lbt

#endif  // LBT_API_MUTATION_H_
