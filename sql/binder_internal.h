// The binder's working state, shared by the files that bind a query:
// binder.cc (FROM, the select list, GROUP BY and aggregates, LIMIT and
// OFFSET) and binder_expressions.cc (names and expressions over the input
// row). Internal to sql/; Bind and BindOverView (binder.h) run it.

#ifndef LBT_SQL_BINDER_INTERNAL_H_
#define LBT_SQL_BINDER_INTERNAL_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/schema.h"
#include "sql/ast.h"
#include "sql/bound_query.h"
#include "sql/evaluator.h"
#include "sql/proto_values.h"

namespace lbt::sql::internal {

// `s` in upper case (ASCII).
std::string Upper(std::string_view s);

// Binds one query: Run fills the BoundQuery it was made with, or says why
// the query does not bind.
class Binder {
 public:
  Binder(const TableSpec& table, const ParamTypes& params, std::string_view sql, BoundQuery* q, QueryKind kind,
         const std::vector<ResultColumn>* view_columns = nullptr)
      : table_(table),
        params_(params),
        sql_(sql),
        q_(q),
        kind_(kind),
        constants_(Params()),
        view_columns_(view_columns) {}

  Status Run();

 private:
  Status Error(const Expr& e, const std::string& what) const;

  // ---- FROM ----
  Status BindFrom(Select& s);
  // A logical view's result columns, each a column of the input.
  Status BindView(const FromClause& ref);
  Status UnpackColumns(const Select& inner, std::set<std::string>* chosen);
  void AddKeyFields(const std::set<std::string>& chosen);
  bool IsKeyField(const std::string& name) const {
    if (!table_.row_key_schema) return false;
    for (const RowKeyField& f : table_.row_key_schema->fields) {
      if (f.name == name) return true;
    }
    return false;
  }
  static int64_t FloorMillis(int64_t micros) { return micros - ((micros % 1000) + 1000) % 1000; }
  static int64_t CeilMillis(int64_t micros) { return FloorMillis(micros) + (micros % 1000 != 0 ? 1000 : 0); }
  Result<Value> OptionValue(const std::string& name, Expr* e, TypeKind kind);
  Result<TableOptions> Options(FromClause& ref);

  // ---- names (binder_expressions.cc) ----
  // The slot of an input column, or -1.
  int InputSlot(const std::string& name, TypePtr* type);

  // ---- expressions over the input row (binder_expressions.cc) ----
  Status BindInput(Expr* e, const char* clause);
  // TIMESTAMP_TRUNC(t, HOUR) and kin name a date part where an expression
  // would go; TIMESTAMP_ADD(t, INTERVAL n HOUR) takes it after an INTERVAL.
  static void PrepareDateParts(Expr* e);
  // Types one node whose children are typed.
  Status BindNode(Expr* e);
  Status BindLogic(Expr* e);
  // An untyped NULL or a string literal takes `to` where it can.
  static void Coerce(Expr* e, const TypePtr& to, bool temporal = false);
  Status BindFunction(Expr* e);
  // Puts a call's named arguments in their positions, defaults between.
  Status PlaceNamedArguments(Expr* e, const Function& fn);
  Result<TypePtr> RetypeLiterals(Expr* e, const Function* fn, std::vector<TypePtr>* types);
  Status BindLambdaCall(Expr* e, const char* clause);
  Status BindProtoCast(Expr* e);
  std::shared_ptr<const ProtoCast> FamilyProto(const FamilySpec& family);
  // The schema bundle's types, built once a query; nullptr when the table
  // has no such bundle (or it does not build).
  std::shared_ptr<const protoschema::ProtoTypes> BundleTypes(const std::string& bundle_id);
  // VIEW_PARAMETERS('name'): a STRING parameter of its own (ViewParameterKey).
  Status BindViewParameter(Expr* e);
  Status BindSubscript(Expr* e);
  Status BindConditional(Expr* e);
  Status BindCase(Expr* e);
  Status Unify(Expr& branch, TypePtr* result);

  // ---- the select list ----
  static bool ContainsAggregate(const Expr& e);
  static bool HasAggregate(const Select& s);
  std::string ColumnName(const SelectItem& item, size_t index) const;
  // `*`: `_key` (unless a row-key schema makes it a pseudocolumn), then
  // the key fields and every family (then `_timestamp` for UNPACK).
  std::vector<SelectItem> ExpandStar();
  Status ExpandStars(Select& s);
  // `* EXCEPT (...)` drops columns from `*`'s, `* REPLACE (...)` puts its
  // expressions in their place (moved out of `star`).
  Status ApplyExceptReplace(SelectItem& star, std::vector<SelectItem>* columns) const;
  // An ORDER BY or GROUP BY item that names a select-list position or alias.
  const SelectItem* SelectReference(const Expr& e, const Select& s) const;
  Status BindPlain(Select& s);
  Status AddOrder(const OrderItem& o);

  // ---- GROUP BY and aggregates ----
  Status BindGrouped(Select& s);
  // `parsed` re-expressed over the grouped row: group keys and aggregates
  // become slots; anything else must be built from them.
  Result<ExprPtr> Regroup(const Expr& parsed, const char* clause);
  static ExprPtr Slot(int slot, TypePtr type, size_t pos);
  // The grouped row's slot of the aggregate `parsed`, added if new: one
  // the query names twice (`COUNT(*) AS n ... ORDER BY COUNT(*)`) is
  // computed once.
  Result<ExprPtr> AddAggregate(const Expr& parsed);

  // ---- window calls (binder_windows.cc) ----
  // An OVER clause with the named windows it builds on merged in.
  struct ResolvedWindow {
    std::vector<const Expr*> partition_by;
    std::vector<const OrderItem*> order_by;
    const WindowFrame* frame = nullptr;
  };
  static bool ContainsWindow(const Expr& e);
  // Replaces each window call in `e`, a plain query's select item or
  // ORDER BY key, by its result's slot.
  Status ExtractWindows(ExprPtr& e);
  Result<ResolvedWindow> ResolveWindow(const WindowSpec& spec, int depth);
  // A part of a window call (argument, PARTITION BY or ORDER BY key), over
  // the input row, or regrouped over the grouped row.
  Result<ExprPtr> BindWindowPart(const Expr& parsed, bool grouped, const char* clause);
  // The window call `parsed` as a kWindowResult slot, added if new.
  Result<ExprPtr> BindWindowCall(const Expr& parsed, bool grouped);
  Status BindWindowFunctionArgs(const Expr& parsed, bool grouped, BoundWindow* w);
  Status BindWindowAggregate(const Expr& parsed, const AggregateFunction* aggregate, bool grouped,
                             const ResolvedWindow& spec, BoundWindow* w);
  Status CheckWindowOrder(const Expr& parsed, const BoundWindow& w);
  Status BindFrame(const Expr& parsed, const WindowFrame* frame, BoundWindow* w);
  Result<Value> FrameOffset(const FrameBound& bound, bool rows, const BoundWindow& w);
  static ExprPtr WindowSlot(int index, TypePtr type, size_t pos);

  // ---- LIMIT and OFFSET ----
  Status BindLimits(Select& s);

  const TableSpec& table_;
  const ParamTypes& params_;
  std::string_view sql_;
  BoundQuery* q_;
  QueryKind kind_;
  Evaluator constants_;
  const std::vector<ResultColumn>* view_columns_;  // FROM a logical view: its columns
  std::string table_alias_;
  std::set<std::string> used_params_;
  std::vector<std::string> group_texts_;
  std::vector<TypePtr> group_types_;
  std::vector<std::string> aggregate_texts_;  // Unparse of each of q_->aggregates
  std::vector<std::string> window_texts_;     // Unparse of each of q_->windows
  // The parameters of the lambdas being bound, outermost first: a
  // parameter's index is its slot in the evaluator's lambda frame.
  std::vector<std::pair<std::string, TypePtr>> lambda_params_;
  // The schema bundles the query's casts read, built once each.
  std::map<std::string, std::shared_ptr<const protoschema::ProtoTypes>> proto_types_;
};

}  // namespace lbt::sql::internal

#endif  // LBT_SQL_BINDER_INTERNAL_H_
