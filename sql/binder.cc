#include "sql/binder.h"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "sql/binder_internal.h"
#include "sql/evaluator.h"
#include "sql/parser.h"

namespace lbt::sql {

namespace internal {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Status Binder::Run() {
  Select& s = *q_->select_ast;
  LBT_RETURN_IF_ERROR(BindFrom(s));
  if (s.where) {
    LBT_RETURN_IF_ERROR(BindInput(s.where.get(), "WHERE clause"));
    if (s.where->type->kind != TypeKind::kBool) {
      return Error(*s.where,
                   fmt::format("WHERE clause should return type BOOL, but returns {}", s.where->type->ToString()));
    }
    q_->where = s.where.get();
  }
  q_->aggregate = !s.group_by.empty() || HasAggregate(s);
  LBT_RETURN_IF_ERROR(q_->aggregate ? BindGrouped(s) : BindPlain(s));
  LBT_RETURN_IF_ERROR(BindLimits(s));
  for (const auto& [name, type] : params_) {
    if (used_params_.count(name)) q_->parameters[name] = type;
  }
  return Status::OK();
}

Status Binder::Error(const Expr& e, const std::string& what) const {
  return Status::InvalidArgument(what + " " + Location(sql_, e.pos));
}

Status Binder::BindFrom(Select& s) {
  if (view_columns_ != nullptr) return BindView(s.from);
  if (s.from.pipe_input) return Status::FromCode(Status::Code::kInternal, "a pipe stage bound without its input");
  if (s.from.table.empty() && !s.from.unpack) {
    for (const SelectItem& item : s.items) {
      if (!item.expr) return Status::InvalidArgument("SELECT * must have a FROM clause");
    }
    return Status::OK();  // one row of no columns
  }
  FromClause* ref = &s.from;
  if (s.from.unpack) {
    q_->unpack = true;
    Select& inner = *s.from.unpack;
    if (inner.where || !inner.group_by.empty() || inner.having || !inner.order_by.empty() || inner.limit) {
      return Status::InvalidArgument(
          "UNPACK's query selects columns from one table only: no WHERE, GROUP BY, ORDER BY or LIMIT inside it");
    }
    ref = &inner.from;
  }
  q_->table = ref->table;
  table_alias_ = ref->alias.empty() ? ref->table : ref->alias;
  LBT_ASSIGN_OR_RETURN(TableOptions time, Options(*ref));
  if (q_->unpack && !time.with_history) {
    return Status::InvalidArgument(
        "UNPACK needs a table read with history: FROM UNPACK((SELECT ... FROM t(with_history => TRUE)))");
  }
  std::set<std::string> chosen;
  if (q_->unpack) {
    LBT_RETURN_IF_ERROR(UnpackColumns(*s.from.unpack, &chosen));
  }
  AddKeyFields(chosen);
  // The family columns come in creation order, the order a row's cells
  // come in (production documents no order for them; see README).
  for (const FamilySpec* family : table_.FamiliesInCreationOrder()) {
    const std::string& name = family->name;
    const FamilySpec& f = *family;
    if (q_->unpack && !chosen.count(name)) continue;
    BoundFamily b;
    b.name = name;
    b.aggregate = IsIntAggregate(f.value_type);
    b.string = StoredValueType(f.value_type) == ValueType::kString;
    b.with_history = time.with_history && !q_->unpack;
    b.proto = FamilyProto(f);
    TypePtr value = b.aggregate ? Type::Int64() : (b.string ? Type::String() : Type::Bytes());
    if (b.proto != nullptr) value = b.proto->type;
    if (b.with_history) {
      value = Type::Array(Type::Struct({{"timestamp", Type::Timestamp()}, {"value", value}}));
    }
    b.type = Type::Map(Type::Bytes(), value);
    q_->families.push_back(std::move(b));
  }
  q_->options = time;
  return Status::OK();
}

// How a family of a schema bundle's type decodes its cells; nullptr for
// any other family, and for one whose bundle or type is gone (its cells
// then read as BYTES).
std::shared_ptr<const ProtoCast> Binder::FamilyProto(const FamilySpec& family) {
  if (family.value_type != ValueType::kProto && family.value_type != ValueType::kEnum) return nullptr;
  std::shared_ptr<const protoschema::ProtoTypes> types = BundleTypes(family.schema_bundle_id);
  if (types == nullptr) return nullptr;
  auto cast = std::make_shared<ProtoCast>();
  cast->types = types;
  if (family.value_type == ValueType::kEnum) {
    cast->enum_type = types->FindEnum(family.type_name);
    if (cast->enum_type == nullptr) return nullptr;
    cast->type = Type::String();
    return cast;
  }
  cast->message = types->FindMessage(family.type_name);
  if (cast->message == nullptr) return nullptr;
  cast->type = ProtoStructType(cast->message);
  return cast;
}

std::shared_ptr<const protoschema::ProtoTypes> Binder::BundleTypes(const std::string& bundle_id) {
  auto& types = proto_types_[bundle_id];
  if (types != nullptr) return types;
  for (const SchemaBundleSpec& bundle : table_.schema_bundles) {
    if (bundle.id != bundle_id) continue;
    Result<std::shared_ptr<const protoschema::ProtoTypes>> built =
        protoschema::ProtoTypes::Build(bundle.descriptors, "schema bundle " + bundle_id);
    if (built.ok()) types = *built;
  }
  return types;
}

// The row-key schema's fields, as columns before the families (SELECT *
// lists them there, and `_key` no longer: structured-row-key-queries).
void Binder::AddKeyFields(const std::set<std::string>& chosen) {
  if (!table_.row_key_schema) return;
  q_->row_key_schema = table_.row_key_schema;
  const std::vector<RowKeyField>& fields = table_.row_key_schema->fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (q_->unpack && !chosen.count(fields[i].name)) continue;
    BoundFamily b;
    b.name = fields[i].name;
    b.key_field = static_cast<int>(i);
    switch (fields[i].type) {
      case RowKeyField::Type::kBytes: b.type = Type::Bytes(); break;
      case RowKeyField::Type::kString: b.type = Type::String(); break;
      case RowKeyField::Type::kInt64: b.type = Type::Int64(); break;
      case RowKeyField::Type::kTimestamp: b.type = Type::Timestamp(); break;
    }
    q_->families.push_back(std::move(b));
  }
}

Status Binder::BindView(const FromClause& ref) {
  if (!ref.options.empty()) {
    return Status::InvalidArgument(
        fmt::format("{} is a logical view: it takes no options such as with_history", ref.table));
  }
  q_->view = ref.table;
  table_alias_ = ref.alias.empty() ? ref.table : ref.alias;
  for (const ResultColumn& column : *view_columns_) {
    BoundFamily b;
    b.name = column.name;
    b.type = column.type;
    q_->families.push_back(std::move(b));
  }
  return Status::OK();
}

Status Binder::UnpackColumns(const Select& inner, std::set<std::string>* chosen) {
  for (const SelectItem& item : inner.items) {
    if (!item.expr && (!item.except.empty() || !item.replace.empty())) {
      return Status::InvalidArgument(
          "UNPACK's query selects _key and column families by name only: no EXCEPT or "
          "REPLACE");
    }
    if (!item.expr) {
      for (const auto& [name, f] : table_.families) chosen->insert(name);
      if (table_.row_key_schema) {
        for (const RowKeyField& field : table_.row_key_schema->fields) chosen->insert(field.name);
      }
      continue;
    }
    if (item.expr->kind != ExprKind::kColumn || !item.alias.empty()) {
      return Error(*item.expr, "UNPACK's query selects _key and column families by name only");
    }
    if (item.expr->name == "_key") continue;
    if (table_.FindFamily(item.expr->name) == nullptr && !IsKeyField(item.expr->name)) {
      return Error(*item.expr, fmt::format("Unrecognized name: {}", item.expr->name));
    }
    chosen->insert(item.expr->name);
  }
  return Status::OK();
}

Result<Value> Binder::OptionValue(const std::string& name, Expr* e, TypeKind kind) {
  LBT_RETURN_IF_ERROR(BindInput(e, "table option"));
  std::optional<Value> v = constants_.Constant(*e);
  if (!v || v->kind() != kind || v->is_null()) {
    Type wanted;
    wanted.kind = kind;
    return Error(*e, fmt::format("Option {} takes a constant {}", name, wanted.ToString()));
  }
  return *v;
}

Result<TableOptions> Binder::Options(FromClause& ref) {
  TableOptions t;
  std::set<std::string> seen;
  for (auto& [raw_name, e] : ref.options) {
    const std::string name = Upper(raw_name);
    if (!seen.insert(name).second) return Error(*e, fmt::format("Option {} is given twice", raw_name));
    if (name == "WITH_HISTORY") {
      LBT_ASSIGN_OR_RETURN(Value v, OptionValue(raw_name, e.get(), TypeKind::kBool));
      t.with_history = v.boolean();
    } else if (name == "LATEST_N") {
      LBT_ASSIGN_OR_RETURN(Value v, OptionValue(raw_name, e.get(), TypeKind::kInt64));
      if (v.int64() < 1) return Error(*e, "latest_n must be at least 1");
      t.latest_n = v.int64();
    } else if (name == "AFTER" || name == "AFTER_OR_EQUAL") {
      if (t.start) return Error(*e, "Give one of after and after_or_equal");
      LBT_ASSIGN_OR_RETURN(Value v, OptionValue(raw_name, e.get(), TypeKind::kTimestamp));
      // Cells are at whole milliseconds, and Bigtable's timestamp ranges
      // are too: round to the first millisecond the option admits.
      t.start = name == "AFTER" ? FloorMillis(v.int64()) + 1000 : CeilMillis(v.int64());
    } else if (name == "BEFORE" || name == "BEFORE_OR_EQUAL" || name == "AS_OF") {
      if (t.end) return Error(*e, "Give one of before, before_or_equal and as_of");
      LBT_ASSIGN_OR_RETURN(Value v, OptionValue(raw_name, e.get(), TypeKind::kTimestamp));
      t.end = name == "BEFORE" ? CeilMillis(v.int64()) : FloorMillis(v.int64()) + 1000;
      t.as_of = name == "AS_OF";
    } else {
      return Error(*e, fmt::format("Unknown table option {}; expected with_history, latest_n, after, before, "
                                   "after_or_equal, before_or_equal or as_of",
                                   raw_name));
    }
  }
  if (t.as_of && (t.with_history || t.start || t.latest_n)) {
    return Status::InvalidArgument("as_of reads the latest value at one time: it takes no other option");
  }
  if (t.latest_n && !t.with_history) {
    return Status::InvalidArgument("latest_n needs with_history => TRUE: without history each column has one value");
  }
  // Bigtable takes the time range options only with history; the latest
  // values at a time are as_of's.
  if ((t.start || t.end) && !t.with_history && !t.as_of) {
    for (const auto& [raw_name, e] : ref.options) {
      const std::string name = Upper(raw_name);
      if (name != "WITH_HISTORY") {
        return Error(*e,
                     fmt::format("{} needs with_history => TRUE (as_of reads the latest values at a time)", raw_name));
      }
    }
  }
  return t;
}

bool Binder::ContainsAggregate(const Expr& e) {
  // `SUM(x) OVER (...)` is a window call, not the query's aggregate; its
  // arguments may hold aggregates (`SUM(SUM(x)) OVER ()`).
  if (e.kind == ExprKind::kCall && e.window == nullptr && FindAggregate(e.name) != nullptr) return true;
  for (const ExprPtr& a : e.args) {
    if (ContainsAggregate(*a)) return true;
  }
  return false;
}

bool Binder::HasAggregate(const Select& s) {
  for (const SelectItem& item : s.items) {
    if (item.expr && ContainsAggregate(*item.expr)) return true;
  }
  if (s.having && ContainsAggregate(*s.having)) return true;
  for (const OrderItem& o : s.order_by) {
    if (ContainsAggregate(*o.expr)) return true;
  }
  return false;
}

std::string Binder::ColumnName(const SelectItem& item, size_t index) const {
  if (!item.alias.empty()) return item.alias;
  if (item.expr->kind == ExprKind::kColumn) return item.expr->name;
  if (item.expr->kind == ExprKind::kCall && item.expr->name == "$field") return item.expr->literal.str();
  return fmt::format("$col{}", index + 1);
}

std::vector<SelectItem> Binder::ExpandStar() {
  std::vector<SelectItem> out;
  auto column = [&](const std::string& name) {
    SelectItem item;
    item.expr = std::make_unique<Expr>();
    item.expr->kind = ExprKind::kColumn;
    item.expr->name = name;
    out.push_back(std::move(item));
  };
  // A view's columns are its own; with a row-key schema, `_key` is a
  // pseudocolumn, selected only by name.
  if (q_->view.empty() && !q_->row_key_schema) column("_key");
  if (q_->unpack) column("_timestamp");
  for (const BoundFamily& f : q_->families) column(f.name);
  return out;
}

Status Binder::ExpandStars(Select& s) {
  std::vector<SelectItem> items;
  for (SelectItem& item : s.items) {
    if (item.expr) {
      items.push_back(std::move(item));
      continue;
    }
    std::vector<SelectItem> columns = ExpandStar();
    LBT_RETURN_IF_ERROR(ApplyExceptReplace(item, &columns));
    for (SelectItem& column : columns) items.push_back(std::move(column));
  }
  s.items = std::move(items);
  return Status::OK();
}

Status Binder::ApplyExceptReplace(SelectItem& star, std::vector<SelectItem>* columns) const {
  auto find = [&](const std::string& name) {
    for (size_t i = 0; i < columns->size(); ++i) {
      if ((*columns)[i].expr->name == name) return static_cast<int>(i);
    }
    return -1;
  };
  const std::string except = star.clause.empty() ? "SELECT * EXCEPT list" : star.clause;
  const std::string replace = star.clause.empty() ? "SELECT * REPLACE list" : star.clause;
  const std::string at = Location(sql_, star.pos);
  std::set<std::string> seen;
  for (const std::string& name : star.except) {
    if (!seen.insert(name).second) {
      return Status::InvalidArgument(fmt::format("Duplicate column {} in {} {}", name, except, at));
    }
    const int i = find(name);
    if (i < 0) return Status::InvalidArgument(fmt::format("Column {} in {} does not exist {}", name, except, at));
    columns->erase(columns->begin() + i);
  }
  if (!star.except.empty() && columns->empty() && star.clause == "pipe DROP") {
    return Status::InvalidArgument("Pipe DROP dropped all columns in the input table " + at);
  }
  for (const auto& [from, to] : star.rename) {
    const int i = find(from);
    if (i < 0) return Status::InvalidArgument(fmt::format("Column {} in pipe RENAME does not exist {}", from, at));
    (*columns)[i].alias = to;
  }
  seen.clear();
  for (auto& [expr, name] : star.replace) {
    if (!seen.insert(name).second) return Error(*expr, fmt::format("Duplicate column {} in {}", name, replace));
    const int i = find(name);
    if (i < 0) return Error(*expr, fmt::format("Column {} in {} does not exist", name, replace));
    (*columns)[i].expr = std::move(expr);
    (*columns)[i].alias = name;
  }
  return Status::OK();
}

const SelectItem* Binder::SelectReference(const Expr& e, const Select& s) const {
  if (e.kind == ExprKind::kLiteral && !e.literal.is_null() && e.literal.kind() == TypeKind::kInt64) {
    int64_t n = e.literal.int64();
    if (n >= 1 && n <= static_cast<int64_t>(s.items.size())) return &s.items[static_cast<size_t>(n - 1)];
  }
  if (e.kind == ExprKind::kColumn) {
    for (const SelectItem& item : s.items) {
      if (!item.alias.empty() && item.alias == e.name) return &item;
    }
  }
  return nullptr;
}

Status Binder::BindPlain(Select& s) {
  LBT_RETURN_IF_ERROR(ExpandStars(s));
  std::vector<ExprPtr> parsed;  // before binding, for ORDER BY references
  for (const SelectItem& item : s.items) parsed.push_back(item.expr->Clone());
  for (size_t i = 0; i < s.items.size(); ++i) {
    LBT_RETURN_IF_ERROR(ExtractWindows(s.items[i].expr));
    LBT_RETURN_IF_ERROR(BindInput(s.items[i].expr.get(), "SELECT list"));
    q_->select.push_back(s.items[i].expr.get());
    q_->columns.push_back(ResultColumn{ColumnName(s.items[i], i), s.items[i].expr->type});
  }
  for (OrderItem& o : s.order_by) {
    if (const SelectItem* item = SelectReference(*o.expr, s)) {
      o.expr = item->expr->Clone();
    } else {
      LBT_RETURN_IF_ERROR(ExtractWindows(o.expr));
      LBT_RETURN_IF_ERROR(BindInput(o.expr.get(), "ORDER BY clause"));
    }
    LBT_RETURN_IF_ERROR(AddOrder(o));
  }
  if (s.having) return Error(*s.having, "HAVING needs GROUP BY or an aggregate");
  return Status::OK();
}

Status Binder::AddOrder(const OrderItem& o) {
  if (!o.expr->type->IsOrderable()) {
    return Error(*o.expr, fmt::format("ORDER BY does not support expressions of type {}", o.expr->type->ToString()));
  }
  q_->order_by.push_back(BoundOrder{o.expr.get(), o.descending, o.nulls_first.value_or(!o.descending)});
  return Status::OK();
}

Status Binder::BindGrouped(Select& s) {
  for (const SelectItem& item : s.items) {
    if (!item.expr) return Status::InvalidArgument("SELECT * cannot be used with GROUP BY or aggregates");
  }
  for (ExprPtr& g : s.group_by) {
    if (const SelectItem* item = SelectReference(*g, s)) g = item->expr->Clone();
    if (ContainsAggregate(*g)) return Error(*g, "GROUP BY cannot contain an aggregate");
    group_texts_.push_back(Unparse(*g));
    ExprPtr bound = g->Clone();
    LBT_RETURN_IF_ERROR(BindInput(bound.get(), "GROUP BY clause"));
    if (!bound->type->IsOrderable() && bound->type->kind != TypeKind::kArray) {
      return Error(*bound, fmt::format("Grouping by expressions of type {} is not allowed", bound->type->ToString()));
    }
    group_types_.push_back(bound->type);
    q_->group_by.push_back(bound.get());
    q_->owned.push_back(std::move(bound));
  }
  for (size_t i = 0; i < s.items.size(); ++i) {
    LBT_ASSIGN_OR_RETURN(ExprPtr e, Regroup(*s.items[i].expr, "SELECT list"));
    q_->columns.push_back(ResultColumn{ColumnName(s.items[i], i), e->type});
    q_->select.push_back(e.get());
    q_->owned.push_back(std::move(e));
  }
  if (s.having) {
    if (ContainsWindow(*s.having)) return Error(*s.having, "Analytic function not allowed in HAVING clause");
    LBT_ASSIGN_OR_RETURN(ExprPtr h, Regroup(*s.having, "HAVING clause"));
    if (h->type->kind != TypeKind::kBool) return Error(*s.having, "HAVING clause should return type BOOL");
    q_->having = h.get();
    q_->owned.push_back(std::move(h));
  }
  for (OrderItem& o : s.order_by) {
    const SelectItem* item = SelectReference(*o.expr, s);
    LBT_ASSIGN_OR_RETURN(ExprPtr e, Regroup(item ? *item->expr : *o.expr, "ORDER BY clause"));
    o.expr = std::move(e);
    LBT_RETURN_IF_ERROR(AddOrder(o));
  }
  return Status::OK();
}

Result<ExprPtr> Binder::Regroup(const Expr& parsed, const char* clause) {
  if (parsed.kind == ExprKind::kLambda) {
    return Error(parsed, "lbt runs lambdas in queries without GROUP BY or aggregates");
  }
  if (parsed.kind == ExprKind::kCall && parsed.window != nullptr) return BindWindowCall(parsed, /*grouped=*/true);
  const std::string text = Unparse(parsed);
  for (size_t k = 0; k < group_texts_.size(); ++k) {
    if (group_texts_[k] == text) return Slot(static_cast<int>(k), group_types_[k], parsed.pos);
  }
  if (parsed.kind == ExprKind::kCall && FindAggregate(parsed.name) != nullptr) return AddAggregate(parsed);
  if (parsed.kind == ExprKind::kColumn) {
    return Error(parsed, fmt::format("{} expression references column {} which is neither grouped nor aggregated",
                                     clause, parsed.name));
  }
  ExprPtr e = parsed.Clone();
  e->args.clear();
  if (e->kind == ExprKind::kCall) {
    ExprPtr shell = parsed.Clone();
    PrepareDateParts(shell.get());
    for (const ExprPtr& a : shell->args) {
      LBT_ASSIGN_OR_RETURN(ExprPtr arg, Regroup(*a, clause));
      e->args.push_back(std::move(arg));
    }
  } else {
    for (const ExprPtr& a : parsed.args) {
      LBT_ASSIGN_OR_RETURN(ExprPtr arg, Regroup(*a, clause));
      e->args.push_back(std::move(arg));
    }
  }
  LBT_RETURN_IF_ERROR(BindNode(e.get()));
  return e;
}

ExprPtr Binder::Slot(int slot, TypePtr type, size_t pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kSlot;
  e->slot = slot;
  e->type = std::move(type);
  e->pos = pos;
  return e;
}

Result<ExprPtr> Binder::AddAggregate(const Expr& parsed) {
  const std::string text = Unparse(parsed);
  for (size_t i = 0; i < aggregate_texts_.size(); ++i) {
    if (aggregate_texts_[i] == text) {
      return Slot(static_cast<int>(group_texts_.size() + i), q_->aggregates[i].type, parsed.pos);
    }
  }
  if (parsed.nulls != NullsMode::kDefault) {
    return Error(parsed, fmt::format("IGNORE NULLS and RESPECT NULLS are not supported by Bigtable in aggregate calls "
                                     "(its syntax is {}([DISTINCT] args))",
                                     parsed.name));
  }
  BoundAggregate agg;
  agg.function = FindAggregate(parsed.name);
  agg.distinct = parsed.distinct;
  for (const ExprPtr& a : parsed.args) {
    if (a->kind == ExprKind::kStar) {
      if (parsed.name != "COUNT") return Error(*a, "* is allowed only in COUNT(*)");
      continue;
    }
    ExprPtr bound = a->Clone();
    if (ContainsAggregate(*bound)) return Error(*bound, "Aggregate functions cannot be nested");
    LBT_RETURN_IF_ERROR(BindInput(bound.get(), "aggregate"));
    agg.arg_types.push_back(bound->type);
    agg.args.push_back(bound.get());
    q_->owned.push_back(std::move(bound));
  }
  if (parsed.name == "COUNT" && parsed.args.size() == 1 && parsed.args[0]->kind == ExprKind::kStar) {
    agg.type = Type::Int64();
  } else {
    Result<TypePtr> type = agg.function->check(agg.arg_types);
    if (!type.ok()) {
      std::string list;
      for (size_t i = 0; i < agg.arg_types.size(); ++i) list += (i ? ", " : "") + agg.arg_types[i]->ToString();
      return Error(parsed, fmt::format("No matching signature for aggregate function {} for argument types: {}",
                                       parsed.name, list.empty() ? "(none)" : list));
    }
    agg.type = *type;
  }
  if (agg.distinct) {
    for (size_t i = 0; i < agg.arg_types.size(); ++i) {
      const TypePtr& t = agg.arg_types[i];
      if (!t->IsOrderable() && t->kind != TypeKind::kArray) {
        return Error(*parsed.args[i], fmt::format("Aggregate functions with DISTINCT cannot be used with arguments "
                                                  "of type {}",
                                                  t->ToString()));
      }
    }
  }
  const int slot = static_cast<int>(group_texts_.size() + q_->aggregates.size());
  TypePtr type = agg.type;
  q_->aggregates.push_back(std::move(agg));
  aggregate_texts_.push_back(text);
  return Slot(slot, type, parsed.pos);
}

Status Binder::BindLimits(Select& s) {
  auto constant = [&](ExprPtr& e, const char* what, int64_t* out, std::string* param) -> Status {
    if (!e) return Status::OK();
    LBT_RETURN_IF_ERROR(BindInput(e.get(), what));
    if (e->kind == ExprKind::kParameter) {
      if (e->type->kind != TypeKind::kInt64) {
        return Error(*e,
                     fmt::format("{} expects an INT64 parameter, but @{} is {}", what, e->name, e->type->ToString()));
      }
      *param = e->name;
      return Status::OK();
    }
    std::optional<Value> v = constants_.Constant(*e);
    if (!v || v->kind() != TypeKind::kInt64 || v->is_null() || v->int64() < 0) {
      return Error(*e, fmt::format("{} takes a non-negative integer literal", what));
    }
    *out = v->int64();
    return Status::OK();
  };
  LBT_RETURN_IF_ERROR(constant(s.limit, "LIMIT", &q_->limit, &q_->limit_param));
  return constant(s.offset, "OFFSET", &q_->offset, &q_->offset_param);
}

}  // namespace internal

using internal::Binder;

Result<std::unique_ptr<BoundQuery>> Bind(std::unique_ptr<Select> select, const TableSpec& table,
                                         const ParamTypes& params, std::string_view sql, QueryKind kind) {
  auto q = std::make_unique<BoundQuery>();
  q->select_ast = std::move(select);
  Binder binder(table, params, sql, q.get(), kind);
  LBT_RETURN_IF_ERROR(binder.Run());
  return q;
}

Result<std::unique_ptr<BoundQuery>> BindOverView(std::unique_ptr<Select> select, std::string_view view,
                                                 const std::vector<ResultColumn>& columns, const ParamTypes& params,
                                                 std::string_view sql, QueryKind kind) {
  if (select->from.unpack) {
    return Status::InvalidArgument(fmt::format("UNPACK reads a table with history; {} is a logical view", view));
  }
  auto q = std::make_unique<BoundQuery>();
  q->select_ast = std::move(select);
  const TableSpec none;
  Binder binder(none, params, sql, q.get(), kind, &columns);
  LBT_RETURN_IF_ERROR(binder.Run());
  return q;
}

}  // namespace lbt::sql
