#include "sql/read_planner.h"

#include "sql/expr_text.h"

namespace lbt::sql {

namespace {

// A family name as a regular expression that matches just it.
std::string EscapeRegex(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') out += '\\';
    out += c;
  }
  return out;
}

// Finds what the expressions over input rows use: `_key`, whole family
// maps, and columns by constant subscript, which become cell columns
// (families without history) or the only columns of a family's map.
class UseFinder {
 public:
  UseFinder(BoundQuery* q, ReadPlan* plan)
      : q_(q), plan_(plan), whole_(q->families.size(), false), columns_(q->families.size()) {}

  void Run() {
    std::vector<const Expr*> roots = {q_->where};
    if (q_->aggregate) {
      roots.insert(roots.end(), q_->group_by.begin(), q_->group_by.end());
      for (const BoundAggregate& a : q_->aggregates) roots.insert(roots.end(), a.args.begin(), a.args.end());
    } else {
      roots.insert(roots.end(), q_->select.begin(), q_->select.end());
      for (const BoundOrder& o : q_->order_by) roots.push_back(o.expr);
      // Window calls of a query without aggregates read the input row.
      for (const BoundWindow& w : q_->windows) {
        roots.insert(roots.end(), w.args.begin(), w.args.end());
        roots.insert(roots.end(), w.aggregate.args.begin(), w.aggregate.args.end());
        roots.insert(roots.end(), w.partition_by.begin(), w.partition_by.end());
        for (const BoundOrder& o : w.order_by) roots.push_back(o.expr);
      }
    }
    plan_->key_used = q_->unpack;  // UNPACK's rows always carry their key
    for (const Expr* root : roots) {
      // The query owns every expression (BoundQuery::select_ast, owned);
      // the pointers are const only for the evaluator's sake.
      if (root != nullptr) Note(const_cast<Expr*>(root));
    }
    plan_->families.resize(q_->families.size());
    for (size_t i = 0; i < q_->families.size(); ++i) {
      FamilyRead& f = plan_->families[i];
      f.as_map = f.read = whole_[i] || !columns_[i].empty();
      if (!whole_[i]) f.only_columns = std::move(columns_[i]);
      // A key field's value comes from the key, not from cells.
      if (q_->families[i].key_field >= 0) {
        f.read = false;
        if (f.as_map || q_->unpack) plan_->key_used = true;
      }
    }
    for (const CellColumn& c : plan_->cell_columns) plan_->families[c.family].read = true;
  }

 private:
  // The family of an input slot, or -1 (`_key`, `_timestamp`, cell columns).
  int FamilyOfSlot(int slot) const {
    return slot >= 1 && static_cast<size_t>(slot) <= q_->families.size() ? slot - 1 : -1;
  }

  // A bound reference to a column of the row (names keep kColumn).
  static bool IsSlot(const Expr& e) {
    return (e.kind == ExprKind::kSlot || e.kind == ExprKind::kColumn) && e.slot >= 0;
  }

  // `cf['q']` with a constant qualifier: the family's index, or -1. UNPACK
  // reads whole families, so there it is an ordinary subscript.
  int ConstantSubscriptFamily(const Expr& e) const {
    if (q_->unpack) return -1;
    if (e.kind != ExprKind::kCall || e.name != "$subscript" || e.args.size() != 2 || e.literal.str() != "key")
      return -1;
    if (!IsSlot(*e.args[0]) || e.args[1]->kind != ExprKind::kLiteral || e.args[1]->literal.is_null() ||
        e.args[1]->literal.kind() != TypeKind::kBytes) {
      return -1;
    }
    return FamilyOfSlot(e.args[0]->slot);
  }

  // Records whether `e` reads the key, and which families or columns. A
  // constant subscript of a family without history becomes a slot of its
  // own, holding the cell's latest value, so no map is built for it.
  void Note(Expr* e) {
    const int family = ConstantSubscriptFamily(*e);
    if (family >= 0 && !q_->families[family].with_history) {
      e->slot = CellColumnSlot(static_cast<size_t>(family), e->args[1]->literal.str(), e->type);
      e->kind = ExprKind::kSlot;
      e->args.clear();
      return;
    }
    if (family >= 0) {
      columns_[family].insert(e->args[1]->literal.str());
      return;
    }
    if (IsSlot(*e)) {
      const int whole = FamilyOfSlot(e->slot);
      if (whole >= 0) whole_[whole] = true;
      if (e->slot == 0) plan_->key_used = true;
    }
    for (ExprPtr& a : e->args) Note(a.get());
  }

  // The input slot of the cell column (family, qualifier), added if new.
  int CellColumnSlot(size_t family, const std::string& qualifier, const TypePtr& type) {
    const size_t first = 1 + q_->families.size();
    std::vector<CellColumn>& columns = plan_->cell_columns;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].family == family && columns[i].qualifier == qualifier) return static_cast<int>(first + i);
    }
    columns.push_back(CellColumn{family, qualifier, type});
    return static_cast<int>(first + columns.size() - 1);
  }

  BoundQuery* q_;
  ReadPlan* plan_;
  std::vector<bool> whole_;                     // the family's map is read
  std::vector<std::set<std::string>> columns_;  // only these columns of a history map are read
};

// The table options as the read's filter: a timestamp range, and how many
// cells of each column a read keeps (the latest, or latest_n with history).
void ApplyTableOptions(const TableOptions& t, ReadRequest* read) {
  std::vector<Filter> chain;
  if (t.start || t.end) chain.push_back(Filter::TimestampRange(t.start.value_or(0), t.end.value_or(0)));
  const int64_t per_column = t.with_history ? t.latest_n : 1;
  if (chain.empty()) {
    read->cells_per_column_limit = per_column;
  } else {
    if (per_column > 0) chain.push_back(Filter::CellsPerColumnLimit(per_column));
    read->filter = chain.size() == 1 ? chain[0] : Filter::Chain(std::move(chain));
  }
}

// Reads only the families the query uses, plus one stripped cell of the
// others so that a row whose used families are empty still counts (its
// columns are then empty maps). A query that uses no family (COUNT(*),
// `_key` alone) reads just one stripped cell per row. Columns a query
// names by constant subscript (`cf['q']`) are picked out when values are
// built rather than by the read: a filter that copies each row costs more
// than the cells it would save.
void ApplyFamilies(const BoundQuery& q, const ReadPlan& plan, ReadRequest* read) {
  std::string used, unused;
  for (size_t i = 0; i < q.families.size(); ++i) {
    if (q.families[i].key_field >= 0) continue;
    std::string& list = plan.families[i].read ? used : unused;
    if (!list.empty()) list += '|';
    list += EscapeRegex(q.families[i].name);
  }
  if (unused.empty()) return;
  Filter families = Filter::Chain({Filter::CellsPerRowLimit(1), Filter::StripValue()});
  if (!used.empty()) {
    Filter existence =
        Filter::Chain({Filter::FamilyNameRegex("(" + unused + ")"), Filter::CellsPerRowLimit(1), Filter::StripValue()});
    families = Filter::Interleave({Filter::FamilyNameRegex("(" + used + ")"), std::move(existence)});
  }
  read->filter = read->filter ? Filter::Chain({*read->filter, std::move(families)}) : std::move(families);
}

}  // namespace

ReadPlan PlanRead(BoundQuery* q) {
  ReadPlan plan;
  UseFinder(q, &plan).Run();
  ApplyTableOptions(q->options, &plan.request);
  ApplyFamilies(*q, plan, &plan.request);
  return plan;
}

Result<KeyRangeSet> PlanRowRanges(const BoundQuery& q, const Evaluator& constants) {
  KeyFieldSlots fields;
  if (q.row_key_schema) {
    fields.schema = &*q.row_key_schema;
    fields.slots.assign(q.row_key_schema->fields.size(), -1);
    for (size_t i = 0; i < q.families.size(); ++i) {
      if (q.families[i].key_field >= 0) fields.slots[q.families[i].key_field] = static_cast<int>(i) + 1;
    }
  }
  return KeyRangesOf(q.where, constants, fields);
}

ReadRequest RequestFor(const ReadPlan& plan, const KeyRangeSet& ranges) {
  ReadRequest request = plan.request;
  request.rows = ranges.ToRowSet();
  return request;
}

std::vector<std::string> InputSlotNames(const BoundQuery& q, const ReadPlan& plan) {
  std::vector<std::string> names = {"_key"};
  for (const BoundFamily& f : q.families) names.push_back(f.name);
  if (q.unpack) names.push_back("_timestamp");
  for (const CellColumn& c : plan.cell_columns) {
    names.push_back(q.families[c.family].name + "[" + QuotedText(c.qualifier) + "]");
  }
  return names;
}

}  // namespace lbt::sql
