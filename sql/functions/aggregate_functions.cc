// Aggregates: COUNT, COUNTIF, SUM, AVG, MIN, MAX, ANY_VALUE, ARRAY_AGG,
// STRING_AGG, LOGICAL_AND and LOGICAL_OR. Each keeps a running state per
// group (an Accumulator); all but COUNT(*) and ARRAY_AGG pass over NULLs.

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

// ---- COUNT(*), COUNT(x), COUNTIF(condition) ----

class CountAccumulator final : public Accumulator {
 public:
  // `star`: COUNT(*), every row; `only_true`: COUNTIF.
  CountAccumulator(bool star, bool only_true) : star_(star), only_true_(only_true) {}
  Status Add(const Values& a) override {
    if (star_ || (!a[0].is_null() && (!only_true_ || a[0].boolean()))) ++n_;
    return Status::OK();
  }
  Value Finish() const override { return Value::Int64(n_); }

 private:
  bool star_, only_true_;
  int64_t n_ = 0;
};

// COUNT(*) reaches the binder's own check; COUNT(x) takes any x.
Result<TypePtr> CountCheck(const Types& a) {
  if (a.size() != 1) return ArgError("COUNT", a);
  return Type::Int64();
}
std::unique_ptr<Accumulator> CreateCount(const TypePtr&, const Types& a) {
  return std::make_unique<CountAccumulator>(a.empty(), false);
}

Result<TypePtr> CountIfCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBool)) return ArgError("COUNTIF", a);
  return Type::Int64();
}
std::unique_ptr<Accumulator> CreateCountIf(const TypePtr&, const Types&) {
  return std::make_unique<CountAccumulator>(false, true);
}

// ---- SUM, AVG ----

class SumAccumulator final : public Accumulator {
 public:
  SumAccumulator(TypePtr result, bool average) : result_(std::move(result)), average_(average) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    ++n_;
    if (a[0].kind() == TypeKind::kInt64 && !average_) {
      if (__builtin_add_overflow(int_sum_, a[0].int64(), &int_sum_)) return Status::OutOfRange("int64 overflow in SUM");
    } else {
      sum_ += a[0].AsDouble();
    }
    return Status::OK();
  }
  Value Finish() const override {
    if (n_ == 0) return Value::Null(result_);
    if (average_) return Value::Float64(sum_ / static_cast<double>(n_));
    if (result_->kind == TypeKind::kInt64) return Value::Int64(int_sum_);
    return Value::Float64(sum_);
  }

 private:
  TypePtr result_;
  bool average_;
  int64_t n_ = 0, int_sum_ = 0;
  double sum_ = 0;
};

Result<TypePtr> SumCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("SUM", a);
  return Is(a[0], TypeKind::kInt64) ? Type::Int64() : Type::Float64();
}
std::unique_ptr<Accumulator> CreateSum(const TypePtr& result, const Types&) {
  return std::make_unique<SumAccumulator>(result, false);
}

Result<TypePtr> AvgCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("AVG", a);
  return Type::Float64();
}
std::unique_ptr<Accumulator> CreateAvg(const TypePtr& result, const Types&) {
  return std::make_unique<SumAccumulator>(result, true);
}

// ---- MIN, MAX, ANY_VALUE ----

class ExtremeAccumulator final : public Accumulator {
 public:
  ExtremeAccumulator(TypePtr result, int sign) : best_(Value::Null(std::move(result))), sign_(sign) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    if (best_.is_null() || Compare(a[0], best_) * sign_ > 0) best_ = a[0];
    return Status::OK();
  }
  Value Finish() const override { return best_; }

 private:
  Value best_;
  int sign_;  // 1: MAX, -1: MIN, 0: ANY_VALUE (the first non-NULL)
};

Result<TypePtr> MinMaxCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsOrderable()) return ArgError("MIN/MAX", a);
  return a[0];
}
std::unique_ptr<Accumulator> CreateMin(const TypePtr& result, const Types&) {
  return std::make_unique<ExtremeAccumulator>(result, -1);
}
std::unique_ptr<Accumulator> CreateMax(const TypePtr& result, const Types&) {
  return std::make_unique<ExtremeAccumulator>(result, 1);
}

Result<TypePtr> AnyValueCheck(const Types& a) {
  if (a.size() != 1) return ArgError("ANY_VALUE", a);
  return a[0];
}
std::unique_ptr<Accumulator> CreateAnyValue(const TypePtr& result, const Types&) {
  return std::make_unique<ExtremeAccumulator>(result, 0);
}

// ---- ARRAY_AGG: NULL elements are an error, as in GoogleSQL ----

class ArrayAggAccumulator final : public Accumulator {
 public:
  explicit ArrayAggAccumulator(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OutOfRange("ARRAY_AGG cannot make an array with a NULL element");
    bytes_ += static_cast<double>(ValueBytes(a[0]));
    LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes_, "ARRAY_AGG's result"));
    values_.push_back(a[0]);
    return Status::OK();
  }
  Value Finish() const override { return values_.empty() ? Value::Null(result_) : Value::Array(result_, values_); }

 private:
  TypePtr result_;
  Values values_;
  double bytes_ = 0;
};

Result<TypePtr> ArrayAggCheck(const Types& a) {
  if (a.size() != 1 || Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_AGG", a);
  return Type::Array(a[0]);
}
std::unique_ptr<Accumulator> CreateArrayAgg(const TypePtr& result, const Types&) {
  return std::make_unique<ArrayAggAccumulator>(result);
}

// ---- STRING_AGG(text [, separator]): "," by default ----

class StringAggAccumulator final : public Accumulator {
  inline static const std::string kComma = ",";

 public:
  explicit StringAggAccumulator(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    const std::string& separator = a.size() > 1 && !a[1].is_null() ? a[1].str() : kComma;
    LBT_RETURN_IF_ERROR(CheckComputedBytes(
        static_cast<double>(out_.size() + (any_ ? separator.size() : 0) + a[0].str().size()), "STRING_AGG's result"));
    if (any_) out_ += separator;
    out_ += a[0].str();
    any_ = true;
    return Status::OK();
  }
  Value Finish() const override {
    if (!any_) return Value::Null(result_);
    return result_->kind == TypeKind::kString ? Value::String(out_) : Value::Bytes(out_);
  }

 private:
  TypePtr result_;
  std::string out_;
  bool any_ = false;
};

Result<TypePtr> StringAggCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) {
    return ArgError("STRING_AGG", a);
  }
  return a[0];
}
std::unique_ptr<Accumulator> CreateStringAgg(const TypePtr& result, const Types&) {
  return std::make_unique<StringAggAccumulator>(result);
}

// ---- LOGICAL_AND, LOGICAL_OR ----

class LogicalAccumulator final : public Accumulator {
 public:
  explicit LogicalAccumulator(bool is_and) : is_and_(is_and) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    any_ = true;
    result_ = is_and_ ? (result_ && a[0].boolean()) : (result_ || a[0].boolean());
    return Status::OK();
  }
  Value Finish() const override { return any_ ? Value::Bool(result_) : Value::Null(Type::Bool()); }

 private:
  bool is_and_;
  bool any_ = false;
  bool result_ = is_and_;
};

Result<TypePtr> LogicalCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBool)) return ArgError("LOGICAL_AND/LOGICAL_OR", a);
  return Type::Bool();
}
std::unique_ptr<Accumulator> CreateLogicalAnd(const TypePtr&, const Types&) {
  return std::make_unique<LogicalAccumulator>(true);
}
std::unique_ptr<Accumulator> CreateLogicalOr(const TypePtr&, const Types&) {
  return std::make_unique<LogicalAccumulator>(false);
}

}  // namespace

void RegisterAggregateFunctions(FunctionRegistry* registry) {
  registry->AddAggregate("COUNT", CountCheck, CreateCount);
  registry->AddAggregate("COUNTIF", CountIfCheck, CreateCountIf);
  registry->AddAggregate("SUM", SumCheck, CreateSum);
  registry->AddAggregate("AVG", AvgCheck, CreateAvg);
  registry->AddAggregate("MIN", MinMaxCheck, CreateMin);
  registry->AddAggregate("MAX", MinMaxCheck, CreateMax);
  registry->AddAggregate("ANY_VALUE", AnyValueCheck, CreateAnyValue);
  registry->AddAggregate("ARRAY_AGG", ArrayAggCheck, CreateArrayAgg);
  registry->AddAggregate("STRING_AGG", StringAggCheck, CreateStringAgg);
  registry->AddAggregate("LOGICAL_AND", LogicalCheck, CreateLogicalAnd);
  registry->AddAggregate("LOGICAL_OR", LogicalCheck, CreateLogicalOr);
}

}  // namespace lbt::sql
