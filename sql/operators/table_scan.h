// SCAN: reads the table and turns each row into the input row the query's
// expressions see, [_key, families..., cell columns...] as the read plan
// lays it out; for UNPACK, one input row per timestamp, [_key, families...,
// _timestamp], newest first.

#ifndef LBT_SQL_OPERATORS_TABLE_SCAN_H_
#define LBT_SQL_OPERATORS_TABLE_SCAN_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/bigtable.h"
#include "api/row_key_codec.h"
#include "sql/binder.h"
#include "sql/key_ranges.h"
#include "sql/operators/operator.h"
#include "sql/read_planner.h"

namespace lbt::sql {

class TableScan final : public Operator {
 public:
  // Reads the rows in `ranges`, as `read` plans, once Open. `q` and `read`
  // must outlive the scan.
  TableScan(const BoundQuery& q, const ReadPlan& read, KeyRangeSet ranges);

  // Starts the read on `bigtable`, which must outlive the scan; with no
  // ranges, reads nothing. REQUIRES: called once, before Next (a scan
  // only described, never opened, must not be read).
  Status Open(Bigtable* bigtable);

  // Table rows read so far (UNPACK hands on several input rows per row).
  int64_t examined() const { return examined_; }
  // The key ranges read: "all rows", or "[a, b), [c]".
  std::string ranges() const { return q_.table.empty() ? "no table" : ranges_.ToString(); }

  const char* name() const override { return "SCAN"; }
  // "<table> <ranges>; reads <what>", e.g. "mobile [phone#, phone$); reads _key, cell['plan']".
  std::string detail() const override;

 private:
  bool Produce(Values* out) override;
  bool ProduceUnpacked(Values* out);
  // The end of the table's rows: false, with the read's error if any.
  bool EndOfRows();
  // Decodes row_'s key into fields_; false, failed, when it does not decode.
  bool DecodeKey();
  Value FamilyValue(const BoundFamily& f, const FamilyRead& read, std::optional<int64_t> timestamp) const;
  void Flatten(Values* out);
  void FlattenCellColumns(Values* out);
  void FlattenOneColumn(Value* slot) const;
  void Shape(Values* out);
  void Expand();

  const BoundQuery& q_;
  const ReadPlan& read_;
  const KeyRangeSet ranges_;
  std::unique_ptr<RowStream> rows_;
  Row row_;
  std::vector<Values> pending_;  // UNPACK's input rows of row_ not handed on yet
  size_t next_pending_ = 0;
  std::vector<char> found_;  // Flatten's cell columns found in the row (0 or 1)
  const size_t width_;       // of an input row
  const bool one_family_;
  std::vector<size_t> map_families_;      // the families read as maps
  std::vector<size_t> key_fields_;        // the key fields the query reads
  std::vector<RowKeyFieldValue> fields_;  // row_'s key, decoded
  int64_t examined_ = 0;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_TABLE_SCAN_H_
