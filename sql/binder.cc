#include "sql/binder.h"

#include <fmt/format.h>

#include <set>

#include "sql/evaluator.h"
#include "sql/parser.h"

namespace lbt::sql {

namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// How an operator's name reads in messages.
std::string DisplayName(const std::string& name) {
  static const std::pair<const char*, const char*> kOps[] = {{"$add", "operator +"},
                                                             {"$sub", "operator -"},
                                                             {"$mul", "operator *"},
                                                             {"$div", "operator /"},
                                                             {"$neg", "operator -"},
                                                             {"$concat", "operator ||"},
                                                             {"$eq", "operator ="},
                                                             {"$ne", "operator !="},
                                                             {"$lt", "operator <"},
                                                             {"$le", "operator <="},
                                                             {"$gt", "operator >"},
                                                             {"$ge", "operator >="},
                                                             {"$between", "operator BETWEEN"},
                                                             {"$in", "operator IN"},
                                                             {"$like", "operator LIKE"},
                                                             {"$bitand", "operator &"},
                                                             {"$bitor", "operator |"},
                                                             {"$bitxor", "operator ^"},
                                                             {"$bitnot", "operator ~"},
                                                             {"$shl", "operator <<"},
                                                             {"$shr", "operator >>"}};
  for (const auto& [op, text] : kOps) {
    if (name == op) return text;
  }
  return "function " + name;
}

bool IsComparison(const std::string& name) {
  return name == "$eq" || name == "$ne" || name == "$lt" || name == "$le" || name == "$gt" || name == "$ge" ||
         name == "$between" || name == "$in";
}

// The type both may take: the same type, INT64 with a FLOAT, or anything
// with an untyped NULL.
std::optional<TypePtr> CommonType(const Expr& a, const Expr& b) {
  if (a.coercible_literal && a.literal.is_null()) return b.type;
  if (b.coercible_literal && b.literal.is_null()) return a.type;
  if (SameType(a.type, b.type)) return a.type;
  if (a.type->IsNumeric() && b.type->IsNumeric()) return Type::Float64();
  return std::nullopt;
}

// A refused CAST. Bigtable's cells are BYTES, which convert only to
// STRING: the message shows the way through it when that would work.
std::string InvalidCastMessage(const Expr& cast) {
  const TypePtr& from = cast.args[0]->type;
  const TypePtr& to = cast.cast_type;
  std::string message = fmt::format("Invalid cast from {} to {}", from->ToString(), to->ToString());
  if (from->kind == TypeKind::kBytes && CanCast(Type::String(), to)) {
    message += fmt::format("; BYTES casts only to STRING, so cast through it: CAST(CAST(... AS STRING) AS {})",
                           to->ToString());
  }
  return message;
}

class Binder {
 public:
  Binder(const TableSpec& table, const ParamTypes& params, std::string_view sql, BoundQuery* q,
         const std::vector<ResultColumn>* view_columns = nullptr)
      : table_(table), params_(params), sql_(sql), q_(q), constants_(Params()), view_columns_(view_columns) {}

  Status Run() {
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

 private:
  Status Error(const Expr& e, const std::string& what) const {
    return Status::InvalidArgument(what + " " + Location(sql_, e.pos));
  }

  // ---- FROM ----

  Status BindFrom(Select& s) {
    if (view_columns_ != nullptr) return BindView(s.from);
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
    // The family columns come in creation order, the order a row's cells
    // come in (production documents no order for them; see README).
    for (const FamilySpec* family : table_.FamiliesInCreationOrder()) {
      const std::string& name = family->name;
      const FamilySpec& f = *family;
      if (q_->unpack && !chosen.count(name)) continue;
      BoundFamily b;
      b.name = name;
      b.aggregate = IsAggregate(f.value_type);
      b.string = StoredValueType(f.value_type) == ValueType::kString;
      b.with_history = time.with_history && !q_->unpack;
      TypePtr value = b.aggregate ? Type::Int64() : (b.string ? Type::String() : Type::Bytes());
      if (b.with_history) {
        value = Type::Array(Type::Struct({{"timestamp", Type::Timestamp()}, {"value", value}}));
      }
      b.type = Type::Map(Type::Bytes(), value);
      q_->families.push_back(std::move(b));
    }
    q_->options = time;
    return Status::OK();
  }

  // A logical view's result columns, each a column of the input.
  Status BindView(const FromClause& ref) {
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

  Status UnpackColumns(const Select& inner, std::set<std::string>* chosen) {
    for (const SelectItem& item : inner.items) {
      if (!item.expr) {
        for (const auto& [name, f] : table_.families) chosen->insert(name);
        continue;
      }
      if (item.expr->kind != ExprKind::kColumn || !item.alias.empty()) {
        return Error(*item.expr, "UNPACK's query selects _key and column families by name only");
      }
      if (item.expr->name == "_key") continue;
      if (table_.FindFamily(item.expr->name) == nullptr) {
        return Error(*item.expr, fmt::format("Unrecognized name: {}", item.expr->name));
      }
      chosen->insert(item.expr->name);
    }
    return Status::OK();
  }

  static int64_t FloorMillis(int64_t micros) { return micros - ((micros % 1000) + 1000) % 1000; }
  static int64_t CeilMillis(int64_t micros) { return FloorMillis(micros) + (micros % 1000 != 0 ? 1000 : 0); }

  Result<Value> OptionValue(const std::string& name, Expr* e, TypeKind kind) {
    LBT_RETURN_IF_ERROR(BindInput(e, "table option"));
    std::optional<Value> v = constants_.Constant(*e);
    if (!v || v->kind() != kind || v->is_null()) {
      Type wanted;
      wanted.kind = kind;
      return Error(*e, fmt::format("Option {} takes a constant {}", name, wanted.ToString()));
    }
    return *v;
  }

  Result<TableOptions> Options(FromClause& ref) {
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
          return Error(
              *e, fmt::format("{} needs with_history => TRUE (as_of reads the latest values at a time)", raw_name));
        }
      }
    }
    return t;
  }

  // ---- names ----

  // The slot of an input column, or -1.
  int InputSlot(const std::string& name, TypePtr* type) {
    if (q_->view.empty() && (name == "_key" || Upper(name) == "_KEY")) {
      *type = Type::Bytes();
      return 0;
    }
    for (size_t i = 0; i < q_->families.size(); ++i) {
      if (q_->families[i].name == name) {
        *type = q_->families[i].type;
        return static_cast<int>(i) + 1;
      }
    }
    if (q_->unpack && (name == "_timestamp" || Upper(name) == "_TIMESTAMP")) {
      *type = Type::Timestamp();
      return static_cast<int>(q_->families.size()) + 1;
    }
    return -1;
  }

  // ---- expressions over the input row ----

  Status BindInput(Expr* e, const char* clause) {
    switch (e->kind) {
      case ExprKind::kColumn: {
        e->slot = InputSlot(e->name, &e->type);
        if (e->slot < 0) return Error(*e, fmt::format("Unrecognized name: {}", e->name));
        return Status::OK();
      }
      case ExprKind::kCall:
        if (FindAggregate(e->name) != nullptr) {
          return Error(*e, fmt::format("Aggregate function {} not allowed in {}", e->name, clause));
        }
        // `t.family` names a column of the table.
        if (e->name == "$field" && e->args[0]->kind == ExprKind::kColumn && e->args[0]->name == table_alias_) {
          Expr column;
          column.kind = ExprKind::kColumn;
          column.name = e->literal.str();
          column.pos = e->pos;
          *e = std::move(column);
          return BindInput(e, clause);
        }
        PrepareDateParts(e);
        break;
      default: break;
    }
    for (ExprPtr& a : e->args) LBT_RETURN_IF_ERROR(BindInput(a.get(), clause));
    return BindNode(e);
  }

  // TIMESTAMP_TRUNC(t, HOUR) and kin name a date part where an expression
  // would go; TIMESTAMP_ADD(t, INTERVAL n HOUR) takes it after an INTERVAL.
  static void PrepareDateParts(Expr* e) {
    auto part_at = [&](size_t i) {
      if (i < e->args.size() && e->args[i]->kind == ExprKind::kColumn) {
        Expr& a = *e->args[i];
        a.kind = ExprKind::kLiteral;
        a.literal = Value::String(Upper(a.name));
      }
    };
    if (e->name == "TIMESTAMP_TRUNC") part_at(1);
    if (e->name == "TIMESTAMP_DIFF") part_at(2);
    if ((e->name == "TIMESTAMP_ADD" || e->name == "TIMESTAMP_SUB") && e->args.size() == 2 &&
        e->args[1]->kind == ExprKind::kInterval) {
      ExprPtr interval = std::move(e->args[1]);
      auto part = std::make_unique<Expr>();
      part->pos = interval->pos;
      part->literal = Value::String(interval->name);
      e->args[1] = std::move(interval->args[0]);
      e->args.push_back(std::move(part));
    }
  }

  // Types one node whose children are typed.
  Status BindNode(Expr* e) {
    switch (e->kind) {
      case ExprKind::kLiteral: e->type = e->literal.type(); return Status::OK();
      case ExprKind::kParameter: {
        auto it = params_.find(e->name);
        if (it == params_.end()) return Error(*e, fmt::format("Query parameter '{}' not found", e->name));
        used_params_.insert(e->name);
        e->type = it->second;
        return Status::OK();
      }
      case ExprKind::kCast:
        if (!CanCast(e->args[0]->type, e->cast_type)) return Error(*e, InvalidCastMessage(*e));
        e->type = e->cast_type;
        return Status::OK();
      case ExprKind::kCase: return BindCase(e);
      case ExprKind::kInterval: return Error(*e, "INTERVAL is allowed only in TIMESTAMP_ADD and TIMESTAMP_SUB");
      case ExprKind::kStar: return Error(*e, "* is allowed only in COUNT(*)");
      case ExprKind::kColumn:
      case ExprKind::kSlot: return Status::OK();
      case ExprKind::kCall: break;
    }
    if (e->name == "$and" || e->name == "$or" || e->name == "$not") return BindLogic(e);
    if (e->name.rfind("$is", 0) == 0) {
      if (e->name.find("null") == std::string::npos && e->args[0]->type->kind != TypeKind::kBool) {
        return Error(*e, "IS TRUE and IS FALSE need a BOOL");
      }
      e->type = Type::Bool();
      return Status::OK();
    }
    if (e->name == "$subscript" || e->name == "$field") return BindSubscript(e);
    if (e->name == "$array" || e->name == "IF" || e->name == "IFNULL" || e->name == "COALESCE" || e->name == "NULLIF") {
      return BindConditional(e);
    }
    return BindFunction(e);
  }

  Status BindLogic(Expr* e) {
    for (ExprPtr& a : e->args) {
      Coerce(a.get(), Type::Bool());
      if (a->type->kind != TypeKind::kBool) {
        return Error(*a, fmt::format("{} needs BOOL operands, not {}",
                                     e->name == "$not" ? "NOT" : Upper(e->name.substr(1)), a->type->ToString()));
      }
    }
    e->type = Type::Bool();
    return Status::OK();
  }

  // An untyped NULL or a string literal takes `to` where it can.
  static void Coerce(Expr* e, const TypePtr& to, bool temporal = false) {
    if (!e->coercible_literal || e->kind != ExprKind::kLiteral) return;
    if (e->literal.is_null()) {
      e->literal = Value::Null(to);
    } else if (to->kind == TypeKind::kBytes) {
      e->literal = Value::Bytes(e->literal.str());
    } else if (temporal && (to->kind == TypeKind::kTimestamp || to->kind == TypeKind::kDate)) {
      Result<Value> v = CastValue(e->literal, to, true);
      if (!v.ok() || v->is_null()) return;
      e->literal = *v;
    } else {
      return;
    }
    e->type = e->literal.type();
    e->coercible_literal = false;
  }

  Status BindFunction(Expr* e) {
    const Function* fn = FindFunction(e->name);
    if (fn == nullptr) return Error(*e, fmt::format("Function not found: {}", e->name));
    TypePtr anchor;
    for (const ExprPtr& a : e->args) {
      if (!a->coercible_literal) {
        anchor = a->type;
        break;
      }
    }
    if (anchor) {
      for (ExprPtr& a : e->args) Coerce(a.get(), anchor, IsComparison(e->name));
    }
    std::vector<TypePtr> types;
    for (const ExprPtr& a : e->args) types.push_back(a->type);
    Result<TypePtr> type = fn->check(types);
    if (!type.ok()) {
      std::string list;
      for (size_t i = 0; i < types.size(); ++i) list += (i ? ", " : "") + types[i]->ToString();
      if (type.status().message().rfind("No matching signature", 0) == 0) {
        return Error(*e, fmt::format("No matching signature for {} for argument types: {}", DisplayName(e->name),
                                     list.empty() ? "(none)" : list));
      }
      return Error(*e, type.status().message());
    }
    e->function = fn;
    e->type = *type;
    return Status::OK();
  }

  Status BindSubscript(Expr* e) {
    Expr& base = *e->args[0];
    if (e->name == "$field") {
      if (base.type->kind != TypeKind::kStruct) {
        return Error(
            *e, fmt::format("Cannot access field {} on a value of type {}", e->literal.str(), base.type->ToString()));
      }
      for (const auto& [name, type] : base.type->fields) {
        if (name == e->literal.str()) {
          e->type = type;
          return Status::OK();
        }
      }
      return Error(*e, fmt::format("Field name {} does not exist in {}", e->literal.str(), base.type->ToString()));
    }
    Expr& index = *e->args[1];
    if (base.type->kind == TypeKind::kMap) {
      Coerce(&index, base.type->key);
      if (!SameType(index.type, base.type->key)) {
        return Error(*e, fmt::format("A {} is indexed by {}, not {}", base.type->ToString(), base.type->key->ToString(),
                                     index.type->ToString()));
      }
      e->type = base.type->value;
      return Status::OK();
    }
    if (base.type->kind == TypeKind::kArray) {
      if (e->literal.str() == "key")
        return Error(*e, "Index an array with [OFFSET(n)], [SAFE_OFFSET(n)], [ORDINAL(n)] or [SAFE_ORDINAL(n)]");
      if (index.type->kind != TypeKind::kInt64) return Error(index, "An array index must be INT64");
      e->type = base.type->element;
      return Status::OK();
    }
    return Error(*e, fmt::format("Cannot index a value of type {}", base.type->ToString()));
  }

  Status BindConditional(Expr* e) {
    const bool is_if = e->name == "IF";
    if (is_if && !e->args.empty()) Coerce(e->args[0].get(), Type::Bool());
    if (is_if && (e->args.size() != 3 || e->args[0]->type->kind != TypeKind::kBool)) {
      return Error(*e, "IF takes (BOOL condition, value if true, value if false)");
    }
    if (e->name == "NULLIF" && e->args.size() != 2) return Error(*e, "NULLIF takes two arguments");
    if ((e->name == "IFNULL") && e->args.size() != 2) return Error(*e, "IFNULL takes two arguments");
    if (e->args.empty() && e->name != "$array") return Error(*e, e->name + " needs arguments");
    if (e->args.empty()) return Error(*e, "An empty array literal needs a type: use CAST([] AS ARRAY<T>)");
    const size_t first = is_if ? 1 : 0;
    const Expr* typed = e->args[first].get();
    TypePtr type = typed->type;
    for (size_t i = first + 1; i < e->args.size(); ++i) {
      std::optional<TypePtr> common = CommonType(*typed, *e->args[i]);
      if (!common) {
        return Error(*e->args[i],
                     fmt::format("{} has no common type for {} and {}", e->name == "$array" ? "Array" : e->name,
                                 type->ToString(), e->args[i]->type->ToString()));
      }
      type = *common;
      if (!(e->args[i]->coercible_literal && e->args[i]->literal.is_null())) typed = e->args[i].get();
    }
    for (size_t i = first; i < e->args.size(); ++i) Coerce(e->args[i].get(), type);
    e->type = e->name == "$array" ? Type::Array(type) : type;
    return Status::OK();
  }

  Status BindCase(Expr* e) {
    size_t i = e->has_operand ? 1 : 0;
    const size_t pairs_end = e->args.size() - (e->has_else ? 1 : 0);
    TypePtr result;
    for (; i + 1 < pairs_end; i += 2) {
      Expr& when = *e->args[i];
      if (e->has_operand) {
        Coerce(&when, e->args[0]->type);
        if (!SameType(when.type, e->args[0]->type) && !(when.type->IsNumeric() && e->args[0]->type->IsNumeric())) {
          return Error(when, "CASE's WHEN values must have the type of its operand");
        }
      } else if (when.type->kind != TypeKind::kBool) {
        return Error(when, "CASE WHEN needs a BOOL condition");
      }
      LBT_RETURN_IF_ERROR(Unify(*e->args[i + 1], &result));
    }
    if (e->has_else) {
      LBT_RETURN_IF_ERROR(Unify(*e->args.back(), &result));
    }
    e->type = result ? result : Type::Int64();
    return Status::OK();
  }

  Status Unify(Expr& branch, TypePtr* result) {
    if (branch.coercible_literal && branch.literal.is_null()) return Status::OK();
    if (!*result || SameType(*result, branch.type)) {
      *result = branch.type;
    } else if ((*result)->IsNumeric() && branch.type->IsNumeric()) {
      *result = Type::Float64();
    } else {
      return Error(branch, fmt::format("CASE results have no common type: {} and {}", (*result)->ToString(),
                                       branch.type->ToString()));
    }
    return Status::OK();
  }

  // ---- the select list ----

  static bool ContainsAggregate(const Expr& e) {
    if (e.kind == ExprKind::kCall && FindAggregate(e.name) != nullptr) return true;
    for (const ExprPtr& a : e.args) {
      if (ContainsAggregate(*a)) return true;
    }
    return false;
  }

  static bool HasAggregate(const Select& s) {
    for (const SelectItem& item : s.items) {
      if (item.expr && ContainsAggregate(*item.expr)) return true;
    }
    if (s.having && ContainsAggregate(*s.having)) return true;
    for (const OrderItem& o : s.order_by) {
      if (ContainsAggregate(*o.expr)) return true;
    }
    return false;
  }

  std::string ColumnName(const SelectItem& item, size_t index) const {
    if (!item.alias.empty()) return item.alias;
    if (item.expr->kind == ExprKind::kColumn) return item.expr->name;
    if (item.expr->kind == ExprKind::kCall && item.expr->name == "$field") return item.expr->literal.str();
    return fmt::format("$col{}", index + 1);
  }

  // `*`: `_key`, then every family (then `_timestamp` for UNPACK).
  std::vector<SelectItem> ExpandStar() {
    std::vector<SelectItem> out;
    auto column = [&](const std::string& name) {
      SelectItem item;
      item.expr = std::make_unique<Expr>();
      item.expr->kind = ExprKind::kColumn;
      item.expr->name = name;
      out.push_back(std::move(item));
    };
    if (q_->view.empty()) column("_key");  // a view's columns are its own
    if (q_->unpack) column("_timestamp");
    for (const BoundFamily& f : q_->families) column(f.name);
    return out;
  }

  void ExpandStars(Select& s) {
    std::vector<SelectItem> items;
    for (SelectItem& item : s.items) {
      if (item.expr) {
        items.push_back(std::move(item));
      } else {
        for (SelectItem& column : ExpandStar()) items.push_back(std::move(column));
      }
    }
    s.items = std::move(items);
  }

  // An ORDER BY or GROUP BY item that names a select-list position or alias.
  const SelectItem* SelectReference(const Expr& e, const Select& s) const {
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

  Status BindPlain(Select& s) {
    ExpandStars(s);
    std::vector<ExprPtr> parsed;  // before binding, for ORDER BY references
    for (const SelectItem& item : s.items) parsed.push_back(item.expr->Clone());
    for (size_t i = 0; i < s.items.size(); ++i) {
      LBT_RETURN_IF_ERROR(BindInput(s.items[i].expr.get(), "SELECT list"));
      q_->select.push_back(s.items[i].expr.get());
      q_->columns.push_back(ResultColumn{ColumnName(s.items[i], i), s.items[i].expr->type});
    }
    for (OrderItem& o : s.order_by) {
      if (const SelectItem* item = SelectReference(*o.expr, s)) {
        o.expr = item->expr->Clone();
      } else {
        LBT_RETURN_IF_ERROR(BindInput(o.expr.get(), "ORDER BY clause"));
      }
      LBT_RETURN_IF_ERROR(AddOrder(o));
    }
    if (s.having) return Error(*s.having, "HAVING needs GROUP BY or an aggregate");
    return Status::OK();
  }

  Status AddOrder(const OrderItem& o) {
    if (!o.expr->type->IsOrderable()) {
      return Error(*o.expr, fmt::format("ORDER BY does not support expressions of type {}", o.expr->type->ToString()));
    }
    q_->order_by.push_back(BoundOrder{o.expr.get(), o.descending, o.nulls_first.value_or(!o.descending)});
    return Status::OK();
  }

  // ---- GROUP BY and aggregates ----

  Status BindGrouped(Select& s) {
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

  // `parsed` re-expressed over the grouped row: group keys and aggregates
  // become slots; anything else must be built from them.
  Result<ExprPtr> Regroup(const Expr& parsed, const char* clause) {
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

  static ExprPtr Slot(int slot, TypePtr type, size_t pos) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kSlot;
    e->slot = slot;
    e->type = std::move(type);
    e->pos = pos;
    return e;
  }

  // The grouped row's slot of the aggregate `parsed`, added if new: one
  // the query names twice (`COUNT(*) AS n ... ORDER BY COUNT(*)`) is
  // computed once.
  Result<ExprPtr> AddAggregate(const Expr& parsed) {
    const std::string text = Unparse(parsed);
    for (size_t i = 0; i < aggregate_texts_.size(); ++i) {
      if (aggregate_texts_[i] == text) {
        return Slot(static_cast<int>(group_texts_.size() + i), q_->aggregates[i].type, parsed.pos);
      }
    }
    BoundAggregate agg;
    agg.function = FindAggregate(parsed.name);
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
    const int slot = static_cast<int>(group_texts_.size() + q_->aggregates.size());
    TypePtr type = agg.type;
    q_->aggregates.push_back(std::move(agg));
    aggregate_texts_.push_back(text);
    return Slot(slot, type, parsed.pos);
  }

  // ---- LIMIT and OFFSET ----

  Status BindLimits(Select& s) {
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

  const TableSpec& table_;
  const ParamTypes& params_;
  std::string_view sql_;
  BoundQuery* q_;
  Evaluator constants_;
  const std::vector<ResultColumn>* view_columns_;  // FROM a logical view: its columns
  std::string table_alias_;
  std::set<std::string> used_params_;
  std::vector<std::string> group_texts_;
  std::vector<TypePtr> group_types_;
  std::vector<std::string> aggregate_texts_;  // Unparse of each of q_->aggregates
};

}  // namespace

Result<std::unique_ptr<BoundQuery>> Bind(std::unique_ptr<Select> select, const TableSpec& table,
                                         const ParamTypes& params, std::string_view sql) {
  auto q = std::make_unique<BoundQuery>();
  q->select_ast = std::move(select);
  Binder binder(table, params, sql, q.get());
  LBT_RETURN_IF_ERROR(binder.Run());
  return q;
}

Result<std::unique_ptr<BoundQuery>> BindOverView(std::unique_ptr<Select> select, std::string_view view,
                                                 const std::vector<ResultColumn>& columns, const ParamTypes& params,
                                                 std::string_view sql) {
  if (select->from.unpack) {
    return Status::InvalidArgument(fmt::format("UNPACK reads a table with history; {} is a logical view", view));
  }
  auto q = std::make_unique<BoundQuery>();
  q->select_ast = std::move(select);
  const TableSpec none;
  Binder binder(none, params, sql, q.get(), &columns);
  LBT_RETURN_IF_ERROR(binder.Run());
  return q;
}

}  // namespace lbt::sql
