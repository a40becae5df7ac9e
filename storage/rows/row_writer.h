// RowWriter applies mutations to rows inside a write transaction, keeps each
// row's size entry, and collects the garbage of every column it writes
// (internal to storage/).

#ifndef LBT_STORAGE_ROWS_ROW_WRITER_H_
#define LBT_STORAGE_ROWS_ROW_WRITER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/mutation.h"
#include "api/schema.h"
#include "api/status.h"
#include "storage/format/change_log.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/store_view.h"

namespace lbt {

// Checks a row's mutations against the table's schema and Bigtable's limits
// without touching the database.
Status ValidateRowMutations(const TableSpec& table, std::string_view row_key, const std::vector<Mutation>& mutations);

// OK if the timestamp of `m` (kSetCell, kAddToCell) is kServerTime, or
// non-negative and either a multiple of the table's granularity or the
// client library's own (Mutation::client_timestamp), which is cut to fit.
Status ValidateTimestamp(const Mutation& m, const TableSpec& table);

class RowWriter {
 public:
  // Writes LMDB directly. REQUIRES: txn->is_write(); `stores` and `table`
  // outlive the writer.
  RowWriter(Txn* txn, const Stores* stores, const TableSpec* table, int64_t now_micros)
      : RowWriter(StoreView(txn, &stores->cells, StoreTag::kCells), StoreView(txn, &stores->rows, StoreTag::kRows),
                  StoreView(txn, &stores->changes, StoreTag::kChanges), stores->lazy_gc, table, now_micros) {}
  // Writes through the views (a WriteBatch's, say). `lazy_gc`: leave
  // eligible cells to collection passes (Stores::lazy_gc). A table with a
  // change stream has what each Apply and collection pass changes
  // recorded in `changes` (storage/format/change_log.h).
  RowWriter(StoreView cells, StoreView rows, StoreView changes, bool lazy_gc, const TableSpec* table,
            int64_t now_micros)
      : cells_(cells), rows_(rows), changes_(changes), lazy_gc_(lazy_gc), table_(table), now_(now_micros) {}

  // Applies `mutations` to the row in order. On error the caller must abort
  // the transaction. REQUIRES: ValidateRowMutations(...) is OK.
  Status Apply(std::string_view row_key, const std::vector<Mutation>& mutations);

  // Deletes every cell of the table that its family's GC rule makes
  // eligible, row by row.
  Status CollectTable(int64_t* examined, int64_t* deleted,
                      const std::function<Status(int64_t examined)>& progress = nullptr);

  // Deletes every cell of the family with this id in every row of the table.
  Status DeleteFamilyEverywhere(FamilyId family);

  // Records changes through `recorder` (which must outlive the writer)
  // rather than a recorder of its own: for a write that records some
  // changes itself (a bulk load's new rows).
  void RecordChangesWith(ChangeRecorder* recorder) { shared_recorder_ = recorder; }

 private:
  struct PendingDelete {
    std::string key;
    uint64_t bytes;
  };

  // The id of the family `m` writes. REQUIRES: the table has it.
  FamilyId IdOf(const Mutation& m) const;
  // The timestamp `m` writes its cell at (Mutation::StoredTimestamp).
  int64_t Stamp(const Mutation& m) const { return m.StoredTimestamp(now_, GranularityMicros(table_->granularity)); }
  // The name of the family with this id; empty for a family the table no
  // longer has (its cells then count without their family name).
  std::string_view FamilyName(FamilyId id) const;
  Status ApplyNewCells(std::string_view row_key, const std::vector<Mutation>& mutations, uint64_t* row_size);
  Status ApplyInOrder(std::string_view row_key, const std::vector<Mutation>& mutations, bool new_row,
                      uint64_t* row_size);
  Status AddToCell(std::string_view row_key, const Mutation& m, uint64_t* row_size);
  Result<std::string> AddToSketch(const FamilySpec& family, const Mutation& m, std::optional<std::string_view> stored);
  Status CollectWrittenColumns(std::string_view row_key, const std::vector<Mutation>& mutations, uint64_t* row_size);
  Result<uint64_t> LoadRowSize(std::string_view row_key);
  // Stores a row's size; `existed` says whether it had an entry before.
  Status StoreRowSize(std::string_view row_key, uint64_t size, bool existed);
  // Writes one cell, adjusting *row_size for any cell it replaces.
  // `may_exist` false skips looking for one (a row new in this write).
  Status PutCell(const std::string& key, std::string_view family, std::string_view qualifier, std::string_view value,
                 bool may_exist, uint64_t* row_size);
  // Deletes cells under `prefix` whose timestamp is in `range`.
  Status DeleteUnder(const std::string& prefix, const TimestampRange& range, uint64_t* row_size);
  // Deletes the cells of one column that its GC rule makes eligible.
  Status CollectColumn(std::string_view row_key, const FamilySpec& family, std::string_view qualifier,
                       uint64_t* row_size);
  Status DeleteAll(const std::vector<PendingDelete>& doomed, uint64_t* row_size);

  StoreView cells_;
  StoreView rows_;
  StoreView changes_;
  bool lazy_gc_;
  const TableSpec* table_;
  int64_t now_;
  // The change log's recorder: its own, made at the first change, or one
  // shared with the caller.
  ChangeRecorder* Recorder();
  std::unique_ptr<ChangeRecorder> own_recorder_;
  ChangeRecorder* shared_recorder_ = nullptr;
};

// The bytes a cell counts towards its row's size limit.
inline uint64_t CellBytes(std::string_view family, std::string_view qualifier, std::string_view value) {
  return family.size() + qualifier.size() + value.size() + 8;
}

}  // namespace lbt

#endif  // LBT_STORAGE_ROWS_ROW_WRITER_H_
