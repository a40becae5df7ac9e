// Binding names and expressions over the input row: each name to its
// slot, each node to its type (literals, parameters, casts, functions,
// logic, subscripts, conditionals and CASE), with literals coerced where
// production coerces them.

#include <fmt/format.h>

#include <optional>

#include "sql/binder_internal.h"
#include "sql/functions.h"

namespace lbt::sql::internal {

namespace {

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
                                                             {"$in_array", "operator IN UNNEST"},
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
         name == "$between" || name == "$in" || name == "$in_array";
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

}  // namespace

int Binder::InputSlot(const std::string& name, TypePtr* type) {
  if (q_->view.empty() && !q_->table.empty() && (name == "_key" || Upper(name) == "_KEY")) {
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

Status Binder::BindInput(Expr* e, const char* clause) {
  switch (e->kind) {
    case ExprKind::kColumn: {
      // A lambda's parameter hides a column of its name, the innermost first.
      for (size_t i = lambda_params_.size(); i-- > 0;) {
        if (lambda_params_[i].first == e->name) {
          e->kind = ExprKind::kLambdaParam;
          e->slot = static_cast<int>(i);
          e->type = lambda_params_[i].second;
          return Status::OK();
        }
      }
      e->slot = InputSlot(e->name, &e->type);
      if (e->slot < 0) return Error(*e, fmt::format("Unrecognized name: {}", e->name));
      if (!q_->view.empty()) {
        size_t same = 0;
        for (const BoundFamily& f : q_->families) same += f.name == e->name;
        if (same > 1) return Error(*e, fmt::format("Column name {} is ambiguous", e->name));
      }
      return Status::OK();
    }
    case ExprKind::kLambda:
      return Error(*e,
                   "A lambda (x -> ...) is allowed only as an argument of ARRAY_FILTER, ARRAY_TRANSFORM or "
                   "ARRAY_INCLUDES");
    case ExprKind::kCall:
      for (const ExprPtr& a : e->args) {
        if (a->kind == ExprKind::kLambda) return BindLambdaCall(e, clause);
      }
      if (e->window != nullptr)
        return Error(*e, fmt::format("Analytic function {} not allowed in {}", e->name, clause));
      if (Upper(e->name) == "VIEW_PARAMETERS") return BindViewParameter(e);
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
  // CAST([] AS ARRAY<T>): the empty array literal takes the cast's type.
  if (e->kind == ExprKind::kCast && e->cast_type != nullptr && e->cast_type->kind == TypeKind::kArray &&
      e->args[0]->kind == ExprKind::kCall && e->args[0]->name == "$array" && e->args[0]->args.empty()) {
    e->args[0]->type = e->cast_type;
    return BindNode(e);
  }
  for (ExprPtr& a : e->args) LBT_RETURN_IF_ERROR(BindInput(a.get(), clause));
  return BindNode(e);
}

// ARRAY_FILTER(array, e -> cond), ARRAY_TRANSFORM(array, (e, i) -> value)
// and ARRAY_INCLUDES(array, e -> cond): the array first, then the body with
// the parameters bound to the element (and its 0-based offset).
Status Binder::BindLambdaCall(Expr* e, const char* clause) {
  const bool filter = e->name == "ARRAY_FILTER", transform = e->name == "ARRAY_TRANSFORM";
  if (!filter && !transform && e->name != "ARRAY_INCLUDES") {
    return Error(
        *e, fmt::format("Function {} takes no lambda; ARRAY_FILTER, ARRAY_TRANSFORM and ARRAY_INCLUDES do", e->name));
  }
  if (e->args.size() != 2 || e->args[1]->kind != ExprKind::kLambda) {
    return Error(*e, fmt::format("{} takes (array, lambda)", e->name));
  }
  LBT_RETURN_IF_ERROR(BindInput(e->args[0].get(), clause));
  const TypePtr& array = e->args[0]->type;
  if (array->kind != TypeKind::kArray) {
    return Error(*e->args[0], fmt::format("{}'s first argument must be an ARRAY, not {}", e->name, array->ToString()));
  }
  Expr& lambda = *e->args[1];
  const std::vector<std::string>& params = lambda.lambda_params;
  if (params.size() > (e->name == "ARRAY_INCLUDES" ? 1u : 2u)) {
    return Error(lambda, fmt::format("{}'s lambda takes {}", e->name,
                                     e->name == "ARRAY_INCLUDES" ? "one parameter (the element)"
                                                                 : "the element, and its offset"));
  }
  lambda.slot = static_cast<int>(lambda_params_.size());
  lambda_params_.emplace_back(params[0], array->element);
  if (params.size() == 2) lambda_params_.emplace_back(params[1], Type::Int64());
  Status bound = BindInput(lambda.args[0].get(), clause);
  lambda_params_.resize(static_cast<size_t>(lambda.slot));
  LBT_RETURN_IF_ERROR(bound);
  const TypePtr& body = lambda.args[0]->type;
  Coerce(lambda.args[0].get(), Type::Bool());
  if (!transform && lambda.args[0]->type->kind != TypeKind::kBool) {
    return Error(lambda, fmt::format("{}'s lambda must return BOOL, not {}", e->name, body->ToString()));
  }
  lambda.type = lambda.args[0]->type;
  if (transform && lambda.type->kind == TypeKind::kArray) {
    return Error(lambda, "ARRAY_TRANSFORM's lambda cannot return an ARRAY: arrays of arrays are not supported");
  }
  e->type = filter ? array : transform ? Type::Array(lambda.type) : Type::Bool();
  return Status::OK();
}

void Binder::PrepareDateParts(Expr* e) {
  auto part_at = [&](size_t i) {
    if (i >= e->args.size()) return;
    Expr& a = *e->args[i];
    if (a.kind == ExprKind::kColumn) {
      a.kind = ExprKind::kLiteral;
      a.literal = Value::String(Upper(a.name));
    } else if (a.kind == ExprKind::kCall && Upper(a.name) == "WEEK" && a.args.size() == 1 &&
               a.args[0]->kind == ExprKind::kColumn) {
      // WEEK(MONDAY): weeks that start on that day.
      const std::string part = "WEEK(" + Upper(a.args[0]->name) + ")";
      a.kind = ExprKind::kLiteral;
      a.args.clear();
      a.literal = Value::String(part);
    }
  };
  if (e->name == "TIMESTAMP_TRUNC" || e->name == "DATE_TRUNC" || e->name == "LAST_DAY" || e->name == "NORMALIZE" ||
      e->name == "NORMALIZE_AND_CASEFOLD") {
    part_at(1);
  }
  if (e->name == "TIMESTAMP_DIFF" || e->name == "DATE_DIFF") part_at(2);
  // An INTERVAL n part argument at `i` (the last): n there, then its part.
  auto interval_at = [&](size_t i) {
    if (e->args.size() != i + 1 || e->args[i]->kind != ExprKind::kInterval) return;
    ExprPtr interval = std::move(e->args[i]);
    auto part = std::make_unique<Expr>();
    part->pos = interval->pos;
    part->literal = Value::String(interval->name);
    e->args[i] = std::move(interval->args[0]);
    e->args.push_back(std::move(part));
  };
  if (e->name == "GENERATE_DATE_ARRAY" || e->name == "GENERATE_TIMESTAMP_ARRAY") interval_at(2);
  if (e->name == "TIMESTAMP_ADD" || e->name == "TIMESTAMP_SUB" || e->name == "DATE_ADD" || e->name == "DATE_SUB") {
    interval_at(1);
  }
}

// CAST(bytes AS bundle.pkg.Message): the message type of one of the
// table's schema bundles, decoded to a STRUCT (sql/proto_values.h).
Status Binder::BindProtoCast(Expr* e) {
  const size_t dot = e->name.find('.');
  const std::string bundle_id = e->name.substr(0, dot);
  const std::string message = e->name.substr(dot + 1);
  std::shared_ptr<const protoschema::ProtoTypes> types = BundleTypes(bundle_id);
  if (types == nullptr) {
    return Error(*e, fmt::format("Type not found: {}: table {} has no schema bundle {}", e->name,
                                 table_.name.empty() ? q_->view : q_->table, bundle_id));
  }
  auto cast = std::make_shared<ProtoCast>();
  cast->types = types;
  cast->message = types->FindMessage(message);
  if (cast->message == nullptr) {
    return Error(
        *e, fmt::format("Type not found: {}: schema bundle {} has no message type {}", e->name, bundle_id, message));
  }
  if (e->args[0]->type->kind != TypeKind::kBytes) {
    return Error(*e, fmt::format("CAST to {} takes BYTES, not {}", e->name, e->args[0]->type->ToString()));
  }
  cast->type = ProtoStructType(cast->message);
  e->type = cast->type;
  e->proto = std::move(cast);
  return Status::OK();
}

// Production binds a view parameter on the server, apart from the query's
// text (parameterized-views-overview): here, a parameter no @name can
// reach, given by the request's view_parameters.
Status Binder::BindViewParameter(Expr* e) {
  if (e->args.size() != 1 || e->args[0]->kind != ExprKind::kLiteral || e->args[0]->literal.is_null() ||
      e->args[0]->literal.kind() != TypeKind::kString || e->args[0]->literal.str().empty()) {
    return Error(*e, "VIEW_PARAMETERS takes a parameter's name as a string literal, e.g. VIEW_PARAMETERS('user_id')");
  }
  if (kind_ != QueryKind::kLogicalView) {
    return Error(*e,
                 "VIEW_PARAMETERS is allowed only in a logical view's query; a request gives its values in "
                 "view_parameters");
  }
  e->kind = ExprKind::kParameter;
  e->name = ViewParameterKey(e->args[0]->literal.str());
  e->args.clear();
  e->type = Type::String();
  q_->parameters[e->name] = e->type;
  return Status::OK();
}

Status Binder::BindNode(Expr* e) {
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
      if (!e->name.empty()) return BindProtoCast(e);
      // CAST(NULL AS T): a NULL of T.
      if (e->args[0]->coercible_literal && e->args[0]->literal.is_null()) Coerce(e->args[0].get(), e->cast_type);
      if (!CanCast(e->args[0]->type, e->cast_type)) return Error(*e, InvalidCastMessage(*e));
      e->type = e->cast_type;
      return Status::OK();
    case ExprKind::kCase: return BindCase(e);
    case ExprKind::kInterval: return Error(*e, "INTERVAL is allowed only in TIMESTAMP_ADD and TIMESTAMP_SUB");
    case ExprKind::kStar: return Error(*e, "* is allowed only in COUNT(*)");
    case ExprKind::kColumn:
    case ExprKind::kSlot:
    case ExprKind::kWindowResult:
    case ExprKind::kLambdaParam: return Status::OK();
    case ExprKind::kLambda:
      return Error(*e, "A lambda is allowed only in ARRAY_FILTER, ARRAY_TRANSFORM and ARRAY_INCLUDES");
    case ExprKind::kCall: break;
  }
  if (!e->arg_names.empty() && FindFunction(e->name) == nullptr) {
    return Error(*e, fmt::format("{} takes no named arguments", DisplayName(e->name)));
  }
  if (e->safe && FindFunction(e->name) == nullptr) {
    const bool form = e->name == "IF" || e->name == "IFNULL" || e->name == "COALESCE" || e->name == "NULLIF" ||
                      e->name == "IFERROR" || e->name == "ISERROR" || e->name == "NULLIFERROR";
    if (!form && FindAggregate(e->name) == nullptr) return Error(*e, fmt::format("Function not found: {}", e->name));
    return Error(*e, fmt::format("Function {} does not support the SAFE. prefix", e->name));
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
  if (e->name == "$struct") {
    std::vector<std::pair<std::string, TypePtr>> fields;
    for (size_t i = 0; i < e->args.size(); ++i) fields.emplace_back(e->field_names[i], e->args[i]->type);
    e->type = Type::Struct(std::move(fields));
    return Status::OK();
  }
  if (e->name == "$array" || e->name == "IF" || e->name == "IFNULL" || e->name == "COALESCE" || e->name == "NULLIF" ||
      e->name == "IFERROR" || e->name == "NULLIFERROR") {
    return BindConditional(e);
  }
  if (e->name == "ISERROR") {
    if (e->args.size() != 1) return Error(*e, "ISERROR takes one argument");
    e->type = Type::Bool();
    return Status::OK();
  }
  return BindFunction(e);
}

Status Binder::BindLogic(Expr* e) {
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

void Binder::Coerce(Expr* e, const TypePtr& to, bool temporal) {
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

// Where the signature does not match as the arguments are typed: a string
// literal may be a DATE or TIMESTAMP literal (GENERATE_DATE_ARRAY('2016-10-05',
// ...)), and an untyped NULL may be of any type. Retypes them the first way
// that matches, and returns the check's result.
Result<TypePtr> Binder::RetypeLiterals(Expr* e, const Function* fn, std::vector<TypePtr>* types) {
  Result<TypePtr> type = fn->check(*types);
  // Each way: the type it gives the literals it applies to, and whether it
  // reads a string literal as that type (else it types untyped NULLs).
  auto temporal = [](const Expr& a, const TypePtr& to) {
    return a.literal.kind() == TypeKind::kString && CastValue(a.literal, to, true).ok() &&
           !CastValue(a.literal, to, true)->is_null();
  };
  const std::pair<TypePtr, bool> ways[] = {{Type::Date(), true},
                                           {Type::Timestamp(), true},
                                           {Type::String(), false},
                                           {Type::Bytes(), false},
                                           {Type::Float64(), false},
                                           {Type::Bool(), false},
                                           {Type::Date(), false},
                                           {Type::Timestamp(), false},
                                           {Type::Array(Type::Int64()), false},
                                           {Type::Array(Type::Float64()), false},
                                           {Type::Geography(), false},
                                           {Type::Array(Type::Geography()), false}};
  for (const auto& [to, from_string] : ways) {
    if (type.ok()) break;
    std::vector<TypePtr> tried = *types;
    bool changed = false;
    for (size_t i = 0; i < e->args.size(); ++i) {
      const Expr& a = *e->args[i];
      if (!a.coercible_literal || a.kind != ExprKind::kLiteral) continue;
      if (from_string ? (a.literal.is_null() || !temporal(a, to)) : !a.literal.is_null()) continue;
      tried[i] = to;
      changed = true;
    }
    if (!changed || !fn->check(tried).ok()) continue;
    for (size_t i = 0; i < e->args.size(); ++i) {
      if (!SameType(tried[i], (*types)[i])) Coerce(e->args[i].get(), to, /*temporal=*/from_string);
    }
    *types = tried;
    type = fn->check(*types);
  }
  return type;
}

Status Binder::PlaceNamedArguments(Expr* e, const Function& fn) {
  std::vector<ExprPtr> placed;
  for (size_t i = 0; i < e->args.size(); ++i) {
    if (e->arg_names[i].empty()) {
      placed.push_back(std::move(e->args[i]));
      continue;
    }
    size_t at = 0;
    while (at < fn.named.size() && fn.named[at].first != e->arg_names[i]) ++at;
    if (at == fn.named.size()) {
      return Error(*e->args[i], fmt::format("Named argument {} does not exist in signature of {}", e->arg_names[i],
                                            DisplayName(e->name)));
    }
    const size_t position = fn.first_named + at;
    if (position < placed.size() && placed[position]) {
      return Error(*e->args[i], fmt::format("Argument {} of {} is given twice", e->arg_names[i], DisplayName(e->name)));
    }
    if (placed.size() <= position) placed.resize(position + 1);
    placed[position] = std::move(e->args[i]);
  }
  for (size_t i = 0; i < placed.size(); ++i) {
    if (placed[i]) continue;
    if (i < fn.first_named)
      return Error(*e, fmt::format("{} needs argument {} before the named ones", DisplayName(e->name), i + 1));
    const auto& [param, default_value] = fn.named[i - fn.first_named];
    if (!default_value) return Error(*e, fmt::format("{} needs argument {}", DisplayName(e->name), param));
    auto literal = std::make_unique<Expr>();
    literal->kind = ExprKind::kLiteral;
    literal->pos = e->pos;
    literal->literal = *default_value;
    literal->type = literal->literal.type();
    placed[i] = std::move(literal);
  }
  e->args = std::move(placed);
  e->arg_names.clear();
  return Status::OK();
}

Status Binder::BindFunction(Expr* e) {
  const Function* fn = FindFunction(e->name);
  if (fn == nullptr && FindWindowFunction(e->name) != nullptr) {
    return Error(*e, fmt::format("Analytic function {} cannot be called without an OVER clause", e->name));
  }
  if (fn == nullptr) return Error(*e, fmt::format("Function not found: {}", e->name));
  if (!e->arg_names.empty()) {
    if (fn->named.empty()) return Error(*e, fmt::format("{} takes no named arguments", DisplayName(e->name)));
    LBT_RETURN_IF_ERROR(PlaceNamedArguments(e, *fn));
  }
  if (e->distinct) {
    return Error(*e, fmt::format("Non-aggregate {} does not support DISTINCT", DisplayName(e->name)));
  }
  TypePtr anchor;
  for (const ExprPtr& a : e->args) {
    if (!a->coercible_literal) {
      anchor = a->type;
      break;
    }
  }
  if (anchor && !fn->independent_args) {
    for (ExprPtr& a : e->args) {
      // A NULL beside an array is more likely an element (ARRAY_INCLUDES(a, NULL)).
      if (anchor->kind == TypeKind::kArray && a->literal.is_null()) {
        Coerce(a.get(), anchor->element);
        continue;
      }
      // Elsewhere a NULL takes the type the signature needs (RetypeLiterals).
      if (a->literal.is_null() && !IsComparison(e->name)) continue;
      Coerce(a.get(), anchor, IsComparison(e->name));
    }
  }
  std::vector<TypePtr> types;
  for (const ExprPtr& a : e->args) types.push_back(a->type);
  Result<TypePtr> type = fn->check(types);
  if (!type.ok()) type = RetypeLiterals(e, fn, &types);
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

Status Binder::BindSubscript(Expr* e) {
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

Status Binder::BindConditional(Expr* e) {
  const bool is_if = e->name == "IF";
  if (is_if && !e->args.empty()) Coerce(e->args[0].get(), Type::Bool());
  if (is_if && (e->args.size() != 3 || e->args[0]->type->kind != TypeKind::kBool)) {
    return Error(*e, "IF takes (BOOL condition, value if true, value if false)");
  }
  if (e->name == "NULLIF" && e->args.size() != 2) return Error(*e, "NULLIF takes two arguments");
  if ((e->name == "IFNULL" || e->name == "IFERROR") && e->args.size() != 2) {
    return Error(*e, e->name + " takes two arguments");
  }
  if (e->name == "NULLIFERROR" && e->args.size() != 1) return Error(*e, "NULLIFERROR takes one argument");
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
  if (e->name == "$array" && type->kind == TypeKind::kArray) {
    return Error(*e,
                 fmt::format("Cannot construct an array of {}: arrays of arrays are not supported", type->ToString()));
  }
  e->type = e->name == "$array" ? Type::Array(type) : type;
  return Status::OK();
}

Status Binder::BindCase(Expr* e) {
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

Status Binder::Unify(Expr& branch, TypePtr* result) {
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

}  // namespace lbt::sql::internal
