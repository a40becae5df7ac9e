// GEOGRAPHY's measures and predicates: ST_AREA, ST_LENGTH, ST_PERIMETER,
// ST_DISTANCE, ST_MAXDISTANCE, ST_HAUSDORFFDISTANCE, ST_AZIMUTH, ST_ANGLE,
// ST_BOUNDINGBOX, ST_LINELOCATEPOINT; ST_CONTAINS, ST_COVERS, ST_COVEREDBY,
// ST_WITHIN, ST_INTERSECTS, ST_DISJOINT, ST_EQUALS, ST_TOUCHES, ST_DWITHIN,
// ST_HAUSDORFFDWITHIN, ST_INTERSECTSBOX; and the S2 cell functions,
// S2_CELLIDFROMPOINT and S2_COVERINGCELLIDS. On a sphere, as GoogleSQL's
// are: `use_spheroid => TRUE` is refused, as GoogleSQL refuses it.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include "sql/functions/geography_util.h"
#include "sql/functions/registry.h"
#include "sql/geography/geography_s2.h"

namespace lbt::sql {

namespace {

using geo::Geography;
using geo::LngLat;
using G = GeoArg;

Status CheckSphere(std::string_view fn, const Values& a, size_t at) {
  if (at < a.size() && !a[at].is_null() && a[at].boolean()) {
    return Status::InvalidArgument(fmt::format("{} supports only use_spheroid => FALSE", fn));
  }
  return Status::OK();
}

Value OptionalFloat(std::optional<double> v) { return v ? Value::Float64(*v) : Value::Null(Type::Float64()); }

// ---- measures of one geography ----

template <const char* kName>
Result<TypePtr> MeasureCheck(const Types& a) {
  return GeoCheck(kName, a, {G::kGeography, G::kBool}, 1, Type::Float64());
}
constexpr char kArea[] = "ST_AREA";
constexpr char kLength[] = "ST_LENGTH";
constexpr char kPerimeter[] = "ST_PERIMETER";

template <const char* kName, double (*F)(const Geography&)>
Result<Value> MeasureEval(const Values& a, const EvalContext&) {
  LBT_RETURN_IF_ERROR(CheckSphere(kName, a, 1));
  return Value::Float64(F(Geo(a[0])));
}

// ---- distances ----

template <const char* kName>
Result<TypePtr> DistanceCheck(const Types& a) {
  return GeoCheck(kName, a, {G::kGeography, G::kGeography, G::kBool}, 2, Type::Float64());
}
constexpr char kDistance[] = "ST_DISTANCE";
constexpr char kMaxDistance[] = "ST_MAXDISTANCE";

Result<Value> DistanceEval(const Values& a, const EvalContext&) {
  LBT_RETURN_IF_ERROR(CheckSphere("ST_DISTANCE", a, 2));
  return OptionalFloat(geo::Distance(Geo(a[0]), Geo(a[1])));
}
Result<Value> MaxDistanceEval(const Values& a, const EvalContext&) {
  LBT_RETURN_IF_ERROR(CheckSphere("ST_MAXDISTANCE", a, 2));
  return OptionalFloat(geo::MaxDistance(Geo(a[0]), Geo(a[1])));
}

Result<TypePtr> HausdorffCheck(const Types& a) {
  return GeoCheck("ST_HAUSDORFFDISTANCE", a, {G::kGeography, G::kGeography, G::kBool}, 2, Type::Float64());
}
Result<Value> HausdorffEval(const Values& a, const EvalContext&) {
  const bool directed = a.size() > 2 && !a[2].is_null() && a[2].boolean();
  return OptionalFloat(geo::HausdorffDistance(Geo(a[0]), Geo(a[1]), directed));
}

Result<TypePtr> HausdorffWithinCheck(const Types& a) {
  return GeoCheck("ST_HAUSDORFFDWITHIN", a, {G::kGeography, G::kGeography, G::kNumber, G::kBool}, 3, Type::Bool());
}
Result<Value> HausdorffWithinEval(const Values& a, const EvalContext&) {
  const bool directed = a.size() > 3 && !a[3].is_null() && a[3].boolean();
  if (std::isnan(a[2].AsDouble())) return Status::InvalidArgument("ST_HAUSDORFFDWITHIN's distance cannot be NaN");
  const std::optional<double> d = geo::HausdorffDistance(Geo(a[0]), Geo(a[1]), directed);
  if (!d) return Value::Bool(false);
  return Value::Bool(*d <= a[2].AsDouble());
}

// ---- directions ----

Result<LngLat> PointArgument(std::string_view fn, const Value& v) {
  const Geography g = Geo(v);
  const LngLat* p = g.SinglePoint();
  if (p == nullptr) return GeoKindError(fn, "single points", g);
  return *p;
}

Result<TypePtr> AzimuthCheck(const Types& a) {
  return GeoCheck("ST_AZIMUTH", a, {G::kGeography, G::kGeography}, 2, Type::Float64());
}
Result<Value> AzimuthEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(LngLat p1, PointArgument("ST_AZIMUTH", a[0]));
  LBT_ASSIGN_OR_RETURN(LngLat p2, PointArgument("ST_AZIMUTH", a[1]));
  return OptionalFloat(geo::Azimuth(p1, p2));
}

Result<TypePtr> AngleCheck(const Types& a) {
  return GeoCheck("ST_ANGLE", a, {G::kGeography, G::kGeography, G::kGeography}, 3, Type::Float64());
}
Result<Value> AngleEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(LngLat p1, PointArgument("ST_ANGLE", a[0]));
  LBT_ASSIGN_OR_RETURN(LngLat p2, PointArgument("ST_ANGLE", a[1]));
  LBT_ASSIGN_OR_RETURN(LngLat p3, PointArgument("ST_ANGLE", a[2]));
  return OptionalFloat(geo::Angle(p1, p2, p3));
}

Result<TypePtr> BoundingBoxCheck(const Types& a) {
  return GeoCheck("ST_BOUNDINGBOX", a, {G::kGeography}, 1, BoxType());
}
Result<Value> BoundingBoxEval(const Values& a, const EvalContext&) { return BoxValue(geo::BoundingBox(Geo(a[0]))); }

Result<TypePtr> LineLocatePointCheck(const Types& a) {
  return GeoCheck("ST_LINELOCATEPOINT", a, {G::kGeography, G::kGeography}, 2, Type::Float64());
}
Result<Value> LineLocatePointEval(const Values& a, const EvalContext&) {
  const Geography line = Geo(a[0]);
  if (line.SingleLine() == nullptr) return GeoKindError("ST_LINELOCATEPOINT", "a linestring", line);
  LBT_ASSIGN_OR_RETURN(LngLat p, PointArgument("ST_LINELOCATEPOINT", a[1]));
  return Value::Float64(geo::LocatePoint(*line.SingleLine(), p));
}

// ---- predicates ----

template <const char* kName>
Result<TypePtr> PredicateCheck(const Types& a) {
  return GeoCheck(kName, a, {G::kGeography, G::kGeography}, 2, Type::Bool());
}
constexpr char kContains[] = "ST_CONTAINS";
constexpr char kCovers[] = "ST_COVERS";
constexpr char kCoveredBy[] = "ST_COVEREDBY";
constexpr char kWithin[] = "ST_WITHIN";
constexpr char kIntersects[] = "ST_INTERSECTS";
constexpr char kDisjoint[] = "ST_DISJOINT";
constexpr char kEquals[] = "ST_EQUALS";
constexpr char kTouches[] = "ST_TOUCHES";

template <bool (*F)(const Geography&, const Geography&), bool kSwap = false, bool kNot = false>
Result<Value> PredicateEval(const Values& a, const EvalContext&) {
  const Geography x = Geo(a[0]), y = Geo(a[1]);
  const bool result = kSwap ? F(y, x) : F(x, y);
  return Value::Bool(kNot ? !result : result);
}

Result<TypePtr> DWithinCheck(const Types& a) {
  return GeoCheck("ST_DWITHIN", a, {G::kGeography, G::kGeography, G::kNumber, G::kBool}, 3, Type::Bool());
}
Result<Value> DWithinEval(const Values& a, const EvalContext&) {
  LBT_RETURN_IF_ERROR(CheckSphere("ST_DWITHIN", a, 3));
  if (std::isnan(a[2].AsDouble())) return Status::InvalidArgument("ST_DWITHIN's distance cannot be NaN");
  return Value::Bool(geo::WithinDistance(Geo(a[0]), Geo(a[1]), a[2].AsDouble()));
}

Result<TypePtr> IntersectsBoxCheck(const Types& a) {
  return GeoCheck("ST_INTERSECTSBOX", a, {G::kGeography, G::kNumber, G::kNumber, G::kNumber, G::kNumber}, 5,
                  Type::Bool());
}
Result<Value> IntersectsBoxEval(const Values& a, const EvalContext&) {
  for (size_t i = 1; i < 5; ++i) {
    if (!std::isfinite(a[i].AsDouble())) {
      return Status::InvalidArgument("ST_INTERSECTSBOX's longitudes and latitudes must be finite numbers");
    }
  }
  const double lat1 = a[2].AsDouble(), lat2 = a[4].AsDouble();
  if (lat1 < -90 || lat1 > 90 || lat2 < -90 || lat2 > 90) {
    return Status::InvalidArgument("ST_INTERSECTSBOX's latitudes must be between -90 and 90");
  }
  return Value::Bool(
      geo::IntersectsBox(Geo(a[0]), a[1].AsDouble(), std::min(lat1, lat2), a[3].AsDouble(), std::max(lat1, lat2)));
}

// ---- S2 cells ----

Result<TypePtr> CellIdCheck(const Types& a) {
  return GeoCheck("S2_CELLIDFROMPOINT", a, {G::kGeography, G::kInt}, 1, Type::Int64());
}
Result<Value> CellIdEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(LngLat p, PointArgument("S2_CELLIDFROMPOINT", a[0]));
  const int64_t level = a.size() > 1 ? a[1].int64() : 30;
  if (level < 0 || level > 30) return Status::InvalidArgument("S2_CELLIDFROMPOINT's level must be from 0 to 30");
  return Value::Int64(geo::CellIdFromPoint(p, static_cast<int>(level)));
}

Result<TypePtr> CoveringCheck(const Types& a) {
  return GeoCheck("S2_COVERINGCELLIDS", a, {G::kGeography, G::kInt, G::kInt, G::kInt, G::kNumber}, 1,
                  Type::Array(Type::Int64()));
}
Result<Value> CoveringEval(const Values& a, const EvalContext&) {
  geo::CoveringOptions options;
  if (a.size() > 1) options.min_level = static_cast<int>(std::clamp<int64_t>(a[1].int64(), -1, 31));
  if (a.size() > 2) options.max_level = static_cast<int>(std::clamp<int64_t>(a[2].int64(), -1, 31));
  if (a.size() > 3) options.max_cells = static_cast<int>(std::clamp<int64_t>(a[3].int64(), 0, 1 << 30));
  if (a.size() > 4) options.buffer_meters = a[4].AsDouble();
  if (options.min_level < 0 || options.max_level > 30 || options.min_level > options.max_level) {
    return Status::InvalidArgument("S2_COVERINGCELLIDS needs 0 <= min_level <= max_level <= 30");
  }
  if (options.max_cells < 1 || options.max_cells > geo::kMaxCoveringCells) {
    return Status::InvalidArgument(
        fmt::format("S2_COVERINGCELLIDS's max_cells must be from 1 to {}", geo::kMaxCoveringCells));
  }
  if (!(options.buffer_meters >= 0)) return Status::InvalidArgument("S2_COVERINGCELLIDS's buffer cannot be negative");
  Values out;
  LBT_ASSIGN_OR_RETURN(std::vector<int64_t> ids, geo::CoveringCellIds(Geo(a[0]), options));
  for (int64_t id : ids) out.push_back(Value::Int64(id));
  return Value::Array(Type::Array(Type::Int64()), std::move(out));
}

void RegisterPredicates(FunctionRegistry* r) {
  constexpr auto kIndependent = FunctionRegistry::Args::kIndependent;
  constexpr auto kMakeNull = FunctionRegistry::Nulls::kMakeNull;
  r->Add("ST_CONTAINS", PredicateCheck<kContains>, PredicateEval<geo::Contains>);
  r->Add("ST_COVERS", PredicateCheck<kCovers>, PredicateEval<geo::Covers>);
  r->Add("ST_COVEREDBY", PredicateCheck<kCoveredBy>, PredicateEval<geo::Covers, true>);
  r->Add("ST_WITHIN", PredicateCheck<kWithin>, PredicateEval<geo::Contains, true>);
  r->Add("ST_INTERSECTS", PredicateCheck<kIntersects>, PredicateEval<geo::Intersects>);
  r->Add("ST_DISJOINT", PredicateCheck<kDisjoint>, PredicateEval<geo::Intersects, false, true>);
  r->Add("ST_EQUALS", PredicateCheck<kEquals>, PredicateEval<geo::Equals>);
  r->Add("ST_TOUCHES", PredicateCheck<kTouches>, PredicateEval<geo::Touches>);
  r->Add("ST_DWITHIN", DWithinCheck, DWithinEval, kMakeNull, kIndependent);
  r->NameArguments("ST_DWITHIN", 3, {{"use_spheroid", Value::Bool(false)}});
  r->Add("ST_HAUSDORFFDWITHIN", HausdorffWithinCheck, HausdorffWithinEval, kMakeNull, kIndependent);
  r->NameArguments("ST_HAUSDORFFDWITHIN", 3, {{"directed", Value::Bool(false)}});
  r->Add("ST_INTERSECTSBOX", IntersectsBoxCheck, IntersectsBoxEval, kMakeNull, kIndependent);
}

}  // namespace

void RegisterGeographyMeasures(FunctionRegistry* r) {
  constexpr auto kIndependent = FunctionRegistry::Args::kIndependent;
  constexpr auto kMakeNull = FunctionRegistry::Nulls::kMakeNull;
  const NamedArguments spheroid = {{"use_spheroid", Value::Bool(false)}};
  r->Add("ST_AREA", MeasureCheck<kArea>, MeasureEval<kArea, geo::Area>, kMakeNull, kIndependent);
  r->NameArguments("ST_AREA", 1, spheroid);
  r->Add("ST_LENGTH", MeasureCheck<kLength>, MeasureEval<kLength, geo::Length>, kMakeNull, kIndependent);
  r->NameArguments("ST_LENGTH", 1, spheroid);
  r->Add("ST_PERIMETER", MeasureCheck<kPerimeter>, MeasureEval<kPerimeter, geo::Perimeter>, kMakeNull, kIndependent);
  r->NameArguments("ST_PERIMETER", 1, spheroid);
  r->Add("ST_DISTANCE", DistanceCheck<kDistance>, DistanceEval, kMakeNull, kIndependent);
  r->NameArguments("ST_DISTANCE", 2, spheroid);
  r->Add("ST_MAXDISTANCE", DistanceCheck<kMaxDistance>, MaxDistanceEval, kMakeNull, kIndependent);
  r->NameArguments("ST_MAXDISTANCE", 2, spheroid);
  r->Add("ST_HAUSDORFFDISTANCE", HausdorffCheck, HausdorffEval, kMakeNull, kIndependent);
  r->NameArguments("ST_HAUSDORFFDISTANCE", 2, {{"directed", Value::Bool(false)}});
  r->Add("ST_AZIMUTH", AzimuthCheck, AzimuthEval);
  r->Add("ST_ANGLE", AngleCheck, AngleEval);
  r->Add("ST_BOUNDINGBOX", BoundingBoxCheck, BoundingBoxEval);
  r->Add("ST_LINELOCATEPOINT", LineLocatePointCheck, LineLocatePointEval);
  RegisterPredicates(r);
  r->Add("S2_CELLIDFROMPOINT", CellIdCheck, CellIdEval, kMakeNull, kIndependent);
  r->NameArguments("S2_CELLIDFROMPOINT", 1, {{"level", Value::Int64(30)}});
  r->Add("S2_COVERINGCELLIDS", CoveringCheck, CoveringEval, kMakeNull, kIndependent);
  r->NameArguments("S2_COVERINGCELLIDS", 1,
                   {{"min_level", Value::Int64(0)},
                    {"max_level", Value::Int64(30)},
                    {"max_cells", Value::Int64(8)},
                    {"buffer", Value::Float64(0)}});
}

}  // namespace lbt::sql
