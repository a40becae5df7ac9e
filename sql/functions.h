// The scalar functions and aggregates a query can call, by name. Their
// code lives in sql/functions/, one family a file, each registered in
// FunctionRegistry::Builtins() (sql/functions/registry.h).
//
// A function checks its argument types when the query is bound (an unknown
// function or a wrong argument type is INVALID_ARGUMENT before any row is
// read) and computes a value per row. Unless it says otherwise, a NULL
// argument makes the result NULL without calling it.

#ifndef LBT_SQL_FUNCTIONS_H_
#define LBT_SQL_FUNCTIONS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "sql/value.h"
#include "util/bytes.h"

namespace lbt::sql {

// The largest STRING, BYTES or ARRAY a function may compute: Bigtable's
// largest cell value. Functions that could build more (REPEAT, REPLACE,
// CONCAT, ARRAY_AGG, ...) refuse before they allocate, with OUT_OF_RANGE.
inline constexpr size_t kMaxComputedBytes = 100 << 20;

// About the bytes `v` holds: its text, or its elements' and entries'.
size_t ValueBytes(const Value& v);
// OUT_OF_RANGE naming `what` once `bytes` exceeds kMaxComputedBytes.
Status CheckComputedBytes(double bytes, std::string_view what);

struct EvalContext {
  int64_t now_micros = 0;  // CURRENT_TIMESTAMP, fixed for the query
};

// Argument names and their defaults (nullopt: no default), in order.
using NamedArguments = std::vector<std::pair<std::string, std::optional<Value>>>;

struct Function {
  std::string name;
  // The result type for these argument types, or InvalidArgument.
  Result<TypePtr> (*check)(const std::vector<TypePtr>& args);
  Result<Value> (*eval)(const Values& args, const EvalContext& ctx);
  bool handles_nulls = false;  // called with NULL arguments too
  // Arguments of unrelated types (FORMAT's): a literal is not given the
  // type of the others, as `STARTS_WITH(_key, 'a')`'s 'a' is.
  bool independent_args = false;
  // The arguments a call may name (`ST_GEOGFROMTEXT(t, make_valid => TRUE)`),
  // in their positions from `first_named` on, each with the value it
  // takes when a call names a later one but not it (none: the call must
  // give it).
  size_t first_named = 0;
  NamedArguments named;
};

// An aggregate's running state for one group.
class Accumulator {
 public:
  virtual ~Accumulator() = default;
  // `args` are the aggregate's arguments for one row (none for COUNT(*)).
  virtual Status Add(const Values& args) = 0;
  virtual Value Finish() const = 0;
};

struct AggregateFunction {
  std::string name;
  Result<TypePtr> (*check)(const std::vector<TypePtr>& args);
  std::unique_ptr<Accumulator> (*create)(const TypePtr& result, const std::vector<TypePtr>& args);
};

// One partition of a window's rows, in the window's ORDER BY order: what
// a window function computes its results from. Positions are within the
// partition.
struct WindowPartition {
  size_t size = 0;
  std::vector<Values> args;  // each row's arguments
  // Each row's peers (the rows whose ORDER BY keys equal its own, itself
  // included): [peer_begin, peer_end). Without ORDER BY, all the rows.
  std::vector<uint32_t> peer_begin, peer_end;
  // Each row's frame, [frame_begin, frame_end), for a function that takes
  // one; empty otherwise.
  std::vector<uint32_t> frame_begin, frame_end;
  bool ignore_nulls = false;
};

// A function only a window calls: numbering (ROW_NUMBER, RANK, ...) and
// navigation (LEAD, FIRST_VALUE, PERCENTILE_CONT, ...). An aggregate
// called with OVER is not one: it aggregates each row's frame.
struct WindowFunction {
  enum class Order { kOptional, kRequired, kNotAllowed };
  std::string name;
  Result<TypePtr> (*check)(const std::vector<TypePtr>& args);
  // Sets (*out)[i] for each row i of `p`. REQUIRES: out->size() == p.size.
  Status (*compute)(const WindowPartition& p, Values* out);
  Order order = Order::kOptional;  // whether the window's ORDER BY is needed
  bool frame = false;              // takes a frame clause
  bool nulls = false;              // takes IGNORE NULLS / RESPECT NULLS
  bool ignores_nulls = false;      // IGNORE NULLS unless told RESPECT NULLS
  // Arguments that must be constants (NTILE's bucket count, LEAD's offset).
  std::vector<size_t> constant_args;
};

// nullptr when there is no such function (names are upper case).
const Function* FindFunction(std::string_view name);
const AggregateFunction* FindAggregate(std::string_view name);
const WindowFunction* FindWindowFunction(std::string_view name);

// CAST and SAFE_CAST: `safe` turns a failed conversion into NULL.
Result<Value> CastValue(const Value& v, const TypePtr& to, bool safe);
// CAST of STRING text to `to`, without the text first becoming a Value.
Result<Value> CastString(std::string_view text, const TypePtr& to, bool safe);
// CAST(text AS INT64/FLOAT32/FLOAT64) into *out when the text is a plain
// decimal number, the common case, without a detour; false for anything
// else (CastString then decides, with its errors).
bool ParsePlainNumber(std::string_view text, TypeKind to, Value* out);
// What CAST(bytes AS STRING) fails with when the bytes are not UTF-8.
inline constexpr const char* kInvalidUtf8Cast = "Invalid UTF-8 in a BYTES value cast to STRING";
// Whether CAST(from AS to) is allowed at all.
bool CanCast(const TypePtr& from, const TypePtr& to);

// LIKE over bytes or strings: % any run, _ one character (byte for BYTES),
// \ escapes the next character.
bool Like(std::string_view text, std::string_view pattern, bool utf8);

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_H_
