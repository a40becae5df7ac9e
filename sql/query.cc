#include "sql/query.h"

#include <fmt/format.h>

#include "sql/binder.h"
#include "sql/parser.h"
#include "sql/planner.h"
#include "sql/read_planner.h"

namespace lbt::sql {

namespace {

// A query's rows, pulled from the root of its operator tree.
class OperatorStream final : public ResultStream {
 public:
  OperatorStream(std::string table, ExecutionPlan plan) : table_(std::move(table)), plan_(std::move(plan)) {}

  bool Next(Values* row) override { return plan_.root->Next(row); }
  Status status() const override { return plan_.root->status(); }
  QueryStats stats() const override {
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
  // A value of the declared type for every parameter the query uses.
  Status CheckParams(const Params& params) const {
    for (const auto& [name, type] : q_->parameters) {
      auto it = params.find(name);
      if (it == params.end()) return Status::InvalidArgument(fmt::format("No value for query parameter @{}", name));
      if (!SameType(it->second.type(), type)) {
        return Status::InvalidArgument(fmt::format("Query parameter @{} is {}, but the query was prepared with {}",
                                                   name, it->second.type()->ToString(), type->ToString()));
      }
    }
    return Status::OK();
  }

  Bigtable* bigtable_;
  std::unique_ptr<BoundQuery> q_;
  const ReadPlan read_;
};

}  // namespace

Result<std::unique_ptr<PreparedQuery>> Prepare(Bigtable* bigtable, std::string_view sql, const ParamTypes& params) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> select, Parse(sql));
  const TableRef& from = select->from.unpack ? select->from.unpack->from : select->from;
  Result<TableSpec> table = bigtable->GetTable(from.table);
  if (table.status().IsNotFound()) {
    return Status::NotFound(fmt::format("Table not found: {} {}", from.table, Location(sql, from.pos)));
  }
  LBT_RETURN_IF_ERROR(table.status());
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound, Bind(std::move(select), *table, params, sql));
  return std::unique_ptr<PreparedQuery>(std::make_unique<Prepared>(bigtable, std::move(bound)));
}

}  // namespace lbt::sql
