// Statistical aggregates: CORR, COVAR_POP, COVAR_SAMP, STDDEV_POP,
// STDDEV_SAMP (STDDEV), VAR_POP and VAR_SAMP (VARIANCE), as GoogleSQL for
// Bigtable's "Statistical aggregate functions" page gives them. BigQuery's
// page for the same functions states the same rules and prints worked
// examples; the SQL corpus checks those answers.
//
// Every numeric input (INT64, FLOAT32, FLOAT64) counts as a FLOAT64 and
// every result is a FLOAT64. A row with a NULL argument (for CORR and the
// covariances, a pair with either NULL) is passed over. With no row left
// the result is NULL; with one, the sample forms and CORR are NULL and the
// population forms 0. A NaN or infinite input makes the result NaN.
//
// The moments are kept with Welford's online update (and its co-moment for
// the covariance), not as sums of squares: a sum of squares loses every
// digit of a variance that is small beside the mean, as timestamps' or
// counters' are.

#include <algorithm>
#include <cmath>
#include <limits>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

// The running moments of one group: counts, means, the sums of squared
// deviations from the means (m2) and the co-moment of the two series.
class Moments {
 public:
  // One pair; `y` is ignored by the one-argument aggregates. Welford's
  // update in its symmetric form: the deviations from the old means,
  // scaled by (n - 1) / n, then the means move. (The form that multiplies
  // an old deviation by a new one rounds the documented examples' last
  // digit differently; this one gives their printed answers.)
  void Add(double x, double y) {
    if (!std::isfinite(x) || !std::isfinite(y)) finite_ = false;
    ++n_;
    const double n = static_cast<double>(n_);
    const double dx = x - mean_x_;
    const double dy = y - mean_y_;
    const double weight = (n - 1) / n;
    m2_x_ += weight * dx * dx;
    m2_y_ += weight * dy * dy;
    co_moment_ += weight * dx * dy;
    mean_x_ += dx / n;
    mean_y_ += dy / n;
  }

  int64_t count() const { return n_; }
  bool finite() const { return finite_; }
  double m2_x() const { return m2_x_; }
  double m2_y() const { return m2_y_; }
  double co_moment() const { return co_moment_; }

 private:
  int64_t n_ = 0;
  bool finite_ = true;
  double mean_x_ = 0, mean_y_ = 0, m2_x_ = 0, m2_y_ = 0, co_moment_ = 0;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Value NullFloat64() { return Value::Null(Type::Float64()); }

// ---- VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP ----

class VarianceAccumulator final : public Accumulator {
 public:
  // `sample`: divide by n - 1 (and need two values); `root`: the standard
  // deviation.
  VarianceAccumulator(bool sample, bool root) : sample_(sample), root_(root) {}
  Status Add(const Values& a) override {
    if (!a[0].is_null()) moments_.Add(a[0].AsDouble(), 0);
    return Status::OK();
  }
  Value Finish() const override {
    const int64_t n = moments_.count();
    if (n == 0 || (sample_ && n < 2)) return NullFloat64();
    if (!moments_.finite()) return Value::Float64(kNaN);
    const double variance = moments_.m2_x() / static_cast<double>(sample_ ? n - 1 : n);
    return Value::Float64(root_ ? std::sqrt(variance) : variance);
  }

 private:
  bool sample_, root_;
  Moments moments_;
};

Result<TypePtr> OneNumberCheck(const Types& a) {
  // The binder names the function called (an alias included) in the error.
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("a statistical aggregate", a);
  return Type::Float64();
}
std::unique_ptr<Accumulator> CreateVarPop(const TypePtr&, const Types&) {
  return std::make_unique<VarianceAccumulator>(false, false);
}
std::unique_ptr<Accumulator> CreateVarSamp(const TypePtr&, const Types&) {
  return std::make_unique<VarianceAccumulator>(true, false);
}
std::unique_ptr<Accumulator> CreateStddevPop(const TypePtr&, const Types&) {
  return std::make_unique<VarianceAccumulator>(false, true);
}
std::unique_ptr<Accumulator> CreateStddevSamp(const TypePtr&, const Types&) {
  return std::make_unique<VarianceAccumulator>(true, true);
}

// ---- COVAR_POP, COVAR_SAMP, CORR ----

class PairAccumulator final : public Accumulator {
 public:
  enum class Kind { kCovarPop, kCovarSamp, kCorr };
  explicit PairAccumulator(Kind kind) : kind_(kind) {}
  Status Add(const Values& a) override {
    if (!a[0].is_null() && !a[1].is_null()) moments_.Add(a[0].AsDouble(), a[1].AsDouble());
    return Status::OK();
  }
  Value Finish() const override {
    const int64_t n = moments_.count();
    if (n == 0 || (kind_ != Kind::kCovarPop && n < 2)) return NullFloat64();
    if (!moments_.finite()) return Value::Float64(kNaN);
    if (kind_ != Kind::kCorr) {
      return Value::Float64(moments_.co_moment() / static_cast<double>(kind_ == Kind::kCovarSamp ? n - 1 : n));
    }
    // A series without variance has no correlation: NaN, as the page's
    // example of two equal pairs shows. The page also lists "covariance 0"
    // as giving NaN, but two series that vary without covarying have
    // Pearson's coefficient 0, which the page's own description calls "no
    // correlation": only a zero variance gives NaN here.
    if (moments_.m2_x() <= 0 || moments_.m2_y() <= 0) return Value::Float64(kNaN);
    const double r = moments_.co_moment() / std::sqrt(moments_.m2_x() * moments_.m2_y());
    return Value::Float64(std::clamp(r, -1.0, 1.0));
  }

 private:
  Kind kind_;
  Moments moments_;
};

Result<TypePtr> TwoNumbersCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("a statistical aggregate", a);
  return Type::Float64();
}
std::unique_ptr<Accumulator> CreateCovarPop(const TypePtr&, const Types&) {
  return std::make_unique<PairAccumulator>(PairAccumulator::Kind::kCovarPop);
}
std::unique_ptr<Accumulator> CreateCovarSamp(const TypePtr&, const Types&) {
  return std::make_unique<PairAccumulator>(PairAccumulator::Kind::kCovarSamp);
}
std::unique_ptr<Accumulator> CreateCorr(const TypePtr&, const Types&) {
  return std::make_unique<PairAccumulator>(PairAccumulator::Kind::kCorr);
}

}  // namespace

void RegisterStatisticalFunctions(FunctionRegistry* registry) {
  registry->AddAggregate("CORR", TwoNumbersCheck, CreateCorr);
  registry->AddAggregate("COVAR_POP", TwoNumbersCheck, CreateCovarPop);
  registry->AddAggregate("COVAR_SAMP", TwoNumbersCheck, CreateCovarSamp);
  registry->AddAggregate("STDDEV_POP", OneNumberCheck, CreateStddevPop);
  registry->AddAggregate("STDDEV_SAMP", OneNumberCheck, CreateStddevSamp);
  registry->AddAggregate("STDDEV", OneNumberCheck, CreateStddevSamp);
  registry->AddAggregate("VAR_POP", OneNumberCheck, CreateVarPop);
  registry->AddAggregate("VAR_SAMP", OneNumberCheck, CreateVarSamp);
  registry->AddAggregate("VARIANCE", OneNumberCheck, CreateVarSamp);
}

}  // namespace lbt::sql
