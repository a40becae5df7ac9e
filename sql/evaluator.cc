#include "sql/evaluator.h"
#include "sql/proto_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace lbt::sql {

Evaluator::Evaluator(Params params) : params_(std::move(params)) {
  context_.now_micros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
}

namespace {

// A branch's value in the type the expression widened the branches to:
// IF(c, -1, 1.5) is a FLOAT64 whichever branch it takes.
Result<Value> Conformed(Result<Value> v, const TypePtr& type) {
  if (v.ok() && !v->is_null() && type->kind == TypeKind::kFloat64 &&
      (v->kind() == TypeKind::kInt64 || v->kind() == TypeKind::kFloat32)) {
    return Value::Float64(v->AsDouble());
  }
  return v;
}

}  // namespace

Result<Value> Evaluator::Eval(const Expr& e, const Values& row) const {
  switch (e.kind) {
    case ExprKind::kLiteral: return e.literal;
    case ExprKind::kParameter: {
      auto it = params_.find(e.name);
      if (it == params_.end()) return Status::InvalidArgument(fmt::format("No value for query parameter @{}", e.name));
      return it->second;
    }
    case ExprKind::kColumn:
    case ExprKind::kSlot: return row[static_cast<size_t>(e.slot)];
    case ExprKind::kWindowResult: return row[window_base_ + static_cast<size_t>(e.slot)];
    case ExprKind::kLambdaParam: return lambda_frame_[static_cast<size_t>(e.slot)];
    case ExprKind::kLambda: break;
    case ExprKind::kCast: return Cast(e, row);
    case ExprKind::kCase: return Conformed(Case(e, row), e.type);
    case ExprKind::kCall: return Call(e, row);
    case ExprKind::kStar:
    case ExprKind::kInterval: break;
  }
  return Status::FromCode(Status::Code::kInternal, "unbound expression " + Unparse(e));
}

std::optional<Value> Evaluator::Constant(const Expr& e) const {
  if (e.kind == ExprKind::kColumn || e.kind == ExprKind::kSlot || e.kind == ExprKind::kStar ||
      e.kind == ExprKind::kWindowResult || e.kind == ExprKind::kLambdaParam || e.kind == ExprKind::kLambda) {
    return std::nullopt;
  }
  if (e.kind == ExprKind::kCall && e.function == nullptr && e.name.rfind("$", 0) != 0 && e.name != "IF" &&
      e.name != "IFNULL" && e.name != "COALESCE") {
    return std::nullopt;  // an aggregate
  }
  for (const ExprPtr& a : e.args) {
    if (!Constant(*a)) return std::nullopt;
  }
  Result<Value> v = Eval(e, Values());
  if (!v.ok()) return std::nullopt;
  return *v;
}

Result<const Value*> Evaluator::Ref(const Expr& e, const Values& row, Value* scratch) const {
  if ((e.kind == ExprKind::kSlot || e.kind == ExprKind::kColumn) && e.slot >= 0) {
    return &row[static_cast<size_t>(e.slot)];
  }
  if (e.kind == ExprKind::kLiteral) return &e.literal;
  if (e.kind == ExprKind::kWindowResult) return &row[window_base_ + static_cast<size_t>(e.slot)];
  LBT_ASSIGN_OR_RETURN(*scratch, Eval(e, row));
  return scratch;
}

Status Evaluator::EvalTo(const Expr& e, const Values& row, Value* out) const {
  if (e.kind == ExprKind::kCast && IsCastOfBytesText(e)) return CastBytesText(e, row, out);
  LBT_ASSIGN_OR_RETURN(*out, Eval(e, row));
  return Status::OK();
}

bool Evaluator::IsCastOfBytesText(const Expr& e) {
  const Expr& operand = *e.args[0];
  return operand.kind == ExprKind::kCast && operand.cast_type != nullptr && e.cast_type != nullptr &&
         operand.cast_type->kind == TypeKind::kString && operand.args[0]->type->kind == TypeKind::kBytes &&
         e.cast_type->kind != TypeKind::kString;
}

// CAST(CAST(b AS STRING) AS T) of BYTES b, the way text columns are read as
// numbers, converts the bytes where they are, with the checks and NULLs of
// both casts, rather than building the STRING in between.
Status Evaluator::CastBytesText(const Expr& e, const Values& row, Value* out) const {
  const Expr& inner = *e.args[0];
  const Expr& bytes_expr = *inner.args[0];
  Value scratch;
  const Value* bytes = &scratch;
  if ((bytes_expr.kind == ExprKind::kSlot || bytes_expr.kind == ExprKind::kColumn) && bytes_expr.slot >= 0) {
    bytes = &row[static_cast<size_t>(bytes_expr.slot)];
  } else {
    LBT_ASSIGN_OR_RETURN(scratch, Eval(bytes_expr, row));
  }
  if (bytes->is_null()) {
    *out = Value::Null(e.cast_type);
    return Status::OK();
  }
  if (!IsValidUtf8(bytes->str())) {
    if (!inner.safe) return Status::OutOfRange(kInvalidUtf8Cast);
    *out = Value::Null(e.cast_type);  // the inner SAFE_CAST's NULL
    return Status::OK();
  }
  if (ParsePlainNumber(bytes->str(), e.cast_type->kind, out)) return Status::OK();
  LBT_ASSIGN_OR_RETURN(*out, CastString(bytes->str(), e.cast_type, e.safe));
  return Status::OK();
}

Result<Value> Evaluator::Cast(const Expr& e, const Values& row) const {
  if (e.proto != nullptr) {
    Value scratch;
    LBT_ASSIGN_OR_RETURN(const Value* v, Ref(*e.args[0], row, &scratch));
    if (v->is_null()) return Value::Null(e.type);
    return DecodeProto(*e.proto, v->str(), e.safe);
  }
  if (IsCastOfBytesText(e)) {
    Value out;
    LBT_RETURN_IF_ERROR(CastBytesText(e, row, &out));
    return out;
  }
  Value scratch;
  LBT_ASSIGN_OR_RETURN(const Value* v, Ref(*e.args[0], row, &scratch));
  return CastValue(*v, e.cast_type, e.safe);
}

namespace {

// IN lists this short are as fast compared one by one.
constexpr size_t kShortInList = 16;

}  // namespace

const Evaluator::SortedList* Evaluator::ConstantInList(const Expr& e) const {
  auto [it, added] = in_lists_.try_emplace(&e);
  if (!added) return it->second.get();
  auto list = std::make_unique<SortedList>();
  std::optional<TypeKind> kind;
  for (size_t i = 1; i < e.args.size(); ++i) {
    std::optional<Value> v = Constant(*e.args[i]);
    if (!v) return nullptr;
    if (v->is_null()) {
      list->has_null = true;
      continue;
    }
    // One kind whose order is total: mixed numbers compare as doubles,
    // which is not transitive for large integers.
    if (kind.value_or(v->kind()) != v->kind()) return nullptr;
    kind = v->kind();
    switch (v->kind()) {
      case TypeKind::kBytes:
      case TypeKind::kString:
      case TypeKind::kInt64:
      case TypeKind::kBool:
      case TypeKind::kTimestamp:
      case TypeKind::kDate: break;
      default: return nullptr;
    }
    list->values.push_back(std::move(*v));
  }
  std::sort(list->values.begin(), list->values.end(), [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  it->second = std::move(list);
  return it->second.get();
}

Result<Value> Evaluator::Call(const Expr& e, const Values& row) const {
  // The argument count first: it rules out almost every call at once.
  if (e.args.size() > kShortInList + 1 && e.name == "$in") {
    if (const SortedList* list = ConstantInList(e)) {
      LBT_ASSIGN_OR_RETURN(Value v, Eval(*e.args[0], row));
      if (v.is_null()) return Value::Null(Type::Bool());
      auto less = [](const Value& a, const Value& b) { return Compare(a, b) < 0; };
      const bool found = list->values.empty() || list->values[0].kind() == v.kind()
                             ? std::binary_search(list->values.begin(), list->values.end(), v, less)
                             : std::any_of(list->values.begin(), list->values.end(),
                                           [&](const Value& c) { return Compare(c, v) == 0; });
      if (found) return Value::Bool(true);
      return list->has_null ? Value::Null(Type::Bool()) : Value::Bool(false);
    }
  }
  if (e.function == nullptr) {
    if (e.name == "$and" || e.name == "$or" || e.name == "$not" || e.name.rfind("$is", 0) == 0) return Logic(e, row);
    if (e.name == "$subscript" || e.name == "$field") return Subscript(e, row);
    if (e.args.size() == 2 && e.args[1]->kind == ExprKind::kLambda) return LambdaCall(e, row);
    if (e.name == "$array" || e.name == "$struct") {
      Values items;
      for (const ExprPtr& a : e.args) {
        LBT_ASSIGN_OR_RETURN(Value v, Eval(*a, row));
        items.push_back(std::move(v));
      }
      return e.name == "$array" ? Value::Array(e.type, std::move(items)) : Value::Struct(e.type, std::move(items));
    }
    return Conformed(Conditional(e, row), e.type);
  }
  if (call_depth_ == call_args_.size()) call_args_.emplace_back();
  Values& args = call_args_[call_depth_];
  args.clear();
  struct Level {  // this call's argument list stays ours until it returns
    size_t* depth;
    ~Level() { --*depth; }
  } level{&++call_depth_};
  for (const ExprPtr& a : e.args) {
    LBT_ASSIGN_OR_RETURN(Value v, Eval(*a, row));
    if (v.is_null() && !e.function->handles_nulls) return Value::Null(e.type);
    args.push_back(std::move(v));
  }
  Result<Value> out = e.function->eval(args, context_);
  // SAFE.FN(...): the function's own error is NULL (its arguments' are not).
  if (!out.ok() && e.safe) return Value::Null(e.type);
  // Whatever a function computes obeys the size limit, even one whose
  // growth it does not check before it allocates (TO_HEX doubles its input).
  if (out.ok() && !out->is_null() && (out->kind() == TypeKind::kString || out->kind() == TypeKind::kBytes) &&
      out->str().size() > kMaxComputedBytes) {
    return CheckComputedBytes(static_cast<double>(out->str().size()), "The result of " + e.name);
  }
  if (!out.ok() && out.status().code() != Status::Code::kInvalidArgument) {
    // Name the function the user wrote; operators speak for themselves.
    if (e.name[0] != '$' && out.status().message().rfind(e.name, 0) != 0) {
      return Status::FromCode(out.status().code(), e.name + ": " + out.status().message());
    }
  }
  return out;
}

// Three-valued logic: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE.
Result<Value> Evaluator::Logic(const Expr& e, const Values& row) const {
  LBT_ASSIGN_OR_RETURN(Value a, Eval(*e.args[0], row));
  if (e.name == "$not") return a.is_null() ? a : Value::Bool(!a.boolean());
  if (e.name == "$isnull") return Value::Bool(a.is_null());
  if (e.name == "$isnotnull") return Value::Bool(!a.is_null());
  if (e.name == "$istrue") return Value::Bool(!a.is_null() && a.boolean());
  if (e.name == "$isnottrue") return Value::Bool(a.is_null() || !a.boolean());
  if (e.name == "$isfalse") return Value::Bool(!a.is_null() && !a.boolean());
  if (e.name == "$isnotfalse") return Value::Bool(a.is_null() || a.boolean());
  // AND and OR take two or more operands, left to right; the first that
  // decides (FALSE for AND, TRUE for OR) ends the evaluation.
  const bool is_and = e.name == "$and";
  bool saw_null = a.is_null();
  if (!a.is_null() && a.boolean() != is_and) return a;  // FALSE AND ..., TRUE OR ...
  for (size_t i = 1; i < e.args.size(); ++i) {
    LBT_ASSIGN_OR_RETURN(Value b, Eval(*e.args[i], row));
    if (!b.is_null() && b.boolean() != is_and) return b;
    saw_null = saw_null || b.is_null();
  }
  if (saw_null) return Value::Null(Type::Bool());
  return Value::Bool(is_and);
}

Result<Value> Evaluator::LambdaCall(const Expr& e, const Values& row) const {
  LBT_ASSIGN_OR_RETURN(Value array, Eval(*e.args[0], row));
  if (array.is_null()) return Value::Null(e.type);
  const Expr& lambda = *e.args[1];
  const size_t base = static_cast<size_t>(lambda.slot);
  if (lambda_frame_.size() < base + 2) lambda_frame_.resize(base + 2);
  Values out;
  const Values& elements = array.elements();
  for (size_t i = 0; i < elements.size(); ++i) {
    lambda_frame_[base] = elements[i];
    lambda_frame_[base + 1] = Value::Int64(static_cast<int64_t>(i));
    LBT_ASSIGN_OR_RETURN(Value v, Eval(*lambda.args[0], row));
    if (e.name == "ARRAY_TRANSFORM") {
      out.push_back(std::move(v));
    } else if (!v.is_null() && v.boolean()) {
      if (e.name == "ARRAY_INCLUDES") return Value::Bool(true);
      out.push_back(elements[i]);
    }
  }
  if (e.name == "ARRAY_INCLUDES") return Value::Bool(false);
  return Value::Array(e.type, std::move(out));
}

Result<Value> Evaluator::Conditional(const Expr& e, const Values& row) const {
  if (e.name == "IF") {
    LBT_ASSIGN_OR_RETURN(Value c, Eval(*e.args[0], row));
    LBT_ASSIGN_OR_RETURN(Value v, Eval(*e.args[!c.is_null() && c.boolean() ? 1 : 2], row));
    return v;
  }
  if (e.name == "IFNULL" || e.name == "COALESCE") {
    for (const ExprPtr& a : e.args) {
      LBT_ASSIGN_OR_RETURN(Value v, Eval(*a, row));
      if (!v.is_null()) return v;
    }
    return Value::Null(e.type);
  }
  // IFERROR, ISERROR and NULLIFERROR catch an error evaluating their
  // first argument.
  if (e.name == "IFERROR" || e.name == "ISERROR" || e.name == "NULLIFERROR") {
    Result<Value> tried = Eval(*e.args[0], row);
    if (e.name == "ISERROR") return Value::Bool(!tried.ok());
    if (tried.ok()) return tried;
    if (e.name == "NULLIFERROR") return Value::Null(e.type);
    return Eval(*e.args[1], row);
  }
  if (e.name == "NULLIF") {
    LBT_ASSIGN_OR_RETURN(Value a, Eval(*e.args[0], row));
    LBT_ASSIGN_OR_RETURN(Value b, Eval(*e.args[1], row));
    if (!a.is_null() && !b.is_null() && Compare(a, b) == 0) return Value::Null(e.type);
    return a;
  }
  return Status::FromCode(Status::Code::kInternal, "unknown special form " + e.name);
}

// map[key], array[OFFSET(n)] and kin, struct.field.
Result<Value> Evaluator::Subscript(const Expr& e, const Values& row) const {
  LBT_ASSIGN_OR_RETURN(Value base, Eval(*e.args[0], row));
  if (base.is_null()) return Value::Null(e.type);
  if (e.name == "$field") {
    const auto& fields = base.type()->fields;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].first == e.literal.str()) return base.elements()[i];
    }
    return Status::FromCode(Status::Code::kInternal, "no field " + e.literal.str());
  }
  LBT_ASSIGN_OR_RETURN(Value index, Eval(*e.args[1], row));
  if (index.is_null()) return Value::Null(e.type);
  if (base.kind() == TypeKind::kMap) {
    for (const auto& [k, v] : base.entries()) {
      if (Compare(k, index) == 0) return v;
    }
    return Value::Null(e.type);
  }
  const std::string& mode = e.literal.str();
  const bool safe = mode.rfind("SAFE_", 0) == 0;
  const bool ordinal = mode.find("ORDINAL") != std::string::npos;
  const int64_t i = index.int64() - (ordinal ? 1 : 0);
  const int64_t n = static_cast<int64_t>(base.elements().size());
  if (i < 0 || i >= n) {
    if (safe) return Value::Null(e.type);
    return Status::OutOfRange(
        fmt::format("Array index {} is out of bounds (the array has {} elements)", index.int64(), n));
  }
  return base.elements()[static_cast<size_t>(i)];
}

Result<Value> Evaluator::Case(const Expr& e, const Values& row) const {
  size_t i = 0;
  Value operand;
  if (e.has_operand) {
    LBT_ASSIGN_OR_RETURN(operand, Eval(*e.args[0], row));
    i = 1;
  }
  const size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
  for (; i + 1 < pairs_end; i += 2) {
    LBT_ASSIGN_OR_RETURN(Value when, Eval(*e.args[i], row));
    const bool hit = e.has_operand ? (!operand.is_null() && !when.is_null() && Compare(operand, when) == 0)
                                   : (!when.is_null() && when.boolean());
    if (hit) return Eval(*e.args[i + 1], row);
  }
  if (e.has_else) return Eval(*e.args.back(), row);
  return Value::Null(e.type);
}

}  // namespace lbt::sql
