// VIEW: the leaf of a query over a logical view (a saved query): runs the
// view's own query and hands on each of its rows as an input row,
// [NULL, columns...] (the `_key` slot is unused: a view's columns are its
// own).

#ifndef LBT_SQL_OPERATORS_VIEW_SCAN_H_
#define LBT_SQL_OPERATORS_VIEW_SCAN_H_

#include <memory>
#include <string>

#include "sql/operators/operator.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

class ViewScan final : public Operator {
 public:
  // `view_query` is the view's prepared query and must outlive the scan.
  // It runs at the first Next: a scan only described runs nothing.
  // It runs with `view_params`, the request's view parameters.
  ViewScan(std::string view, const PreparedQuery* view_query, Params view_params)
      : Operator(nullptr), view_(std::move(view)), view_query_(view_query), view_params_(std::move(view_params)) {}

  // The view query's rows read so far, and what its own scan read.
  int64_t examined() const { return examined_; }
  QueryStats view_stats() const { return stream_ != nullptr ? stream_->stats() : QueryStats{}; }

  const char* name() const override { return "VIEW"; }
  std::string detail() const override { return view_; }

 private:
  bool Produce(Values* row) override;

  const std::string view_;
  const PreparedQuery* view_query_;
  const Params view_params_;
  std::unique_ptr<ResultStream> stream_;
  Values inner_;
  int64_t examined_ = 0;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_VIEW_SCAN_H_
