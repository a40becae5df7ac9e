// HyperLogLog++ distinct counts: HLL_COUNT.INIT (an aggregate making a
// sketch of its inputs), HLL_COUNT.MERGE (the count of the union of
// sketches), HLL_COUNT.MERGE_PARTIAL (that union as a sketch) and
// HLL_COUNT.EXTRACT (one sketch's count), as GoogleSQL documents them for
// BigQuery; the sketches are lbt's (api/hll_sketch.h), the same bytes an
// hllpp_unique_count family's cells hold. NULL inputs and sketches are
// passed over; INIT and MERGE_PARTIAL of no input are NULL, MERGE of none
// is 0, and EXTRACT of NULL is 0.

#include <fmt/format.h>

#include <optional>

#include "api/hll_sketch.h"
#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<HllSketch> SketchOf(std::string_view fn, const Value& v) {
  Result<HllSketch> sketch = HllSketch::Parse(v.str());
  if (!sketch.ok()) return Status::InvalidArgument(fmt::format("{}: {}", fn, sketch.status().message()));
  return sketch;
}

// ---- HLL_COUNT.INIT(input [, precision]) ----

Result<TypePtr> InitCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !(Is(a[0], TypeKind::kInt64) || IsText(a[0])) ||
      (a.size() == 2 && !Is(a[1], TypeKind::kInt64))) {
    return ArgError("HLL_COUNT.INIT", a);
  }
  return Type::Bytes();
}

class InitAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (!sketch_) {
      int64_t precision = HllSketch::kDefaultPrecision;
      if (a.size() == 2 && !a[1].is_null()) precision = a[1].int64();
      if (precision < HllSketch::kMinPrecision || precision > HllSketch::kMaxPrecision) {
        return Status::OutOfRange(fmt::format("HLL_COUNT.INIT: precision {} is out of range; it must be {} to {}",
                                              precision, HllSketch::kMinPrecision, HllSketch::kMaxPrecision));
      }
      sketch_.emplace(static_cast<int>(precision));
    }
    if (a[0].is_null()) return Status::OK();
    any_ = true;
    if (a[0].kind() == TypeKind::kInt64) {
      sketch_->AddInt64(a[0].int64());
    } else {
      sketch_->AddBytes(a[0].str());
    }
    return Status::OK();
  }
  Value Finish() const override { return any_ ? Value::Bytes(sketch_->Serialize()) : Value::Null(Type::Bytes()); }

 private:
  std::optional<HllSketch> sketch_;
  bool any_ = false;
};

std::unique_ptr<Accumulator> CreateInit(const TypePtr&, const Types&) { return std::make_unique<InitAccumulator>(); }

// ---- HLL_COUNT.MERGE(sketch), HLL_COUNT.MERGE_PARTIAL(sketch) ----

Result<TypePtr> MergeCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("HLL_COUNT.MERGE", a);
  return Type::Int64();
}
Result<TypePtr> MergePartialCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("HLL_COUNT.MERGE_PARTIAL", a);
  return Type::Bytes();
}

template <bool kPartial>
class MergeAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    LBT_ASSIGN_OR_RETURN(HllSketch sketch, SketchOf(kPartial ? "HLL_COUNT.MERGE_PARTIAL" : "HLL_COUNT.MERGE", a[0]));
    if (merged_) {
      merged_->Merge(sketch);
    } else {
      merged_ = std::move(sketch);
    }
    return Status::OK();
  }
  Value Finish() const override {
    if (kPartial) return merged_ ? Value::Bytes(merged_->Serialize()) : Value::Null(Type::Bytes());
    return Value::Int64(merged_ ? merged_->Estimate() : 0);
  }

 private:
  std::optional<HllSketch> merged_;
};

template <bool kPartial>
std::unique_ptr<Accumulator> CreateMerge(const TypePtr&, const Types&) {
  return std::make_unique<MergeAccumulator<kPartial>>();
}

// ---- HLL_COUNT.EXTRACT(sketch) ----

Result<TypePtr> ExtractCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("HLL_COUNT.EXTRACT", a);
  return Type::Int64();
}
Result<Value> ExtractEval(const Values& a, const EvalContext&) {
  if (a[0].is_null()) return Value::Int64(0);
  LBT_ASSIGN_OR_RETURN(HllSketch sketch, SketchOf("HLL_COUNT.EXTRACT", a[0]));
  return Value::Int64(sketch.Estimate());
}

}  // namespace

void RegisterHllFunctions(FunctionRegistry* registry) {
  registry->AddAggregate("HLL_COUNT.INIT", InitCheck, CreateInit);
  registry->AddAggregate("HLL_COUNT.MERGE", MergeCheck, CreateMerge<false>);
  registry->AddAggregate("HLL_COUNT.MERGE_PARTIAL", MergePartialCheck, CreateMerge<true>);
  registry->Add("HLL_COUNT.EXTRACT", ExtractCheck, ExtractEval, FunctionRegistry::Nulls::kWithNulls);
}

}  // namespace lbt::sql
