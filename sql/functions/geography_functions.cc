// GEOGRAPHY's constructors, parsers, formatters and accessors: ST_GEOGPOINT,
// ST_MAKELINE, ST_MAKEPOLYGON(ORIENTED); ST_GEOGFROM(TEXT, WKB, GEOJSON,
// KML), ST_GEOGPOINTFROMGEOHASH; ST_ASTEXT, ST_ASBINARY, ST_ASGEOJSON,
// ST_ASKML, ST_GEOHASH; ST_DIMENSION, ST_DUMP(POINTS), ST_STARTPOINT,
// ST_ENDPOINT, ST_POINTN, ST_GEOMETRYTYPE, ST_IS*, ST_N(UM)POINTS,
// ST_NUMGEOMETRIES, ST_X, ST_Y. Every one returns NULL for a NULL argument.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "sql/functions/geography_util.h"
#include "sql/functions/registry.h"
#include "sql/geography/geography_formats.h"
#include "sql/geography/geography_s2.h"

namespace lbt::sql {

bool GeoSignature(const Types& args, std::initializer_list<GeoArg> want, size_t required) {
  if (args.size() < required || args.size() > want.size()) return false;
  size_t i = 0;
  for (GeoArg kind : want) {
    if (i == args.size()) break;
    const TypePtr& t = args[i++];
    switch (kind) {
      case GeoArg::kGeography:
        if (!Is(t, TypeKind::kGeography)) return false;
        break;
      case GeoArg::kNumber:
        if (!t->IsNumeric()) return false;
        break;
      case GeoArg::kInt:
        if (!Is(t, TypeKind::kInt64)) return false;
        break;
      case GeoArg::kString:
        if (!Is(t, TypeKind::kString)) return false;
        break;
      case GeoArg::kText:
        if (!IsText(t)) return false;
        break;
      case GeoArg::kBool:
        if (!Is(t, TypeKind::kBool)) return false;
        break;
      case GeoArg::kGeographyArray:
        if (!Is(t, TypeKind::kArray) || !Is(t->element, TypeKind::kGeography)) return false;
        break;
    }
  }
  return true;
}

Result<TypePtr> GeoCheck(std::string_view fn, const Types& args, std::initializer_list<GeoArg> want, size_t required,
                         TypePtr result) {
  if (!GeoSignature(args, want, required)) return ArgError(fn, args);
  return result;
}

TypePtr BoxType() {
  static const TypePtr type = Type::Struct(
      {{"xmin", Type::Float64()}, {"ymin", Type::Float64()}, {"xmax", Type::Float64()}, {"ymax", Type::Float64()}});
  return type;
}

Value BoxValue(const std::optional<geo::Box>& box) {
  if (!box) return Value::Null(BoxType());
  return Value::Struct(BoxType(), {Value::Float64(box->xmin), Value::Float64(box->ymin), Value::Float64(box->xmax),
                                   Value::Float64(box->ymax)});
}

Status NamedError(std::string_view fn, const Status& status) {
  if (status.message().starts_with(fn)) return status;
  return Status::FromCode(status.code(), fmt::format("{}: {}", fn, status.message()));
}

Result<Value> GeoResult(std::string_view fn, Result<geo::Geography> g) {
  if (!g.ok()) return NamedError(fn, g.status());
  return GeoValue(*g);
}

Status GeoKindError(std::string_view fn, std::string_view what, const geo::Geography& g) {
  const char* kind = g.empty()                    ? "an empty geography"
                     : g.SinglePoint() != nullptr ? "a point"
                     : g.SingleLine() != nullptr  ? "a linestring"
                     : g.NumParts() == 1          ? "a polygon"
                                                  : "a collection";
  return Status::InvalidArgument(fmt::format("{} needs {}, got {}", fn, what, kind));
}

namespace {

using geo::Geography;
using geo::LngLat;
using G = GeoArg;

Value GeoArray(const std::vector<Geography>& parts) {
  Values out;
  for (const Geography& g : parts) out.push_back(GeoValue(g));
  return Value::Array(Type::Array(Type::Geography()), std::move(out));
}

bool Flag(const Values& a, size_t i) { return i < a.size() && !a[i].is_null() && a[i].boolean(); }

// `g` normalized, or `fn`'s error naming the fault.
Result<Value> Made(std::string_view fn, Geography g, const geo::ShapeOptions& options = {}) {
  return GeoResult(fn, geo::Normalize(std::move(g), options));
}

// ---- constructors ----

Result<TypePtr> GeogPointCheck(const Types& a) {
  return GeoCheck("ST_GEOGPOINT", a, {G::kNumber, G::kNumber}, 2, Type::Geography());
}
Result<Value> GeogPointEval(const Values& a, const EvalContext&) {
  double lng = a[0].AsDouble();
  const double lat = a[1].AsDouble();
  // Longitudes outside [-180, 180] wrap around; latitudes must be in range.
  if (std::isfinite(lng) && (lng < -180 || lng > 180)) {
    lng = std::remainder(lng, 360.0);
    if (lng == -180 && a[0].AsDouble() > 0) lng = 180;
  }
  return Made("ST_GEOGPOINT", Geography{{{lng, lat}}, {}, {}});
}

Status AppendToLine(const Geography& g, geo::Line* line) {
  if (g.empty()) return Status::OK();
  if (const LngLat* p = g.SinglePoint()) {
    line->push_back(*p);
  } else if (const geo::Line* l = g.SingleLine()) {
    line->insert(line->end(), l->begin(), l->end());
  } else {
    return GeoKindError("ST_MAKELINE", "points or linestrings", g);
  }
  return Status::OK();
}

Result<TypePtr> MakeLineCheck(const Types& a) {
  if (GeoSignature(a, {G::kGeographyArray}, 1)) return Type::Geography();
  return GeoCheck("ST_MAKELINE", a, {G::kGeography, G::kGeography}, 2, Type::Geography());
}
Result<Value> MakeLineEval(const Values& a, const EvalContext&) {
  geo::Line line;
  if (a.size() == 2) {
    LBT_RETURN_IF_ERROR(AppendToLine(Geo(a[0]), &line));
    LBT_RETURN_IF_ERROR(AppendToLine(Geo(a[1]), &line));
  } else {
    for (const Value& v : a[0].elements()) {
      if (v.is_null()) return Value::Null(Type::Geography());
      LBT_RETURN_IF_ERROR(AppendToLine(Geo(v), &line));
    }
  }
  return Made("ST_MAKELINE", Geography{{}, {line}, {}});
}

Result<geo::Ring> RingOf(std::string_view fn, const Value& v) {
  const Geography g = Geo(v);
  const geo::Line* line = g.SingleLine();
  if (line == nullptr) return GeoKindError(fn, "linestrings", g);
  geo::Ring ring = *line;
  if (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
  return ring;
}

Result<TypePtr> MakePolygonCheck(const Types& a) {
  return GeoCheck("ST_MAKEPOLYGON", a, {G::kGeography, G::kGeographyArray}, 1, Type::Geography());
}
Result<Value> MakePolygonEval(const Values& a, const EvalContext&) {
  geo::Polygon polygon;
  LBT_ASSIGN_OR_RETURN(geo::Ring shell, RingOf("ST_MAKEPOLYGON", a[0]));
  polygon.push_back(std::move(shell));
  if (a.size() > 1) {
    for (const Value& hole : a[1].elements()) {
      if (hole.is_null()) return Value::Null(Type::Geography());
      LBT_ASSIGN_OR_RETURN(geo::Ring ring, RingOf("ST_MAKEPOLYGON", hole));
      polygon.push_back(std::move(ring));
    }
  }
  return Made("ST_MAKEPOLYGON", Geography{{}, {}, {polygon}});
}

Result<TypePtr> MakePolygonOrientedCheck(const Types& a) {
  return GeoCheck("ST_MAKEPOLYGONORIENTED", a, {G::kGeographyArray}, 1, Type::Geography());
}
Result<Value> MakePolygonOrientedEval(const Values& a, const EvalContext&) {
  geo::Polygon polygon;
  for (const Value& ring_value : a[0].elements()) {
    if (ring_value.is_null()) return Value::Null(Type::Geography());
    LBT_ASSIGN_OR_RETURN(geo::Ring ring, RingOf("ST_MAKEPOLYGONORIENTED", ring_value));
    polygon.push_back(std::move(ring));
  }
  if (polygon.empty()) return GeoValue(Geography{});
  return Made("ST_MAKEPOLYGONORIENTED", Geography{{}, {}, {polygon}}, {.oriented = true});
}

// ---- parsers ----

Result<Value> Finish(std::string_view fn, Result<Geography> parsed, bool oriented, bool planar, bool make_valid) {
  if (oriented && (planar || make_valid)) {
    return Status::InvalidArgument(
        fmt::format("{}: oriented => TRUE cannot be combined with planar => TRUE or make_valid => TRUE", fn));
  }
  if (!parsed.ok()) return NamedError(fn, parsed.status());
  Geography g = std::move(parsed).value();
  if (planar) g = geo::TessellatePlanar(g);
  Result<Geography> normal = geo::Normalize(g, {.oriented = oriented});
  if (!normal.ok() && make_valid) normal = geo::MakeValid(g);
  return GeoResult(fn, std::move(normal));
}

Result<TypePtr> FromTextCheck(const Types& a) {
  return GeoCheck("ST_GEOGFROMTEXT", a, {G::kString, G::kBool, G::kBool, G::kBool}, 1, Type::Geography());
}
Result<Value> FromTextEval(const Values& a, const EvalContext&) {
  return Finish("ST_GEOGFROMTEXT", geo::ParseWkt(a[0].str(), Flag(a, 3)), Flag(a, 1), Flag(a, 2), Flag(a, 3));
}

bool IsHex(std::string_view s) {
  if (s.empty() || s.size() % 2 != 0) return false;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string FromHex(std::string_view s) {
  std::string out;
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16)));
  return out;
}

Result<Geography> ParseWkbArgument(const Value& v) {
  if (v.kind() == TypeKind::kBytes) return geo::ParseWkb(v.str());
  if (!IsHex(v.str())) return Status::InvalidArgument("ST_GEOGFROMWKB needs BYTES or a STRING of hexadecimal digits");
  return geo::ParseWkb(FromHex(v.str()));
}

Result<TypePtr> FromWkbCheck(const Types& a) {
  return GeoCheck("ST_GEOGFROMWKB", a, {G::kText, G::kBool, G::kBool, G::kBool}, 1, Type::Geography());
}
Result<Value> FromWkbEval(const Values& a, const EvalContext&) {
  return Finish("ST_GEOGFROMWKB", ParseWkbArgument(a[0]), Flag(a, 1), Flag(a, 2), Flag(a, 3));
}

Result<TypePtr> FromGeoJsonCheck(const Types& a) {
  return GeoCheck("ST_GEOGFROMGEOJSON", a, {G::kString, G::kBool}, 1, Type::Geography());
}
Result<Value> FromGeoJsonEval(const Values& a, const EvalContext&) {
  return Finish("ST_GEOGFROMGEOJSON", geo::ParseGeoJson(a[0].str()), false, false, Flag(a, 1));
}

Result<TypePtr> FromKmlCheck(const Types& a) {
  return GeoCheck("ST_GEOGFROMKML", a, {G::kString}, 1, Type::Geography());
}
Result<Value> FromKmlEval(const Values& a, const EvalContext&) {
  return Finish("ST_GEOGFROMKML", geo::ParseKml(a[0].str()), false, false, false);
}

Result<TypePtr> FromCheck(const Types& a) {
  if (GeoSignature(a, {G::kGeography}, 1)) return Type::Geography();
  return GeoCheck("ST_GEOGFROM", a, {G::kText}, 1, Type::Geography());
}
Result<Value> FromEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kGeography) return a[0];
  if (a[0].kind() == TypeKind::kBytes) return Finish("ST_GEOGFROM", geo::ParseWkb(a[0].str()), false, false, false);
  std::string_view text = a[0].str();
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (!text.empty() && text.front() == '{') return Finish("ST_GEOGFROM", geo::ParseGeoJson(text), false, false, false);
  if (IsHex(text)) return Finish("ST_GEOGFROM", geo::ParseWkb(FromHex(text)), false, false, false);
  return Finish("ST_GEOGFROM", geo::ParseWkt(text), false, false, false);
}

Result<TypePtr> PointFromGeohashCheck(const Types& a) {
  return GeoCheck("ST_GEOGPOINTFROMGEOHASH", a, {G::kString}, 1, Type::Geography());
}
Result<Value> PointFromGeohashEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(LngLat p, geo::FromGeohash(a[0].str()));
  return GeoValue(Geography{{p}, {}, {}});
}

// ---- formatters ----

constexpr char kAsText[] = "ST_ASTEXT";
constexpr char kAsGeoJson[] = "ST_ASGEOJSON";
constexpr char kAsKml[] = "ST_ASKML";
Result<Value> AsTextEval(const Values& a, const EvalContext&) { return Value::String(geo::FormatWkt(Geo(a[0]))); }
Result<Value> AsGeoJsonEval(const Values& a, const EvalContext&) {
  return Value::String(geo::FormatGeoJson(Geo(a[0])));
}
Result<Value> AsKmlEval(const Values& a, const EvalContext&) { return Value::String(geo::FormatKml(Geo(a[0]))); }

Result<TypePtr> AsBinaryCheck(const Types& a) { return GeoCheck("ST_ASBINARY", a, {G::kGeography}, 1, Type::Bytes()); }
Result<Value> AsBinaryEval(const Values& a, const EvalContext&) { return Value::Bytes(geo::FormatWkb(Geo(a[0]))); }

Result<TypePtr> GeohashCheck(const Types& a) {
  return GeoCheck("ST_GEOHASH", a, {G::kGeography, G::kInt}, 1, Type::String());
}
Result<Value> GeohashEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  if (g.empty()) return Value::Null(Type::String());
  const LngLat* p = g.SinglePoint();
  if (p == nullptr) return GeoKindError("ST_GEOHASH", "a single point", g);
  // maxchars outside [1, 20] is taken as unspecified: 20.
  int64_t max_chars = a.size() > 1 ? a[1].int64() : 20;
  if (max_chars < 1 || max_chars > 20) max_chars = 20;
  return Value::String(geo::Geohash(*p, static_cast<int>(max_chars)));
}

// ---- accessors ----

constexpr char kDimension[] = "ST_DIMENSION";
constexpr char kNumPoints[] = "ST_NUMPOINTS";
constexpr char kNumGeometries[] = "ST_NUMGEOMETRIES";
constexpr char kIsClosed[] = "ST_ISCLOSED";
constexpr char kIsCollection[] = "ST_ISCOLLECTION";
constexpr char kIsEmpty[] = "ST_ISEMPTY";
constexpr char kIsRing[] = "ST_ISRING";
constexpr char kGeometryType[] = "ST_GEOMETRYTYPE";
constexpr char kStartPoint[] = "ST_STARTPOINT";
constexpr char kEndPoint[] = "ST_ENDPOINT";
constexpr char kX[] = "ST_X";
constexpr char kY[] = "ST_Y";

Result<Value> DimensionEval(const Values& a, const EvalContext&) { return Value::Int64(Geo(a[0]).Dimension()); }
Result<Value> NumPointsEval(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(Geo(a[0]).NumVertices()));
}
Result<Value> NumGeometriesEval(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(Geo(a[0]).NumParts()));
}
Result<Value> IsCollectionEval(const Values& a, const EvalContext&) { return Value::Bool(Geo(a[0]).NumParts() > 1); }
Result<Value> IsEmptyEval(const Values& a, const EvalContext&) { return Value::Bool(Geo(a[0]).empty()); }

Result<Value> IsClosedEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  // A polygon is closed only when it is the full globe, which lbt has not.
  if (g.empty() || !g.polygons.empty()) return Value::Bool(false);
  for (const geo::Line& line : g.lines) {
    if (!(line.front() == line.back())) return Value::Bool(false);
  }
  return Value::Bool(true);
}

Result<Value> IsRingEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  const geo::Line* line = g.SingleLine();
  if (line == nullptr || !(line->front() == line->back())) return Value::Bool(false);
  return Value::Bool(geo::IsSimple(*line));
}

Result<Value> GeometryTypeEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  const int kinds = !g.points.empty() + !g.lines.empty() + !g.polygons.empty();
  if (kinds != 1) return Value::String("ST_GeometryCollection");
  if (!g.points.empty()) return Value::String(g.points.size() == 1 ? "ST_Point" : "ST_MultiPoint");
  if (!g.lines.empty()) return Value::String(g.lines.size() == 1 ? "ST_LineString" : "ST_MultiLineString");
  return Value::String(g.polygons.size() == 1 ? "ST_Polygon" : "ST_MultiPolygon");
}

Result<TypePtr> DumpCheck(const Types& a) {
  return GeoCheck("ST_DUMP", a, {G::kGeography, G::kInt}, 1, Type::Array(Type::Geography()));
}
Result<Value> DumpEval(const Values& a, const EvalContext&) {
  std::vector<Geography> parts = Geo(a[0]).Parts();
  if (a.size() > 1) {
    const int64_t dimension = a[1].int64();
    if (dimension < -1 || dimension > 2) return Status::InvalidArgument("ST_DUMP's dimension must be -1, 0, 1 or 2");
    if (dimension >= 0) std::erase_if(parts, [&](const Geography& part) { return part.Dimension() != dimension; });
  }
  return GeoArray(parts);
}

Result<TypePtr> DumpPointsCheck(const Types& a) {
  return GeoCheck("ST_DUMPPOINTS", a, {G::kGeography}, 1, Type::Array(Type::Geography()));
}
Result<Value> DumpPointsEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  std::vector<Geography> points;
  auto add = [&points](const LngLat& p) { points.push_back(Geography{{p}, {}, {}}); };
  for (const LngLat& p : g.points) add(p);
  for (const geo::Line& line : g.lines) {
    for (const LngLat& p : line) add(p);
  }
  for (const geo::Polygon& polygon : g.polygons) {
    for (const geo::Ring& ring : polygon) {
      for (const LngLat& p : ring) add(p);
      add(ring.front());
    }
  }
  return GeoArray(points);
}

Result<Value> LinePoint(std::string_view fn, const Value& v, int64_t index) {
  const Geography g = Geo(v);
  const geo::Line* line = g.SingleLine();
  if (line == nullptr) return GeoKindError(fn, "a linestring", g);
  const int64_t n = static_cast<int64_t>(line->size());
  const int64_t at = index > 0 ? index - 1 : n + index;
  if (index == 0 || at < 0 || at >= n) {
    return Status::InvalidArgument(fmt::format("{}: the line has no vertex at index {} (it has {})", fn, index, n));
  }
  return GeoValue(Geography{{(*line)[at]}, {}, {}});
}
Result<Value> StartPointEval(const Values& a, const EvalContext&) { return LinePoint("ST_STARTPOINT", a[0], 1); }
Result<Value> EndPointEval(const Values& a, const EvalContext&) { return LinePoint("ST_ENDPOINT", a[0], -1); }

Result<TypePtr> PointNCheck(const Types& a) {
  return GeoCheck("ST_POINTN", a, {G::kGeography, G::kInt}, 2, Type::Geography());
}
Result<Value> PointNEval(const Values& a, const EvalContext&) { return LinePoint("ST_POINTN", a[0], a[1].int64()); }

template <bool kLongitude>
Result<Value> CoordinateEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  const LngLat* p = g.SinglePoint();
  if (p == nullptr) return GeoKindError(kLongitude ? "ST_X" : "ST_Y", "a single point", g);
  return Value::Float64(kLongitude ? p->lng : p->lat);
}

void RegisterConstructorsAndParsers(FunctionRegistry* r) {
  constexpr auto kIndependent = FunctionRegistry::Args::kIndependent;
  constexpr auto kMakeNull = FunctionRegistry::Nulls::kMakeNull;
  r->Add("ST_GEOGPOINT", GeogPointCheck, GeogPointEval, kMakeNull, kIndependent);
  r->Add("ST_MAKELINE", MakeLineCheck, MakeLineEval);
  r->Add("ST_MAKEPOLYGON", MakePolygonCheck, MakePolygonEval, kMakeNull, kIndependent);
  r->Add("ST_MAKEPOLYGONORIENTED", MakePolygonOrientedCheck, MakePolygonOrientedEval);
  r->Add("ST_GEOGFROMTEXT", FromTextCheck, FromTextEval, kMakeNull, kIndependent);
  r->NameArguments(
      "ST_GEOGFROMTEXT", 1,
      {{"oriented", Value::Bool(false)}, {"planar", Value::Bool(false)}, {"make_valid", Value::Bool(false)}});
  r->Add("ST_GEOGFROMWKB", FromWkbCheck, FromWkbEval, kMakeNull, kIndependent);
  r->NameArguments(
      "ST_GEOGFROMWKB", 1,
      {{"oriented", Value::Bool(false)}, {"planar", Value::Bool(false)}, {"make_valid", Value::Bool(false)}});
  r->Add("ST_GEOGFROMGEOJSON", FromGeoJsonCheck, FromGeoJsonEval, kMakeNull, kIndependent);
  r->NameArguments("ST_GEOGFROMGEOJSON", 1, {{"make_valid", Value::Bool(false)}});
  r->Add("ST_GEOGFROMKML", FromKmlCheck, FromKmlEval);
  r->Add("ST_GEOGFROM", FromCheck, FromEval);
  r->Add("ST_GEOGPOINTFROMGEOHASH", PointFromGeohashCheck, PointFromGeohashEval);
}

}  // namespace

void RegisterGeographyFunctions(FunctionRegistry* r) {
  constexpr auto kIndependent = FunctionRegistry::Args::kIndependent;
  constexpr auto kMakeNull = FunctionRegistry::Nulls::kMakeNull;
  RegisterConstructorsAndParsers(r);
  r->Add("ST_ASTEXT", OneGeographyCheck<kAsText, Type::String>, AsTextEval);
  r->Add("ST_ASGEOJSON", OneGeographyCheck<kAsGeoJson, Type::String>, AsGeoJsonEval);
  r->Add("ST_ASKML", OneGeographyCheck<kAsKml, Type::String>, AsKmlEval);
  r->Add("ST_ASBINARY", AsBinaryCheck, AsBinaryEval);
  r->Add("ST_GEOHASH", GeohashCheck, GeohashEval, kMakeNull, kIndependent);
  r->NameArguments("ST_GEOHASH", 1, {{"maxchars", Value::Int64(20)}});
  r->Add("ST_DIMENSION", OneGeographyCheck<kDimension, Type::Int64>, DimensionEval);
  r->Add("ST_DUMP", DumpCheck, DumpEval, kMakeNull, kIndependent);
  r->Add("ST_DUMPPOINTS", DumpPointsCheck, DumpPointsEval);
  r->Add("ST_STARTPOINT", OneGeographyCheck<kStartPoint, Type::Geography>, StartPointEval);
  r->Add("ST_ENDPOINT", OneGeographyCheck<kEndPoint, Type::Geography>, EndPointEval);
  r->Add("ST_POINTN", PointNCheck, PointNEval, kMakeNull, kIndependent);
  r->Add("ST_GEOMETRYTYPE", OneGeographyCheck<kGeometryType, Type::String>, GeometryTypeEval);
  r->Add("ST_ISCLOSED", OneGeographyCheck<kIsClosed, Type::Bool>, IsClosedEval);
  r->Add("ST_ISCOLLECTION", OneGeographyCheck<kIsCollection, Type::Bool>, IsCollectionEval);
  r->Add("ST_ISEMPTY", OneGeographyCheck<kIsEmpty, Type::Bool>, IsEmptyEval);
  r->Add("ST_ISRING", OneGeographyCheck<kIsRing, Type::Bool>, IsRingEval);
  r->Add("ST_NPOINTS", OneGeographyCheck<kNumPoints, Type::Int64>, NumPointsEval);
  r->Add("ST_NUMPOINTS", OneGeographyCheck<kNumPoints, Type::Int64>, NumPointsEval);
  r->Add("ST_NUMGEOMETRIES", OneGeographyCheck<kNumGeometries, Type::Int64>, NumGeometriesEval);
  r->Add("ST_X", OneGeographyCheck<kX, Type::Float64>, CoordinateEval<true>);
  r->Add("ST_Y", OneGeographyCheck<kY, Type::Float64>, CoordinateEval<false>);
}

}  // namespace lbt::sql
