// Vectors, as GoogleSQL for Bigtable gives them for similarity search:
// TO_FLOAT32 (4 big-endian bytes), TO_VECTOR32 and TO_VECTOR64 (BYTES of
// packed big-endian FLOAT32 or FLOAT64 values, as Bigtable stores
// embeddings, into an ARRAY), and COSINE_DISTANCE and EUCLIDEAN_DISTANCE of
// two ARRAYs of numbers of one length. A NULL element, vectors of different
// lengths and (for the cosine) a zero vector are errors.

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

uint64_t BigEndian(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}

float FloatAt(const char* p) {
  const uint32_t bits = static_cast<uint32_t>(BigEndian(p, 4));
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double DoubleAt(const char* p) {
  const uint64_t bits = BigEndian(p, 8);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// ---- TO_FLOAT32(bytes) ----

Result<TypePtr> ToFloat32Check(const Types& a) {
  if (a.size() != 1 || !(Is(a[0], TypeKind::kBytes) || a[0]->IsNumeric())) return ArgError("TO_FLOAT32", a);
  return Type::Float32();
}
Result<Value> ToFloat32Eval(const Values& a, const EvalContext&) {
  if (a[0].kind() != TypeKind::kBytes) return Value::Float32(static_cast<float>(a[0].AsDouble()));
  if (a[0].str().size() != 4)
    return Status::OutOfRange(fmt::format("TO_FLOAT32 needs 4 bytes, got {}", a[0].str().size()));
  return Value::Float32(FloatAt(a[0].str().data()));
}

// ---- TO_VECTOR32(bytes), TO_VECTOR64(bytes) ----

Result<TypePtr> ToVector32Check(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_VECTOR32", a);
  return Type::Array(Type::Float32());
}
Result<TypePtr> ToVector64Check(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_VECTOR64", a);
  return Type::Array(Type::Float64());
}
template <size_t kWidth>
Result<Value> ToVectorEval(const Values& a, const EvalContext&) {
  const std::string& bytes = a[0].str();
  if (bytes.size() % kWidth != 0) {
    return Status::OutOfRange(
        fmt::format("TO_VECTOR{} needs a multiple of {} bytes, got {}", kWidth * 8, kWidth, bytes.size()));
  }
  Values out;
  out.reserve(bytes.size() / kWidth);
  for (size_t i = 0; i < bytes.size(); i += kWidth) {
    out.push_back(kWidth == 4 ? Value::Float32(FloatAt(bytes.data() + i)) : Value::Float64(DoubleAt(bytes.data() + i)));
  }
  return Value::Array(Type::Array(kWidth == 4 ? Type::Float32() : Type::Float64()), std::move(out));
}

// ---- COSINE_DISTANCE(a, b), EUCLIDEAN_DISTANCE(a, b) ----

Result<TypePtr> DistanceCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kArray) || !Is(a[1], TypeKind::kArray) || !a[0]->element->IsNumeric() ||
      !a[1]->element->IsNumeric()) {
    return ArgError("COSINE_DISTANCE", a);
  }
  return Type::Float64();
}

// The two vectors' numbers, checked.
Status Numbers(const Values& a, const char* fn, std::vector<double>* x, std::vector<double>* y) {
  const Values& p = a[0].elements();
  const Values& q = a[1].elements();
  if (p.size() != q.size()) {
    return Status::OutOfRange(
        fmt::format("{}: the vectors have different lengths ({} and {})", fn, p.size(), q.size()));
  }
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i].is_null() || q[i].is_null()) return Status::OutOfRange(fmt::format("{}: a vector has a NULL element", fn));
    x->push_back(p[i].AsDouble());
    y->push_back(q[i].AsDouble());
  }
  return Status::OK();
}

Result<Value> CosineEval(const Values& a, const EvalContext&) {
  std::vector<double> x, y;
  LBT_RETURN_IF_ERROR(Numbers(a, "COSINE_DISTANCE", &x, &y));
  double dot = 0, xx = 0, yy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    dot += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  if (xx == 0 || yy == 0) return Status::OutOfRange("COSINE_DISTANCE of a zero vector is undefined");
  return Value::Float64(1 - dot / (std::sqrt(xx) * std::sqrt(yy)));
}

Result<Value> EuclideanEval(const Values& a, const EvalContext&) {
  std::vector<double> x, y;
  LBT_RETURN_IF_ERROR(Numbers(a, "EUCLIDEAN_DISTANCE", &x, &y));
  double sum = 0;
  for (size_t i = 0; i < x.size(); ++i) sum += (x[i] - y[i]) * (x[i] - y[i]);
  return Value::Float64(std::sqrt(sum));
}

}  // namespace

void RegisterVectorFunctions(FunctionRegistry* registry) {
  registry->Add("TO_FLOAT32", ToFloat32Check, ToFloat32Eval);
  registry->Add("TO_VECTOR32", ToVector32Check, ToVectorEval<4>);
  registry->Add("TO_VECTOR64", ToVector64Check, ToVectorEval<8>);
  registry->Add("COSINE_DISTANCE", DistanceCheck, CosineEval);
  registry->Add("EUCLIDEAN_DISTANCE", DistanceCheck, EuclideanEval);
}

}  // namespace lbt::sql
