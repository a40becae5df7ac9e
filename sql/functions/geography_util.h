// What the geography families share (geography_functions.cc,
// geography_measures.cc, geography_transforms.cc): GEOGRAPHY values to
// shapes and back, and their signatures.

#ifndef LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_
#define LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_

#include <initializer_list>
#include <string_view>

#include "sql/functions/function_util.h"
#include "sql/geography/geography.h"

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

// INVALID_ARGUMENT "<fn> needs a <what>, got <kind of g>" (ST_X of a line).
Status GeoKindError(std::string_view fn, std::string_view what, const geo::Geography& g);

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_GEOGRAPHY_UTIL_H_
