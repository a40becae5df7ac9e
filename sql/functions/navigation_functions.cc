// Navigation functions, as GoogleSQL for Bigtable's "Navigation functions"
// page gives them: FIRST_VALUE, LAST_VALUE and NTH_VALUE read a row of the
// current row's frame; LEAD and LAG a row at an offset from it; and
// PERCENTILE_CONT and PERCENTILE_DISC a percentile of the partition.
//
// IGNORE NULLS skips NULL values (FIRST_VALUE, LAST_VALUE, NTH_VALUE and the
// percentiles, which ignore NULLs unless told RESPECT NULLS); offsets, n and
// percentiles are constants, and an out-of-range one is an error.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<TypePtr> CheckValue(const Types& a) {
  if (a.size() != 1) return ArgError("FIRST_VALUE", a);
  return a[0];
}

// The frame positions, in order, whose value is to be seen: all, or the
// non-NULL ones with IGNORE NULLS. Calls `fn(position)` on each until it
// returns true. Frames are short or the calls stop early (first, last).
template <typename Fn>
void ForFrame(const WindowPartition& p, size_t row, bool backwards, Fn fn) {
  const uint32_t begin = p.frame_begin[row], end = p.frame_end[row];
  for (uint32_t k = 0; begin + k < end; ++k) {
    const uint32_t at = backwards ? end - 1 - k : begin + k;
    if (p.ignore_nulls && p.args[at][0].is_null()) continue;
    if (fn(at)) return;
  }
}

// The i-th (0-based) visible value of each row's frame, from its start or
// its end.
Status NthOfFrame(const WindowPartition& p, Values* out, bool backwards, const std::vector<int64_t>& nth) {
  for (size_t i = 0; i < p.size; ++i) {
    (*out)[i] = Value::Null(p.args.empty() ? Type::Int64() : p.args[i][0].type());
    int64_t left = nth[i];
    ForFrame(p, i, backwards, [&](uint32_t at) {
      if (left-- > 0) return false;
      (*out)[i] = p.args[at][0];
      return true;
    });
  }
  return Status::OK();
}

Status FirstValue(const WindowPartition& p, Values* out) {
  return NthOfFrame(p, out, false, std::vector<int64_t>(p.size, 0));
}

Status LastValue(const WindowPartition& p, Values* out) {
  return NthOfFrame(p, out, true, std::vector<int64_t>(p.size, 0));
}

Result<TypePtr> CheckNthValue(const Types& a) {
  if (a.size() != 2 || !Is(a[1], TypeKind::kInt64)) return ArgError("NTH_VALUE", a);
  return a[0];
}

Status NthValue(const WindowPartition& p, Values* out) {
  if (p.size == 0) return Status::OK();
  const Value& n = p.args[0][1];
  if (n.is_null() || n.int64() < 1) {
    return Status::OutOfRange(
        fmt::format("NTH_VALUE's n must be a positive integer, not {}", n.is_null() ? "NULL" : n.ToText()));
  }
  return NthOfFrame(p, out, false, std::vector<int64_t>(p.size, n.int64() - 1));
}

Result<TypePtr> CheckShift(const Types& a) {
  if (a.empty() || a.size() > 3 || (a.size() >= 2 && !Is(a[1], TypeKind::kInt64)) ||
      (a.size() == 3 && !SameType(a[0], a[2]))) {
    return ArgError("LEAD", a);
  }
  return a[0];
}

// The value `offset` rows after (LEAD) or before (LAG) each row in its
// partition, or the default (NULL unless given) past the partition's end.
Status Shift(const WindowPartition& p, Values* out, const char* name, int direction) {
  if (p.size == 0) return Status::OK();
  int64_t offset = 1;
  if (p.args[0].size() >= 2) {
    const Value& v = p.args[0][1];
    if (v.is_null() || v.int64() < 0) {
      return Status::OutOfRange(fmt::format("The offset to {} must be a non-negative integer, not {}", name,
                                            v.is_null() ? "NULL" : v.ToText()));
    }
    offset = v.int64();
  }
  for (size_t i = 0; i < p.size; ++i) {
    const int64_t at = static_cast<int64_t>(i) + direction * std::min<int64_t>(offset, static_cast<int64_t>(p.size));
    if (at >= 0 && at < static_cast<int64_t>(p.size)) {
      (*out)[i] = p.args[static_cast<size_t>(at)][0];
    } else if (p.args[i].size() == 3) {
      (*out)[i] = p.args[i][2];
    } else {
      (*out)[i] = Value::Null(p.args[i][0].type());
    }
  }
  return Status::OK();
}

Status Lead(const WindowPartition& p, Values* out) { return Shift(p, out, "LEAD", 1); }
Status Lag(const WindowPartition& p, Values* out) { return Shift(p, out, "LAG", -1); }

Result<TypePtr> CheckPercentileCont(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("PERCENTILE_CONT", a);
  return Type::Float64();
}

Result<TypePtr> CheckPercentileDisc(const Types& a) {
  if (a.size() != 2 || !a[0]->IsOrderable() || !a[1]->IsNumeric()) return ArgError("PERCENTILE_DISC", a);
  return a[0];
}

// The partition's values in order (NULLs first, unless ignored) and the
// percentile asked for, checked to be in [0, 1].
Status SortedValues(const WindowPartition& p, const char* name, Values* sorted, double* percentile) {
  const Value& v = p.args[0][1];
  if (v.is_null() || !(v.AsDouble() >= 0 && v.AsDouble() <= 1)) {
    return Status::OutOfRange(
        fmt::format("{}'s percentile must be between 0 and 1, not {}", name, v.is_null() ? "NULL" : v.ToText()));
  }
  *percentile = v.AsDouble();
  for (const Values& args : p.args) {
    if (!args[0].is_null() || !p.ignore_nulls) sorted->push_back(args[0]);
  }
  std::sort(sorted->begin(), sorted->end(), [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  return Status::OK();
}

// Linear interpolation between the two values around the percentile's
// position; NULL when either is NULL (RESPECT NULLS) or there is none.
Status PercentileCont(const WindowPartition& p, Values* out) {
  if (p.size == 0) return Status::OK();
  Values sorted;
  double percentile = 0;
  LBT_RETURN_IF_ERROR(SortedValues(p, "PERCENTILE_CONT", &sorted, &percentile));
  Value result = Value::Null(Type::Float64());
  if (!sorted.empty()) {
    const double position = percentile * static_cast<double>(sorted.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(position));
    const size_t above = static_cast<size_t>(std::ceil(position));
    if (!sorted[below].is_null() && !sorted[above].is_null()) {
      const double low = sorted[below].AsDouble(), high = sorted[above].AsDouble();
      result = Value::Float64(below == above ? low : low + (position - static_cast<double>(below)) * (high - low));
    }
  }
  for (size_t i = 0; i < p.size; ++i) (*out)[i] = result;
  return Status::OK();
}

// The first value whose cumulative share of the values reaches the
// percentile (the first value for 0).
Status PercentileDisc(const WindowPartition& p, Values* out) {
  if (p.size == 0) return Status::OK();
  Values sorted;
  double percentile = 0;
  LBT_RETURN_IF_ERROR(SortedValues(p, "PERCENTILE_DISC", &sorted, &percentile));
  Value result = Value::Null(p.args[0][0].type());
  if (!sorted.empty()) {
    const double reach = std::ceil(percentile * static_cast<double>(sorted.size()));
    result = sorted[reach <= 1 ? 0 : static_cast<size_t>(reach) - 1];
  }
  for (size_t i = 0; i < p.size; ++i) (*out)[i] = result;
  return Status::OK();
}

WindowFunction Navigation(const char* name, Result<TypePtr> (*check)(const Types&),
                          Status (*compute)(const WindowPartition&, Values*)) {
  WindowFunction f;
  f.name = name;
  f.check = check;
  f.compute = compute;
  f.order = WindowFunction::Order::kRequired;
  return f;
}

}  // namespace

void RegisterNavigationFunctions(FunctionRegistry* registry) {
  auto framed = [](WindowFunction f) {
    f.frame = f.nulls = true;
    return f;
  };
  registry->AddWindow(framed(Navigation("FIRST_VALUE", CheckValue, FirstValue)));
  registry->AddWindow(framed(Navigation("LAST_VALUE", CheckValue, LastValue)));
  WindowFunction nth = framed(Navigation("NTH_VALUE", CheckNthValue, NthValue));
  nth.constant_args = {1};
  registry->AddWindow(std::move(nth));
  auto shift = [](WindowFunction f) {
    f.constant_args = {1};
    return f;
  };
  registry->AddWindow(shift(Navigation("LEAD", CheckShift, Lead)));
  registry->AddWindow(shift(Navigation("LAG", CheckShift, Lag)));
  auto percentile = [](WindowFunction f) {
    f.order = WindowFunction::Order::kNotAllowed;
    f.nulls = f.ignores_nulls = true;
    f.constant_args = {1};
    return f;
  };
  registry->AddWindow(percentile(Navigation("PERCENTILE_CONT", CheckPercentileCont, PercentileCont)));
  registry->AddWindow(percentile(Navigation("PERCENTILE_DISC", CheckPercentileDisc, PercentileDisc)));
}

}  // namespace lbt::sql
