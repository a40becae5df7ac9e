// A materialized view's query, checked against production's rules and
// taken apart for incremental maintenance:
//   - each source row's part in the view (its contributions), evaluated
//     over that one row: for the aggregate form, the group it falls in and
//     its aggregates' arguments; for the secondary-index form, the output
//     row it makes;
//   - a group's output row, folded from its contributions' arguments;
//   - the view's rows as ReadRows shows them, and back into typed values
//     for queries over the view.
//
// The view's row key is its `_key` column when it has one (BYTES, the only
// GROUP BY key), else its key columns (GROUP BY or ORDER BY, in clause
// order) joined in an order-preserving encoding. Every other column is a
// cell in family "default" qualified by the column's name, at timestamp 0,
// encoded as production encodes them (INT64 8 bytes big-endian, FLOAT64
// IEEE 754, BOOL 1 byte, TIMESTAMP its microseconds as INT64, STRING and
// BYTES as they are); a NULL has no cell. An index view keeps its key
// columns as cells too. A group whose columns are all NULL is left out, as
// is a source row whose key columns are NULL.
//
// WARNING: the row and cell encodings are part of the on-disk format of
// views' hidden tables.

#ifndef LBT_SQL_MATERIALIZED_VIEW_H_
#define LBT_SQL_MATERIALIZED_VIEW_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "sql/binder.h"
#include "sql/prepared_query.h"
#include "sql/read_planner.h"

namespace lbt::sql {

inline constexpr const char* kViewFamily = "default";

class MaterializedViewPlan {
 public:
  // Parses `query`, binds it to the table it reads in `bigtable` and checks
  // production's rules for a view's query. InvalidArgument with
  // production's message for a query a view cannot keep; NotFound when
  // its table does not exist (a view reads a table, not a view).
  static Result<std::unique_ptr<MaterializedViewPlan>> Make(Bigtable* bigtable, std::string_view query);

  const std::string& source_table() const { return q_->table; }
  // True for GROUP BY, false for the secondary-index form (ORDER BY).
  bool aggregate() const { return q_->aggregate; }
  const std::vector<ResultColumn>& columns() const { return q_->columns; }

  // One source row's part in the view.
  struct Contribution {
    std::string view_key;  // the view row it goes to
    Values key_values;     // aggregate form: its group's keys
    // Aggregate form: every aggregate's arguments, one after another;
    // index form: the view row's columns.
    Values payload;
  };
  // The contributions of the source rows with `keys` (each key once) as
  // they are now: a key maps to none when its row is gone or the WHERE
  // clause drops it. Reads the rows from `source` in one scan.
  Result<std::map<std::string, std::vector<Contribution>>> Contributions(Bigtable* source,
                                                                         const std::vector<std::string>& keys) const;
  // The contributions of every source row, handed to `sink` row by row in
  // key order (a backfill's scan).
  Status ScanContributions(
      Bigtable* source,
      const std::function<Status(const std::string& source_key, std::vector<Contribution> parts)>& sink) const;

  // Aggregate form: the output row of the group with `key_values` from its
  // contributions' payloads; nullopt when every non-key column is NULL
  // (the group is left out).
  Result<std::optional<Values>> FinishGroup(const Values& key_values, const std::vector<Values>& payloads) const;

  // The mutations that make view row `view_key` hold `output` (replacing
  // what it held).
  std::vector<Mutation> RowMutations(const Values& output) const;
  // A view row, as ReadMaterializedView reads it, as the query's columns.
  Result<Values> DecodeRow(const Row& row) const;
  // The view rows whose leading key columns hold the values `equal` gives
  // (by column position): the rows a query over the view must read when
  // its WHERE clause fixes them. nullopt when it does not fix the first
  // key column (every row then).
  std::optional<RowRange> KeyRange(const std::map<size_t, Value>& equal) const;

 private:
  MaterializedViewPlan() = default;
  Status Check(const Select& parsed);
  Status CheckAggregateKeys(const Select& parsed);
  Status CheckIndexKeys(const Select& parsed);
  Status CheckColumns() const;
  // The view's row key from the output row's (or group's) key values.
  std::string KeyOf(const Values& key_values) const;
  Status Evaluate(const Values& input, std::vector<Contribution>* parts) const;
  Result<std::optional<Contribution>> EvaluateRow(const Values& input) const;
  Status Drain(class TableScan* scan, const std::function<Status(const std::string&, const Values&)>& row) const;

  std::unique_ptr<BoundQuery> q_;
  ReadPlan read_;
  std::unique_ptr<Evaluator> eval_;
  // The select-list positions of the key columns, in key order.
  std::vector<size_t> key_columns_;
  // Aggregate form: the group key each key column shows.
  std::vector<size_t> key_groups_;
  bool raw_key_ = false;  // the view has a `_key` column: it is the row key
};

// The codec of maintenance state: values with their kinds, so that they
// decode without a schema. Scalars only.
std::string EncodeValues(const Values& values);
Result<Values> DecodeValues(std::string_view bytes);

// Whether `query` may define a materialized view here; on success returns
// the table it reads. Production's messages for what it refuses.
Result<std::string> CheckMaterializedViewQuery(Bigtable* bigtable, std::string_view query);

}  // namespace lbt::sql

#endif  // LBT_SQL_MATERIALIZED_VIEW_H_
