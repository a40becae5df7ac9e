#include "sql/planner.h"

#include <fmt/format.h>

#include "sql/expr_text.h"
#include "sql/operators/aggregate.h"
#include "sql/operators/filter.h"
#include "sql/operators/limit.h"
#include "sql/operators/project.h"
#include "sql/operators/sort.h"
#include "sql/operators/window.h"

namespace lbt::sql {

namespace {

// LIMIT's or OFFSET's value: the literal, or the parameter's value.
Result<int64_t> Resolve(int64_t literal, const std::string& param, const Params& params, const char* what) {
  if (param.empty()) return literal;
  const Value& v = params.find(param)->second;  // present: checked before
  if (v.is_null() || v.int64() < 0) {
    return Status::InvalidArgument(
        fmt::format("{} expects a non-negative value, but @{} is {}", what, param, v.ToText()));
  }
  return v.int64();
}

class Planner {
 public:
  Planner(const BoundQuery& q, const ReadPlan& read, const Evaluator& eval)
      : q_(q), eval_(eval), input_names_(InputSlotNames(q, read)) {
    for (const Expr* g : q.group_by) grouped_names_.push_back(ExprText(*g, input_names_));
    for (const BoundAggregate& a : q.aggregates) grouped_names_.push_back(AggregateText(a));
    for (const BoundWindow& w : q.windows) window_names_.push_back(WindowText(w));
  }

  // Where the window calls' results go in the rows the WINDOW operator
  // hands on: after the grouped row's slots, or the input row's.
  size_t WindowBase() const { return q_.aggregate ? grouped_names_.size() : input_names_.size(); }

  // The tree over `scan`, with the LIMIT and OFFSET of this execution.
  std::unique_ptr<Operator> Build(std::unique_ptr<Operator> leaf, int64_t limit, int64_t offset) const {
    std::unique_ptr<Operator> top = std::move(leaf);
    if (q_.where != nullptr) {
      top = std::make_unique<PredicateFilter>(std::move(top), *q_.where, eval_, Text(*q_.where, false));
    }
    if (q_.aggregate) top = AddAggregate(std::move(top));
    if (!q_.windows.empty()) {
      std::string text;
      for (const std::string& name : window_names_) text += (text.empty() ? "" : ", ") + name;
      top = std::make_unique<Window>(std::move(top), q_.windows, eval_, WindowBase(), std::move(text));
    }
    const bool limited = limit >= 0 || offset > 0;
    if (q_.order_by.empty()) {
      if (limited) top = std::make_unique<Limit>(std::move(top), limit, offset);
      return std::make_unique<Project>(std::move(top), q_.select, eval_, SelectText());
    }
    top = AddSort(std::move(top), limit, offset);
    if (limited) top = std::make_unique<Limit>(std::move(top), limit, offset);
    return top;
  }

 private:
  // AGGREGATE, then HAVING's FILTER over the grouped rows.
  std::unique_ptr<Operator> AddAggregate(std::unique_ptr<Operator> top) const {
    std::string aggregates;
    for (size_t i = q_.group_by.size(); i < grouped_names_.size(); ++i) {
      aggregates += (aggregates.empty() ? "" : ", ") + grouped_names_[i];
    }
    if (q_.group_by.empty()) {
      top = std::make_unique<UngroupedAggregate>(std::move(top), q_.aggregates, eval_, aggregates);
    } else {
      std::string keys;
      for (size_t i = 0; i < q_.group_by.size(); ++i) keys += (i ? ", " : "") + grouped_names_[i];
      std::string text = "GROUP BY " + keys + (aggregates.empty() ? "" : ": " + aggregates);
      top = std::make_unique<HashAggregate>(std::move(top), q_.group_by, q_.aggregates, eval_, std::move(text));
    }
    if (q_.having != nullptr) {
      top = std::make_unique<PredicateFilter>(std::move(top), *q_.having, eval_, Text(*q_.having, true));
    }
    return top;
  }

  // PROJECT with the ORDER BY keys after the select list, then SORT, which
  // keeps only LIMIT + OFFSET rows when there is a LIMIT.
  std::unique_ptr<Operator> AddSort(std::unique_ptr<Operator> top, int64_t limit, int64_t offset) const {
    std::vector<const Expr*> exprs = q_.select;
    std::string keys;
    for (const BoundOrder& o : q_.order_by) {
      exprs.push_back(o.expr);
      keys += (keys.empty() ? "" : ", ") + Text(*o.expr, q_.aggregate) + (o.descending ? " DESC" : "");
      if (o.nulls_first == o.descending) keys += o.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    }
    top = std::make_unique<Project>(std::move(top), std::move(exprs), eval_, SelectText());
    size_t keep = kMaxSortedRows;
    if (limit >= 0 && offset + limit < static_cast<int64_t>(kMaxSortedRows)) keep = static_cast<size_t>(offset + limit);
    return std::make_unique<Sort>(std::move(top), q_.order_by, q_.columns.size(), keep, std::move(keys));
  }

  // An expression over input rows, or over grouped rows.
  std::string Text(const Expr& e, bool grouped) const {
    return ExprText(e, grouped ? grouped_names_ : input_names_, window_names_);
  }

  // `f(args) OVER (PARTITION BY ... ORDER BY ... frame)`, over the rows
  // the window sees.
  std::string WindowText(const BoundWindow& w) const {
    const bool grouped = q_.aggregate;
    std::string text;
    if (w.function != nullptr) {
      std::string args;
      for (const Expr* a : w.args) args += (args.empty() ? "" : ", ") + Text(*a, grouped);
      text = w.function->name + "(" + args + ")";
    } else {
      std::string args;
      for (const Expr* a : w.aggregate.args) args += (args.empty() ? "" : ", ") + Text(*a, grouped);
      text = w.aggregate.function->name + "(" + (w.aggregate.distinct ? "DISTINCT " : "") +
             (w.aggregate.args.empty() ? "*" : args) + ")";
    }
    std::string over;
    for (size_t i = 0; i < w.partition_by.size(); ++i) {
      over += (i ? ", " : "PARTITION BY ") + Text(*w.partition_by[i], grouped);
    }
    for (size_t i = 0; i < w.order_by.size(); ++i) {
      over += std::string(i              ? ", "
                          : over.empty() ? "ORDER BY "
                                         : " ORDER BY ") +
              Text(*w.order_by[i].expr, grouped) + (w.order_by[i].descending ? " DESC" : "");
    }
    return text + " OVER (" + over + ")";
  }

  std::string AggregateText(const BoundAggregate& a) const {
    std::string args;
    for (const Expr* arg : a.args) args += (args.empty() ? "" : ", ") + ExprText(*arg, input_names_);
    return a.function->name + "(" + (a.distinct ? "DISTINCT " : "") + (a.args.empty() ? "*" : args) + ")";
  }

  // The select list, with each column's name where it is not the text.
  std::string SelectText() const {
    std::string out;
    for (size_t i = 0; i < q_.select.size(); ++i) {
      const std::string text = Text(*q_.select[i], q_.aggregate);
      const std::string& name = q_.columns[i].name;
      out += (i ? ", " : "") + text;
      if (name != text && !name.starts_with("$col")) out += " AS " + name;
    }
    return out;
  }

  const BoundQuery& q_;
  const Evaluator& eval_;
  const std::vector<std::string> input_names_;
  std::vector<std::string> grouped_names_;  // group keys, then aggregates
  std::vector<std::string> window_names_;   // the window calls
};

}  // namespace

Result<Params> ViewParameters(std::string_view view, const PreparedQuery& view_query, const Params& params) {
  Params values;
  std::vector<std::string> missing;
  for (const auto& [key, type] : view_query.parameters()) {
    if (!IsViewParameterKey(key)) continue;
    auto it = params.find(key);
    if (it != params.end()) {
      values.insert(*it);
    } else {
      missing.push_back(key.substr(kViewParameterPrefix.size()));
    }
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) names += fmt::format("{}'{}'", names.empty() ? "" : ", ", name);
    return Status::InvalidArgument(
        fmt::format("logical view {} reads view parameters the request does not give: {} (a request's "
                    "view_parameters; in the shell, @{}='...')",
                    view, names, missing[0]));
  }
  // Views the view reads may read others.
  for (const auto& [key, value] : params) {
    if (IsViewParameterKey(key)) values.insert({key, value});
  }
  return values;
}

Result<ExecutionPlan> PlanViewExecution(const BoundQuery& q, const PreparedQuery* view_query, const Params& params,
                                        bool pipe_stage) {
  Params view_params = params;
  if (!pipe_stage) {
    LBT_ASSIGN_OR_RETURN(view_params, ViewParameters(q.view, *view_query, params));
  }
  ExecutionPlan plan;
  plan.evaluator = std::make_unique<Evaluator>(params);
  LBT_ASSIGN_OR_RETURN(int64_t limit, Resolve(q.limit, q.limit_param, params, "LIMIT"));
  LBT_ASSIGN_OR_RETURN(int64_t offset, Resolve(q.offset, q.offset_param, params, "OFFSET"));
  auto leaf = std::make_unique<ViewScan>(q.view, view_query, std::move(view_params));
  plan.view = leaf.get();
  const ReadPlan no_read;  // the names of the input slots come from q alone
  Planner planner(q, no_read, *plan.evaluator);
  plan.evaluator->set_window_base(planner.WindowBase());
  plan.root = planner.Build(std::move(leaf), limit, offset);
  return plan;
}

Result<ExecutionPlan> PlanExecution(const BoundQuery& q, const ReadPlan& read, const Params& params) {
  ExecutionPlan plan;
  plan.evaluator = std::make_unique<Evaluator>(params);
  LBT_ASSIGN_OR_RETURN(KeyRangeSet ranges, PlanRowRanges(q, *plan.evaluator));
  LBT_ASSIGN_OR_RETURN(int64_t limit, Resolve(q.limit, q.limit_param, params, "LIMIT"));
  LBT_ASSIGN_OR_RETURN(int64_t offset, Resolve(q.offset, q.offset_param, params, "OFFSET"));
  auto scan = std::make_unique<TableScan>(q, read, std::move(ranges));
  plan.scan = scan.get();
  Planner planner(q, read, *plan.evaluator);
  plan.evaluator->set_window_base(planner.WindowBase());
  plan.root = planner.Build(std::move(scan), limit, offset);
  return plan;
}

}  // namespace lbt::sql
