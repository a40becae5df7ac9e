// The change log: the committed changes of tables whose change stream is
// on (api/change_stream.h), kept in the `changes` store (stores.h) and
// written in the same transaction, or the same logged batch, as the data
// they describe (internal to storage/).
//
//   key    := TablePrefix(table) commit (8 bytes, big-endian microseconds)
//   value  := version (1 byte: 1) type (1 byte: DataChange::Type)
//             row key (4-byte big-endian length, bytes) mutation*
//   mutation := kind (1 byte: Mutation::Kind) family qualifier (each a
//             4-byte length and bytes), then by kind:
//               set cell     timestamp (8) value (4-byte length, bytes)
//               add to cell  timestamp (8) delta (8)
//               delete from column  start (8) end (8)
//               delete from family  nothing more
//
// Commit times are unique and increasing within a table: each is after
// the table's last one and no earlier than the writer's clock.
//
// WARNING: the key and value layouts are part of the on-disk format.

#ifndef LBT_STORAGE_FORMAT_CHANGE_LOG_H_
#define LBT_STORAGE_FORMAT_CHANGE_LOG_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/change_stream.h"
#include "api/mutation.h"
#include "api/schema.h"
#include "api/status.h"
#include "storage/kv/store_view.h"

namespace lbt {

std::string ChangeKey(TableId table, int64_t commit_micros);
// The commit time of a key of the table's. REQUIRES: `key` starts with
// TablePrefix(table).
bool DecodeChangeCommit(std::string_view key, size_t table_prefix_size, int64_t* commit_micros);
// The value of a change (its commit time is in the key).
std::string EncodeChange(const DataChange& change);
Status DecodeChange(std::string_view value, DataChange* change);

// A cell a change sets, by reference: what a bulk load records without
// building Mutations.
struct SetCellRef {
  std::string_view family;
  std::string_view qualifier;
  int64_t timestamp;
  std::string_view value;
};

// Records the changes of one table within one write. It looks the table's
// last commit time up once, then counts on: every change of the table in
// the write must go through the same recorder.
class ChangeRecorder {
 public:
  // REQUIRES: `changes` is the `changes` store as the write sees it; the
  // table outlives the recorder.
  // `last`: the last commit time given by the recorder this one goes on
  // from (one of an enclosing transaction's), or -1 to look it up.
  ChangeRecorder(StoreView changes, const TableSpec* table, int64_t now_micros, int64_t last = -1)
      : changes_(changes), table_(table), now_(now_micros), last_(last) {}

  // Records `mutations` of `row_key` as applied: server time becomes the
  // writer's clock, a row deletion one family deletion per family of the
  // table. Nothing is recorded for no mutations.
  Status Record(DataChange::Type type, std::string_view row_key, const std::vector<Mutation>& mutations);

  // The same for a row's SetCells alone, with their timestamps: a user
  // change encoded straight from the cells.
  Status RecordSets(std::string_view row_key, const std::vector<SetCellRef>& cells);

  // The last commit time given (-1: none yet), and taking one on from a
  // recorder of a nested transaction that committed.
  int64_t last() const { return last_; }
  void GoOnFrom(int64_t last) { last_ = std::max(last_, last); }

 private:
  // After the table's last commit (as the write sees it), not before now.
  Result<int64_t> NextCommit();
  StoreView changes_;
  const TableSpec* table_;
  int64_t now_;
  int64_t last_ = -1;  // the last commit time given; -1: not looked up yet
};

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_CHANGE_LOG_H_
