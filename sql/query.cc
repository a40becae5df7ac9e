#include "sql/query.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "api/instance_admin.h"
#include "sql/binder.h"
#include "sql/materialized_view.h"
#include "sql/parser.h"
#include "sql/planner.h"
#include "sql/read_planner.h"

namespace lbt::sql {

namespace {

// A value of the declared type for every parameter the query uses.
Status CheckParamValues(const ParamTypes& declared, const Params& params) {
  for (const auto& [name, type] : declared) {
    auto it = params.find(name);
    if (it == params.end()) return Status::InvalidArgument(fmt::format("No value for query parameter @{}", name));
    if (!SameType(it->second.type(), type)) {
      return Status::InvalidArgument(fmt::format("Query parameter @{} is {}, but the query was prepared with {}", name,
                                                 it->second.type()->ToString(), type->ToString()));
    }
  }
  return Status::OK();
}

// A query's rows, pulled from the root of its operator tree.
class OperatorStream final : public ResultStream {
 public:
  OperatorStream(std::string table, ExecutionPlan plan) : table_(std::move(table)), plan_(std::move(plan)) {}

  bool Next(Values* row) override { return plan_.root->Next(row); }
  Status status() const override { return plan_.root->status(); }
  QueryStats stats() const override {
    if (plan_.view != nullptr) {
      // What the view's query read from its table, and what this returned.
      QueryStats stats = plan_.view->view_stats();
      stats.rows_returned = plan_.root->rows();
      return stats;
    }
    return QueryStats{table_, plan_.scan->ranges(), plan_.scan->examined(), plan_.root->rows()};
  }
  QueryPlan plan() const override {
    QueryPlan out;
    plan_.root->Describe(0, &out);
    return out;
  }

 private:
  const std::string table_;
  ExecutionPlan plan_;
};

class Prepared final : public PreparedQuery {
 public:
  Prepared(Bigtable* bigtable, std::unique_ptr<BoundQuery> q)
      : bigtable_(bigtable), q_(std::move(q)), read_(PlanRead(q_.get())) {}
  const std::vector<ResultColumn>& columns() const override { return q_->columns; }
  const ParamTypes& parameters() const override { return q_->parameters; }

  Result<std::unique_ptr<ResultStream>> Execute(const Params& params) const override {
    LBT_RETURN_IF_ERROR(CheckParams(params));
    LBT_ASSIGN_OR_RETURN(ExecutionPlan plan, PlanExecution(*q_, read_, params));
    LBT_RETURN_IF_ERROR(plan.scan->Open(bigtable_));
    return std::unique_ptr<ResultStream>(std::make_unique<OperatorStream>(q_->table, std::move(plan)));
  }

  Result<QueryPlan> Plan(const Params& params) const override {
    LBT_RETURN_IF_ERROR(CheckParams(params));
    LBT_ASSIGN_OR_RETURN(ExecutionPlan plan, PlanExecution(*q_, read_, params));
    QueryPlan out;
    plan.root->Describe(0, &out);
    for (PlanNode& node : out) node.rows = -1;
    return out;
  }

 private:
  Status CheckParams(const Params& params) const { return CheckParamValues(q_->parameters, params); }

  Bigtable* bigtable_;
  std::unique_ptr<BoundQuery> q_;
  const ReadPlan read_;
};

// A query over a logical view: the view's own prepared query feeds it. Or
// a pipe query's stage over the stage before it (`pipe_stage`), which
// shares the query's parameters.
class PreparedOverView final : public PreparedQuery {
 public:
  PreparedOverView(std::unique_ptr<PreparedQuery> view_query, std::unique_ptr<BoundQuery> q, bool pipe_stage = false)
      : view_query_(std::move(view_query)), q_(std::move(q)), pipe_stage_(pipe_stage), parameters_(q_->parameters) {
    if (pipe_stage_) parameters_.insert(view_query_->parameters().begin(), view_query_->parameters().end());
  }
  const std::vector<ResultColumn>& columns() const override { return q_->columns; }
  const ParamTypes& parameters() const override { return parameters_; }

  Result<std::unique_ptr<ResultStream>> Execute(const Params& params) const override {
    LBT_RETURN_IF_ERROR(CheckParamValues(parameters_, params));
    LBT_ASSIGN_OR_RETURN(ExecutionPlan plan, PlanViewExecution(*q_, view_query_.get(), params, pipe_stage_));
    return std::unique_ptr<ResultStream>(std::make_unique<OperatorStream>(q_->view, std::move(plan)));
  }

  Result<QueryPlan> Plan(const Params& params) const override {
    LBT_RETURN_IF_ERROR(CheckParamValues(parameters_, params));
    LBT_ASSIGN_OR_RETURN(ExecutionPlan plan, PlanViewExecution(*q_, view_query_.get(), params, pipe_stage_));
    QueryPlan out;
    plan.root->Describe(0, &out);
    // Then the view's own operators, below its VIEW.
    Params view_params = params;
    if (!pipe_stage_) {
      LBT_ASSIGN_OR_RETURN(view_params, ViewParameters(q_->view, *view_query_, params));
    }
    LBT_ASSIGN_OR_RETURN(QueryPlan inner, view_query_->Plan(view_params));
    const int depth = out.empty() ? 0 : out.back().depth + 1;
    for (PlanNode& node : inner) {
      node.depth += depth;
      out.push_back(std::move(node));
    }
    for (PlanNode& node : out) node.rows = -1;
    return out;
  }

 private:
  std::unique_ptr<PreparedQuery> view_query_;
  std::unique_ptr<BoundQuery> q_;
  const bool pipe_stage_;
  ParamTypes parameters_;
};

// A materialized view's rows as its query's result: what its maintainer
// keeps, decoded into the columns' values, in the view's key order.
class MaterializedRowsQuery final : public PreparedQuery {
 public:
  MaterializedRowsQuery(Bigtable* bigtable, std::string view, std::unique_ptr<MaterializedViewPlan> plan)
      : bigtable_(bigtable), view_(std::move(view)), plan_(std::move(plan)) {}
  const std::vector<ResultColumn>& columns() const override { return plan_->columns(); }
  const ParamTypes& parameters() const override { return no_params_; }

  // Reads only the view rows whose key columns the outer query's WHERE
  // fixes to constants (`col = 'x' AND ...`, over [NULL, columns...]).
  void NarrowTo(const Expr* where) {
    std::map<size_t, Value> equal;
    const Evaluator constants{Params{}};
    CollectEqualities(where, constants, &equal);
    range_ = plan_->KeyRange(equal);
  }

  Result<std::unique_ptr<ResultStream>> Execute(const Params&) const override {
    ReadRequest request;
    if (range_) request.rows.row_ranges = {*range_};
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> view, bigtable_->OpenTable(TableRef::MaterializedView(view_)));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, view->ReadRows(request));
    return std::unique_ptr<ResultStream>(std::make_unique<Stream>(this, std::move(rows)));
  }
  Result<QueryPlan> Plan(const Params&) const override {
    return QueryPlan{PlanNode{0, "SCAN",
                              fmt::format("materialized view {} {} (kept from {})", view_,
                                          range_ ? "key range" : "all rows", plan_->source_table())}};
  }

 private:
  class Stream final : public ResultStream {
   public:
    Stream(const MaterializedRowsQuery* query, std::unique_ptr<RowStream> rows)
        : query_(query), rows_(std::move(rows)) {}
    bool Next(Values* out) override {
      if (!status_.ok() || !rows_->Next(&row_)) return false;
      Result<Values> decoded = query_->plan_->DecodeRow(row_);
      if (!decoded.ok()) {
        status_ = decoded.status();
        return false;
      }
      *out = std::move(decoded).value();
      ++returned_;
      return true;
    }
    Status status() const override { return status_.ok() ? rows_->status() : status_; }
    QueryStats stats() const override {
      return QueryStats{query_->view_, query_->range_ ? "the key range its WHERE fixes" : "all rows", returned_,
                        returned_};
    }

   private:
    const MaterializedRowsQuery* query_;
    std::unique_ptr<RowStream> rows_;
    Row row_;
    Status status_;
    int64_t returned_ = 0;
  };

  static bool RefersToParameter(const Expr& e) {
    if (e.kind == ExprKind::kParameter) return true;
    for (const ExprPtr& arg : e.args) {
      if (arg && RefersToParameter(*arg)) return true;
    }
    return false;
  }
  // column = constant conjuncts of `e`, by column position.
  static void CollectEqualities(const Expr* e, const Evaluator& constants, std::map<size_t, Value>* equal) {
    if (e == nullptr || e->kind != ExprKind::kCall) return;
    if (e->name == "$and") {
      for (const ExprPtr& arg : e->args) CollectEqualities(arg.get(), constants, equal);
      return;
    }
    if (e->name != "$eq" || e->args.size() != 2) return;
    for (int side = 0; side < 2; ++side) {
      const Expr& column = *e->args[side];
      const Expr& other = *e->args[1 - side];
      // A column of the view: bound to its slot, after the unused `_key`.
      const bool is_column = column.kind == ExprKind::kColumn || column.kind == ExprKind::kSlot;
      if (!is_column || column.slot < 1 || RefersToParameter(other)) continue;
      std::optional<Value> constant = constants.Constant(other);
      if (constant) equal->emplace(static_cast<size_t>(column.slot - 1), std::move(*constant));
    }
  }

  Bigtable* bigtable_;
  const std::string view_;
  std::unique_ptr<MaterializedViewPlan> plan_;
  const ParamTypes no_params_;
  std::optional<RowRange> range_;
};

// A view's query may read another view, but not without end.
constexpr int kMaxViewDepth = 8;

// What EXPLAIN and errors call a pipe stage's input.
constexpr const char* kPipeInput = "(the query before |>)";

Result<std::unique_ptr<PreparedQuery>> PrepareSelect(Bigtable* bigtable, std::unique_ptr<Select> select,
                                                     std::string_view sql, const ParamTypes& params, int depth,
                                                     QueryKind kind);

Result<std::unique_ptr<PreparedQuery>> PrepareAt(Bigtable* bigtable, std::string_view sql, const ParamTypes& params,
                                                 int depth, QueryKind kind) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> select, Parse(sql));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<PreparedQuery> query,
                       PrepareSelect(bigtable, std::move(select), sql, params, depth, kind));
  if (depth == 0) LBT_RETURN_IF_ERROR(CheckResultTypes(query->columns()));
  return query;
}

Result<std::unique_ptr<PreparedQuery>> PrepareSelect(Bigtable* bigtable, std::unique_ptr<Select> select,
                                                     std::string_view sql, const ParamTypes& params, int depth,
                                                     QueryKind kind) {
  if (select->from.pipe_input) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<PreparedQuery> input,
                         PrepareSelect(bigtable, std::move(select->from.pipe_input), sql, params, depth, kind));
    select->from.table = kPipeInput;
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound,
                         BindOverView(std::move(select), kPipeInput, input->columns(), params, sql, kind));
    return std::unique_ptr<PreparedQuery>(
        std::make_unique<PreparedOverView>(std::move(input), std::move(bound), /*pipe_stage=*/true));
  }
  const FromClause& from = select->from.unpack ? select->from.unpack->from : select->from;
  if (from.table.empty()) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound, Bind(std::move(select), TableSpec(), params, sql, kind));
    return std::unique_ptr<PreparedQuery>(std::make_unique<Prepared>(bigtable, std::move(bound)));
  }
  Result<TableSpec> table = bigtable->GetTable(from.table);
  if (table.ok()) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound, Bind(std::move(select), *table, params, sql, kind));
    return std::unique_ptr<PreparedQuery>(std::make_unique<Prepared>(bigtable, std::move(bound)));
  }
  if (!table.status().IsNotFound()) return table.status();
  // Not a table: a materialized view of the instance, if it has one so
  // named. Only a local instance is asked: a service that runs no SQL (the
  // emulator) may fail at the question (the official one crashes), and
  // one that has views runs its queries itself.
  Result<MaterializedViewSpec> kept = bigtable->local() != nullptr ? GetMaterializedViewOf(bigtable, from.table)
                                                                   : Result<MaterializedViewSpec>(table.status());
  if (kept.ok()) {
    if (select->from.unpack || !select->from.options.empty()) {
      return Status::InvalidArgument(
          fmt::format("materialized view {} has no cell history to read {}", from.table, Location(sql, from.pos)));
    }
    Result<std::unique_ptr<MaterializedViewPlan>> plan = MaterializedViewPlan::Make(bigtable, kept->query);
    if (!plan.ok()) {
      return Status::FromCode(plan.status().code(),
                              fmt::format("materialized view {}: {}", from.table, plan.status().message()));
    }
    auto rows = std::make_unique<MaterializedRowsQuery>(bigtable, from.table, std::move(plan).value());
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound,
                         BindOverView(std::move(select), from.table, rows->columns(), params, sql, kind));
    rows->NarrowTo(bound->where);
    return std::unique_ptr<PreparedQuery>(std::make_unique<PreparedOverView>(std::move(rows), std::move(bound)));
  }
  // Not a table: a logical view of the instance, if it has one so named.
  Result<LogicalViewSpec> view = GetLogicalViewOf(bigtable, from.table);
  if (!view.ok()) {
    return Status::NotFound(fmt::format("Table not found: {} {}", from.table, Location(sql, from.pos)));
  }
  if (depth >= kMaxViewDepth) {
    return Status::InvalidArgument(
        fmt::format("logical view {} reads views more than {} deep; lbt allows {} (does a view read itself?)",
                    from.table, kMaxViewDepth, kMaxViewDepth));
  }
  Result<std::unique_ptr<PreparedQuery>> view_query =
      PrepareAt(bigtable, view->query, {}, depth + 1, QueryKind::kLogicalView);
  if (!view_query.ok()) {
    // Named once: the innermost view whose query fails says so itself.
    if (view_query.status().message().starts_with("logical view ")) return view_query.status();
    return Status::FromCode(view_query.status().code(),
                            fmt::format("logical view {}: {}", from.table, view_query.status().message()));
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound,
                       BindOverView(std::move(select), from.table, (*view_query)->columns(), params, sql, kind));
  return std::unique_ptr<PreparedQuery>(
      std::make_unique<PreparedOverView>(std::move(view_query).value(), std::move(bound)));
}

}  // namespace

namespace {

bool HoldsGeography(const TypePtr& type) {
  switch (type->kind) {
    case TypeKind::kGeography: return true;
    case TypeKind::kArray: return HoldsGeography(type->element);
    case TypeKind::kMap: return HoldsGeography(type->key) || HoldsGeography(type->value);
    case TypeKind::kStruct:
      return std::any_of(type->fields.begin(), type->fields.end(),
                         [](const auto& field) { return HoldsGeography(field.second); });
    default: return false;
  }
}

}  // namespace

// Bigtable's result types have no GEOGRAPHY: a query (or a view's, which a
// query reads) converts its geographies to text or bytes before returning.
Status CheckResultTypes(const std::vector<ResultColumn>& columns) {
  for (const ResultColumn& column : columns) {
    if (HoldsGeography(column.type)) {
      return Status::InvalidArgument(fmt::format(
          "Column {} is a {}, which a query cannot return (Bigtable's result types have no GEOGRAPHY): convert it "
          "with ST_ASTEXT, ST_ASGEOJSON or ST_ASBINARY",
          column.name.empty() ? "(unnamed)" : column.name, column.type->ToString()));
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<PreparedQuery>> Prepare(Bigtable* bigtable, std::string_view sql, const ParamTypes& params) {
  return PrepareAt(bigtable, sql, params, 0, QueryKind::kClient);
}

Status CheckViewQuery(Bigtable* bigtable, std::string_view view_id, std::string_view query) {
  // The views the query reads, through views, none of them `view_id`.
  std::string next(query);
  for (int depth = 0; depth <= kMaxViewDepth; ++depth) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> select, Parse(next));
    const FromClause& from = select->from.unpack ? select->from.unpack->from : select->from;
    if (from.table == view_id) {
      return Status::InvalidArgument(
          fmt::format("logical view {} would read itself{}", view_id, depth == 0 ? "" : ", through other views"));
    }
    if (bigtable->GetTable(from.table).ok()) break;
    Result<LogicalViewSpec> view = GetLogicalViewOf(bigtable, from.table);
    if (!view.ok()) break;  // Prepare below says what is missing
    next = view->query;
  }
  return PrepareAt(bigtable, query, {}, 0, QueryKind::kLogicalView).status();
}

}  // namespace lbt::sql
