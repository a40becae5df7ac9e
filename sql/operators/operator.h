// A step of a query's execution: one node of the operator tree the planner
// builds (sql/planner.h). An operator pulls rows from its input one at a
// time and hands them on the same way, so a query streams in bounded
// memory; only SORT and AGGREGATE hold rows, as they must.

#ifndef LBT_SQL_OPERATORS_OPERATOR_H_
#define LBT_SQL_OPERATORS_OPERATOR_H_

#include <memory>
#include <string>

#include "api/status.h"
#include "sql/prepared_query.h"
#include "sql/value.h"

namespace lbt::sql {

class Operator {
 public:
  // `input`: where the operator's rows come from; null for a leaf.
  explicit Operator(std::unique_ptr<Operator> input) : input_(std::move(input)) {}
  virtual ~Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;

  // Fills *row with the next row; false at the end, or on an error, which
  // status() then tells, and from then on. *row may hold an earlier row:
  // operators write over it in place, so its buffers serve row after row.
  bool Next(Values* row) {
    if (done_) return false;
    if (!Produce(row)) {
      done_ = true;
      return false;
    }
    ++rows_;
    return true;
  }

  // OK, or the error that ended this operator's rows or its input's.
  Status status() const;
  // Rows handed out so far.
  int64_t rows() const { return rows_; }

  // EXPLAIN's name for the operator: SCAN, FILTER, AGGREGATE, ...
  virtual const char* name() const = 0;
  // What it does, in the query's words ("_key LIKE 'a%'").
  virtual std::string detail() const = 0;
  // Appends this operator, then its input's description, to *plan; this
  // operator at `depth`, its input one deeper.
  void Describe(int depth, QueryPlan* plan) const;

 protected:
  // Next's work: the next row, or false at the end or on an error (Fail).
  virtual bool Produce(Values* row) = 0;
  // Records `s` as the operator's error. Returns false, for `return Fail(s)`.
  bool Fail(Status s) {
    status_ = std::move(s);
    return false;
  }
  Operator& input() const { return *input_; }

 private:
  std::unique_ptr<Operator> input_;
  Status status_;
  int64_t rows_ = 0;
  bool done_ = false;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_OPERATOR_H_
