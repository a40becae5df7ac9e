// What the geography families share (geography_functions.cc,
// geography_measures.cc, geography_transforms.cc): GEOGRAPHY values to
// shapes and back, and their signatures.

#ifndef LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_
#define LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_

#include <initializer_list>
#include <optional>
#include <string_view>

#include "sql/functions/function_util.h"
#include "sql/geography/geography.h"
#include "sql/geography/geography_s2.h"

namespace lbt::sql {

inline geo::Geography Geo(const Value& v) { return geo::Decode(v.str()); }
inline Value GeoValue(const geo::Geography& g) { return Value::Geography(geo::Encode(g)); }

// An argument's kind in a geography function's signature.
enum class GeoArg { kGeography, kNumber, kInt, kString, kText, kBool, kGeographyArray };

// Whether `args` fit `want`, of which the first `required` must be given.
bool GeoSignature(const Types& args, std::initializer_list<GeoArg> want, size_t required);
// The check of a function whose signature is `want` and result `result`.
Result<TypePtr> GeoCheck(std::string_view fn, const Types& args, std::initializer_list<GeoArg> want, size_t required,
                         TypePtr result);

// The check of a function of one GEOGRAPHY whose result type is
// `ResultType()`.
template <const char* kName, TypePtr (*ResultType)()>
Result<TypePtr> OneGeographyCheck(const Types& args) {
  return GeoCheck(kName, args, {GeoArg::kGeography}, 1, ResultType());
}

// STRUCT<xmin, ymin, xmax, ymax FLOAT64>: ST_BOUNDINGBOX's and ST_EXTENT's.
TypePtr BoxType();
// `box` as a BoxType value; NULL for none.
Value BoxValue(const std::optional<geo::Box>& box);

// `status` with its message led by `fn`'s name (once): "ST_BUFFER: ...".
Status NamedError(std::string_view fn, const Status& status);
// `g` as a GEOGRAPHY value, or its error named by `fn`.
Result<Value> GeoResult(std::string_view fn, Result<geo::Geography> g);

// INVALID_ARGUMENT "<fn> needs a <what>, got <kind of g>" (ST_X of a line).
Status GeoKindError(std::string_view fn, std::string_view what, const geo::Geography& g);

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_
