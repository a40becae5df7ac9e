// Numbering functions, as GoogleSQL for Bigtable's "Numbering functions"
// page gives them: ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST
// and NTILE. Each numbers a row within its partition by the window's ORDER
// BY, rows with equal keys (peers) sharing a number, except ROW_NUMBER's.
// None takes a frame clause; all but ROW_NUMBER need an ORDER BY.

#include <fmt/format.h>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<TypePtr> NoArgsInt(const Types& a) {
  if (!a.empty()) return Status::InvalidArgument("No matching signature: the function takes no arguments");
  return Type::Int64();
}

Result<TypePtr> NoArgsFloat(const Types& a) {
  if (!a.empty()) return Status::InvalidArgument("No matching signature: the function takes no arguments");
  return Type::Float64();
}

Status RowNumber(const WindowPartition& p, Values* out) {
  for (size_t i = 0; i < p.size; ++i) (*out)[i] = Value::Int64(static_cast<int64_t>(i) + 1);
  return Status::OK();
}

// The rank is one more than the number of rows before the row's peers.
Status Rank(const WindowPartition& p, Values* out) {
  for (size_t i = 0; i < p.size; ++i) (*out)[i] = Value::Int64(static_cast<int64_t>(p.peer_begin[i]) + 1);
  return Status::OK();
}

// Peers share a rank, and the next group of peers takes the next one.
Status DenseRank(const WindowPartition& p, Values* out) {
  int64_t rank = 0;
  for (size_t i = 0; i < p.size; ++i) {
    if (p.peer_begin[i] == i) ++rank;
    (*out)[i] = Value::Int64(rank);
  }
  return Status::OK();
}

// (rank - 1) / (rows - 1), and 0 in a partition of one row.
Status PercentRank(const WindowPartition& p, Values* out) {
  for (size_t i = 0; i < p.size; ++i) {
    const double rank = static_cast<double>(p.peer_begin[i]);
    (*out)[i] = Value::Float64(p.size == 1 ? 0.0 : rank / static_cast<double>(p.size - 1));
  }
  return Status::OK();
}

// The share of rows ordered before the row or its peers' last.
Status CumeDist(const WindowPartition& p, Values* out) {
  for (size_t i = 0; i < p.size; ++i) {
    (*out)[i] = Value::Float64(static_cast<double>(p.peer_end[i]) / static_cast<double>(p.size));
  }
  return Status::OK();
}

Result<TypePtr> CheckNtile(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("NTILE", a);
  return Type::Int64();
}

// Buckets 1..n of sizes that differ by at most one, the larger first.
Status Ntile(const WindowPartition& p, Values* out) {
  if (p.size == 0) return Status::OK();
  const Value& n = p.args[0][0];
  if (n.is_null() || n.int64() <= 0) {
    return Status::OutOfRange(
        fmt::format("NTILE's argument must be a positive integer, not {}", n.is_null() ? "NULL" : n.ToText()));
  }
  const uint64_t buckets = static_cast<uint64_t>(n.int64());
  const uint64_t small = p.size / buckets;   // rows in each later bucket
  const uint64_t larger = p.size % buckets;  // buckets with one more row
  for (uint64_t i = 0; i < p.size; ++i) {
    uint64_t bucket;
    if (small == 0) {
      bucket = i;
    } else if (i < larger * (small + 1)) {
      bucket = i / (small + 1);
    } else {
      bucket = larger + (i - larger * (small + 1)) / small;
    }
    (*out)[i] = Value::Int64(static_cast<int64_t>(bucket) + 1);
  }
  return Status::OK();
}

WindowFunction Numbering(const char* name, Result<TypePtr> (*check)(const Types&),
                         Status (*compute)(const WindowPartition&, Values*), bool needs_order) {
  WindowFunction f;
  f.name = name;
  f.check = check;
  f.compute = compute;
  f.order = needs_order ? WindowFunction::Order::kRequired : WindowFunction::Order::kOptional;
  return f;
}

}  // namespace

void RegisterNumberingFunctions(FunctionRegistry* registry) {
  registry->AddWindow(Numbering("ROW_NUMBER", NoArgsInt, RowNumber, false));
  registry->AddWindow(Numbering("RANK", NoArgsInt, Rank, true));
  registry->AddWindow(Numbering("DENSE_RANK", NoArgsInt, DenseRank, true));
  registry->AddWindow(Numbering("PERCENT_RANK", NoArgsFloat, PercentRank, true));
  registry->AddWindow(Numbering("CUME_DIST", NoArgsFloat, CumeDist, true));
  WindowFunction ntile = Numbering("NTILE", CheckNtile, Ntile, true);
  ntile.constant_args = {0};
  registry->AddWindow(std::move(ntile));
}

}  // namespace lbt::sql
