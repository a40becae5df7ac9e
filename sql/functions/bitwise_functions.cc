// Bitwise operators & | ^ ~ << >>, over INT64 or over BYTES as one
// big-endian bit string; and the bitwise aggregates BIT_AND, BIT_OR and
// BIT_XOR, over INT64 only, as Bigtable's "Aggregate functions" page gives
// them: NULLs are passed over, and a group without a non-NULL value gives
// NULL.

#include <fmt/format.h>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

bool IsBits(const TypePtr& t) { return Is(t, TypeKind::kInt64) || Is(t, TypeKind::kBytes); }

// ---- & | ^ ----

Result<TypePtr> BitwiseCheck(const Types& a) {
  if (a.size() != 2 || !SameType(a[0], a[1]) || !IsBits(a[0])) return ArgError("bitwise", a);
  return a[0];
}

// `apply` bit by bit: on INT64s whole, on BYTES of one length byte by byte.
template <typename Op>
Result<Value> Bitwise(const Values& a, std::string_view op, Op apply) {
  if (a[0].kind() == TypeKind::kInt64) {
    return Value::Int64(
        static_cast<int64_t>(apply(static_cast<uint64_t>(a[0].int64()), static_cast<uint64_t>(a[1].int64()))));
  }
  const std::string& x = a[0].str();
  const std::string& y = a[1].str();
  if (x.size() != y.size()) {
    return Status::OutOfRange(
        fmt::format("Bitwise operator {} needs BYTES of the same length, not {} and {}", op, x.size(), y.size()));
  }
  std::string out(x.size(), '\0');
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = static_cast<char>(apply(static_cast<unsigned char>(x[i]), static_cast<unsigned char>(y[i])));
  }
  return Value::Bytes(std::move(out));
}
Result<Value> BitAndEval(const Values& a, const EvalContext&) {
  return Bitwise(a, "&", [](uint64_t x, uint64_t y) { return x & y; });
}
Result<Value> BitOrEval(const Values& a, const EvalContext&) {
  return Bitwise(a, "|", [](uint64_t x, uint64_t y) { return x | y; });
}
Result<Value> BitXorEval(const Values& a, const EvalContext&) {
  return Bitwise(a, "^", [](uint64_t x, uint64_t y) { return x ^ y; });
}

// ---- ~ ----

Result<TypePtr> BitNotCheck(const Types& a) {
  if (a.size() != 1 || !IsBits(a[0])) return ArgError("~", a);
  return a[0];
}
Result<Value> BitNotEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) return Value::Int64(~a[0].int64());
  std::string out = a[0].str();
  for (char& c : out) c = static_cast<char>(~static_cast<unsigned char>(c));
  return Value::Bytes(std::move(out));
}

// ---- << >> ----

Result<TypePtr> ShiftCheck(const Types& a) {
  if (a.size() != 2 || !IsBits(a[0]) || !Is(a[1], TypeKind::kInt64)) return ArgError("shift", a);
  return a[0];
}

// Shifts fill with zeros, never with the sign bit; a shift by the operand's
// width or more leaves only zeros.
template <bool kLeft>
Result<Value> ShiftEval(const Values& a, const EvalContext&) {
  const int64_t by = a[1].int64();
  if (by < 0) return Status::OutOfRange(fmt::format("Bit shift by a negative amount: {}", by));
  if (a[0].kind() == TypeKind::kInt64) {
    if (by >= 64) return Value::Int64(0);
    const uint64_t x = static_cast<uint64_t>(a[0].int64());
    return Value::Int64(static_cast<int64_t>(kLeft ? x << by : x >> by));
  }
  const std::string& x = a[0].str();
  const int64_t n = static_cast<int64_t>(x.size());
  std::string out(x.size(), '\0');
  if (by >= 8 * n) return Value::Bytes(std::move(out));
  const int64_t bytes = by / 8;
  const int bits = static_cast<int>(by % 8);
  auto byte_at = [&](int64_t i) -> unsigned {
    return i >= 0 && i < n ? static_cast<unsigned char>(x[static_cast<size_t>(i)]) : 0u;
  };
  for (int64_t i = 0; i < n; ++i) {
    // The 16 bits around the source byte, shifted into place.
    const unsigned v = kLeft ? ((byte_at(i + bytes) << 8 | byte_at(i + bytes + 1)) << bits) >> 8
                             : ((byte_at(i - bytes - 1) << 8 | byte_at(i - bytes)) >> bits);
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
  }
  return Value::Bytes(std::move(out));
}

// ---- BIT_AND, BIT_OR, BIT_XOR ----

class BitAggregateAccumulator final : public Accumulator {
 public:
  using Combine = uint64_t (*)(uint64_t, uint64_t);
  explicit BitAggregateAccumulator(Combine combine) : combine_(combine) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    const uint64_t x = static_cast<uint64_t>(a[0].int64());
    bits_ = any_ ? combine_(bits_, x) : x;
    any_ = true;
    return Status::OK();
  }
  Value Finish() const override {
    return any_ ? Value::Int64(static_cast<int64_t>(bits_)) : Value::Null(Type::Int64());
  }

 private:
  Combine combine_;
  bool any_ = false;
  uint64_t bits_ = 0;
};

Result<TypePtr> BitAggregateCheck(const Types& a) {
  // The binder names the aggregate called in the error.
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("BIT_AND/BIT_OR/BIT_XOR", a);
  return Type::Int64();
}
std::unique_ptr<Accumulator> CreateBitAndAggregate(const TypePtr&, const Types&) {
  return std::make_unique<BitAggregateAccumulator>([](uint64_t x, uint64_t y) { return x & y; });
}
std::unique_ptr<Accumulator> CreateBitOrAggregate(const TypePtr&, const Types&) {
  return std::make_unique<BitAggregateAccumulator>([](uint64_t x, uint64_t y) { return x | y; });
}
std::unique_ptr<Accumulator> CreateBitXorAggregate(const TypePtr&, const Types&) {
  return std::make_unique<BitAggregateAccumulator>([](uint64_t x, uint64_t y) { return x ^ y; });
}

}  // namespace

void RegisterBitwiseFunctions(FunctionRegistry* registry) {
  registry->Add("$bitand", BitwiseCheck, BitAndEval);
  registry->Add("$bitor", BitwiseCheck, BitOrEval);
  registry->Add("$bitxor", BitwiseCheck, BitXorEval);
  registry->Add("$bitnot", BitNotCheck, BitNotEval);
  registry->Add("$shl", ShiftCheck, ShiftEval<true>);
  registry->Add("$shr", ShiftCheck, ShiftEval<false>);
  registry->AddAggregate("BIT_AND", BitAggregateCheck, CreateBitAndAggregate);
  registry->AddAggregate("BIT_OR", BitAggregateCheck, CreateBitOrAggregate);
  registry->AddAggregate("BIT_XOR", BitAggregateCheck, CreateBitXorAggregate);
}

}  // namespace lbt::sql
