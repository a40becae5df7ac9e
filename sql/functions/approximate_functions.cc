// Approximate aggregates, as GoogleSQL for Bigtable's approximate aggregate
// functions page gives them: APPROX_COUNT_DISTINCT (an HLL++ sketch,
// api/hll_sketch.h, at precision 15: exact for small counts, within about
// 0.6% beyond), APPROX_QUANTILES, APPROX_TOP_COUNT and APPROX_TOP_SUM. The
// last three are computed exactly, which is one of the answers an
// approximation may give: a group holds its values, at most kMaxGroups
// distinct ones (APPROX_TOP_*) or 100 MiB of them (APPROX_QUANTILES).

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "api/hll_sketch.h"
#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

namespace {

// The constant count argument (`number` of APPROX_QUANTILES, `n` of the
// top functions), checked once per group.
Result<int64_t> CountArgument(const Value& v, const char* fn, int64_t at_least) {
  if (v.is_null() || v.int64() < at_least) {
    return Status::OutOfRange(
        fmt::format("{}'s count must be at least {}, not {}", fn, at_least, v.is_null() ? "NULL" : v.ToText()));
  }
  if (v.int64() > 100000) return Status::OutOfRange(fmt::format("{}'s count must be at most 100000", fn));
  return v.int64();
}

// ---- APPROX_COUNT_DISTINCT(x) ----

Result<TypePtr> CountDistinctCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsOrderable()) return ArgError("APPROX_COUNT_DISTINCT", a);
  return Type::Int64();
}

class CountDistinctAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    const Value& v = a[0];
    if (v.is_null()) return Status::OK();
    if (v.kind() == TypeKind::kInt64) {
      sketch_.AddInt64(v.int64());
    } else if (v.kind() == TypeKind::kString || v.kind() == TypeKind::kBytes) {
      sketch_.AddBytes(v.str());
    } else {
      // Other kinds by their text, which is one per value (1 and 1.0 are one FLOAT64).
      sketch_.AddBytes(v.ToText());
    }
    return Status::OK();
  }
  Value Finish() const override { return Value::Int64(sketch_.Estimate()); }

 private:
  HllSketch sketch_;
};
std::unique_ptr<Accumulator> CreateCountDistinct(const TypePtr&, const Types&) {
  return std::make_unique<CountDistinctAccumulator>();
}

// ---- APPROX_QUANTILES(x, number): number + 1 boundaries, min to max ----

Result<TypePtr> QuantilesCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsOrderable() || !Is(a[1], TypeKind::kInt64)) return ArgError("APPROX_QUANTILES", a);
  return Type::Array(a[0]);
}

class QuantilesAccumulator final : public Accumulator {
 public:
  explicit QuantilesAccumulator(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (number_ == 0) {
      LBT_ASSIGN_OR_RETURN(number_, CountArgument(a[1], "APPROX_QUANTILES", 1));
    }
    if (a[0].is_null()) return Status::OK();
    bytes_ += static_cast<double>(ValueBytes(a[0]) + sizeof(Value));
    LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes_, "The values APPROX_QUANTILES holds"));
    values_.push_back(a[0]);
    return Status::OK();
  }
  // The value at floor(i * (n - 1) / number) of the sorted values, each i.
  Value Finish() const override {
    if (values_.empty()) return Value::Null(result_);
    Values sorted = values_;
    std::sort(sorted.begin(), sorted.end(), [](const Value& x, const Value& y) { return Compare(x, y) < 0; });
    Values out;
    const double last = static_cast<double>(sorted.size() - 1);
    for (int64_t i = 0; i <= number_; ++i) {
      out.push_back(sorted[static_cast<size_t>(static_cast<double>(i) * last / static_cast<double>(number_))]);
    }
    return Value::Array(result_, std::move(out));
  }

 private:
  TypePtr result_;
  int64_t number_ = 0;
  Values values_;
  double bytes_ = 0;
};
std::unique_ptr<Accumulator> CreateQuantiles(const TypePtr& result, const Types&) {
  return std::make_unique<QuantilesAccumulator>(result);
}

// ---- APPROX_TOP_COUNT(x, n), APPROX_TOP_SUM(x, weight, n) ----

Result<TypePtr> TopCountCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsOrderable() || !Is(a[1], TypeKind::kInt64)) return ArgError("APPROX_TOP_COUNT", a);
  return Type::Array(Type::Struct({{"value", a[0]}, {"count", Type::Int64()}}));
}
Result<TypePtr> TopSumCheck(const Types& a) {
  if (a.size() != 3 || !a[0]->IsOrderable() || !a[1]->IsNumeric() || !Is(a[2], TypeKind::kInt64)) {
    return ArgError("APPROX_TOP_SUM", a);
  }
  const TypePtr sum = Is(a[1], TypeKind::kInt64) ? Type::Int64() : Type::Float64();
  return Type::Array(Type::Struct({{"value", a[0]}, {"sum", sum}}));
}

// Each distinct value's count or weight, in first-seen order; the n
// largest, ties in that order.
class TopAccumulator final : public Accumulator {
 public:
  TopAccumulator(TypePtr result, bool sum) : result_(std::move(result)), sum_(sum) {}
  Status Add(const Values& a) override {
    const Value& n = a[sum_ ? 2 : 1];
    if (n_ == 0) {
      LBT_ASSIGN_OR_RETURN(n_, CountArgument(n, sum_ ? "APPROX_TOP_SUM" : "APPROX_TOP_COUNT", 1));
    }
    if (sum_ && a[1].is_null()) return Status::OK();  // a NULL weight adds nothing
    auto it = index_.find(a[0]);
    if (it == index_.end()) {
      if (entries_.size() >= kMaxGroups) {
        return Status::ResourceExhausted(fmt::format("APPROX_TOP_* holds at most {} distinct values", kMaxGroups));
      }
      it = index_.emplace(a[0], entries_.size()).first;
      entries_.push_back({a[0], 0, 0.0});
    }
    Entry& e = entries_[it->second];
    if (!sum_) {
      e.count += 1;
    } else if (a[1].kind() == TypeKind::kInt64) {
      if (__builtin_add_overflow(e.count, a[1].int64(), &e.count)) return Status::OutOfRange("int64 overflow");
    } else {
      e.total += a[1].AsDouble();
    }
    return Status::OK();
  }
  Value Finish() const override {
    if (entries_.empty()) return Value::Null(result_);
    const bool floats = result_->element->fields[1].second->kind == TypeKind::kFloat64;
    std::vector<size_t> order(entries_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto weight = [&](size_t i) { return floats ? entries_[i].total : static_cast<double>(entries_[i].count); };
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return weight(x) > weight(y); });
    Values out;
    for (size_t k = 0; k < order.size() && static_cast<int64_t>(k) < n_; ++k) {
      const Entry& e = entries_[order[k]];
      out.push_back(
          Value::Struct(result_->element, {e.value, floats ? Value::Float64(e.total) : Value::Int64(e.count)}));
    }
    return Value::Array(result_, std::move(out));
  }

 private:
  struct Entry {
    Value value;
    int64_t count;
    double total;
  };
  struct HashOf {
    size_t operator()(const Value& v) const { return Hash(v); }
  };
  struct EqualOf {
    bool operator()(const Value& x, const Value& y) const { return GroupEqual(x, y); }
  };
  TypePtr result_;
  const bool sum_;
  int64_t n_ = 0;
  std::vector<Entry> entries_;
  std::unordered_map<Value, size_t, HashOf, EqualOf> index_;
};
std::unique_ptr<Accumulator> CreateTopCount(const TypePtr& result, const Types&) {
  return std::make_unique<TopAccumulator>(result, false);
}
std::unique_ptr<Accumulator> CreateTopSum(const TypePtr& result, const Types&) {
  return std::make_unique<TopAccumulator>(result, true);
}

}  // namespace

void RegisterApproximateFunctions(FunctionRegistry* registry) {
  registry->AddAggregate("APPROX_COUNT_DISTINCT", CountDistinctCheck, CreateCountDistinct);
  registry->AddAggregate("APPROX_QUANTILES", QuantilesCheck, CreateQuantiles);
  registry->AddAggregate("APPROX_TOP_COUNT", TopCountCheck, CreateTopCount);
  registry->AddAggregate("APPROX_TOP_SUM", TopSumCheck, CreateTopSum);
}

}  // namespace lbt::sql
