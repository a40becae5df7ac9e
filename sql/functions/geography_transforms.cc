// GEOGRAPHY's transformations: ST_BOUNDARY, ST_BUFFER(WITHTOLERANCE),
// ST_CENTROID, ST_CLOSESTPOINT, ST_CONVEXHULL, ST_DIFFERENCE,
// ST_INTERSECTION, ST_UNION, ST_EXTERIORRING, ST_INTERIORRINGS,
// ST_LINEINTERPOLATEPOINT, ST_LINESUBSTRING, ST_SIMPLIFY, ST_SNAPTOGRID; the
// aggregates ST_ACCUM, ST_CENTROID_AGG, ST_UNION_AGG and ST_EXTENT; and the
// window function ST_CLUSTERDBSCAN.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sql/functions/geography_util.h"
#include "sql/functions/registry.h"
#include "sql/geography/geography_s2.h"

namespace lbt::sql {

namespace {

using geo::Geography;
using geo::LngLat;
using G = GeoArg;

constexpr char kBoundary[] = "ST_BOUNDARY";
constexpr char kCentroid[] = "ST_CENTROID";
constexpr char kConvexHull[] = "ST_CONVEXHULL";
constexpr char kExteriorRing[] = "ST_EXTERIORRING";

Result<Value> BoundaryEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  Geography out;
  // A line's boundary is its ends; where lines meet end to end, an end
  // shared by an even number of them is inside their union (the mod-2 rule).
  std::vector<LngLat> ends;
  for (const geo::Line& line : g.lines) {
    if (line.front() == line.back()) continue;  // a closed line has no boundary
    ends.push_back(line.front());
    ends.push_back(line.back());
  }
  for (const LngLat& p : ends) {
    const auto count = std::count(ends.begin(), ends.end(), p);
    if (count % 2 == 1 && std::find(out.points.begin(), out.points.end(), p) == out.points.end()) {
      out.points.push_back(p);
    }
  }
  for (const geo::Polygon& polygon : g.polygons) {
    for (const geo::Ring& ring : polygon) {
      geo::Line closed = ring;
      closed.push_back(ring.front());
      out.lines.push_back(std::move(closed));
    }
  }
  return GeoValue(out);
}

Result<Value> CentroidEval(const Values& a, const EvalContext&) { return GeoValue(geo::Centroid(Geo(a[0]))); }
Result<Value> ConvexHullEval(const Values& a, const EvalContext&) { return GeoValue(geo::ConvexHull(Geo(a[0]))); }

Result<const geo::Polygon*> SinglePolygon(std::string_view fn, const Geography& g) {
  if (g.polygons.size() != 1 || !g.points.empty() || !g.lines.empty()) return GeoKindError(fn, "a polygon", g);
  return &g.polygons[0];
}

Result<Value> ExteriorRingEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  LBT_ASSIGN_OR_RETURN(const geo::Polygon* polygon, SinglePolygon("ST_EXTERIORRING", g));
  geo::Line ring = (*polygon)[0];
  ring.push_back(ring.front());
  return GeoValue(Geography{{}, {ring}, {}});
}

Result<TypePtr> InteriorRingsCheck(const Types& a) {
  return GeoCheck("ST_INTERIORRINGS", a, {G::kGeography}, 1, Type::Array(Type::Geography()));
}
Result<Value> InteriorRingsEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  LBT_ASSIGN_OR_RETURN(const geo::Polygon* polygon, SinglePolygon("ST_INTERIORRINGS", g));
  Values rings;
  for (size_t i = 1; i < polygon->size(); ++i) {
    // A hole turns clockwise around the polygon's interior; as a ring of
    // its own it turns counterclockwise, around the hole, as GoogleSQL
    // prints it.
    geo::Line ring((*polygon)[i].rbegin(), (*polygon)[i].rend());
    ring.push_back(ring.front());
    rings.push_back(GeoValue(Geography{{}, {ring}, {}}));
  }
  return Value::Array(Type::Array(Type::Geography()), std::move(rings));
}

// ---- two geographies ----

Result<TypePtr> ClosestPointCheck(const Types& a) {
  return GeoCheck("ST_CLOSESTPOINT", a, {G::kGeography, G::kGeography, G::kBool}, 2, Type::Geography());
}
Result<Value> ClosestPointEval(const Values& a, const EvalContext&) {
  if (a.size() > 2 && !a[2].is_null() && a[2].boolean()) {
    return Status::InvalidArgument("ST_CLOSESTPOINT supports only use_spheroid => FALSE");
  }
  const Geography x = Geo(a[0]), y = Geo(a[1]);
  if (x.empty() || y.empty()) return Value::Null(Type::Geography());
  return GeoValue(geo::ClosestPoint(x, y));
}

template <const char* kName>
Result<TypePtr> TwoGeoCheck(const Types& a) {
  return GeoCheck(kName, a, {G::kGeography, G::kGeography}, 2, Type::Geography());
}
constexpr char kDifference[] = "ST_DIFFERENCE";
constexpr char kIntersection[] = "ST_INTERSECTION";

template <geo::BooleanOp kOp>
Result<Value> BooleanEval(const Values& a, const EvalContext&) {
  return GeoResult(kOp == geo::BooleanOp::kUnion          ? "ST_UNION"
                   : kOp == geo::BooleanOp::kIntersection ? "ST_INTERSECTION"
                                                          : "ST_DIFFERENCE",
                   geo::Boolean(kOp, Geo(a[0]), Geo(a[1])));
}

Result<TypePtr> UnionCheck(const Types& a) {
  if (GeoSignature(a, {G::kGeographyArray}, 1)) return Type::Geography();
  return GeoCheck("ST_UNION", a, {G::kGeography, G::kGeography}, 2, Type::Geography());
}
Result<Value> UnionEval(const Values& a, const EvalContext& ctx) {
  if (a.size() == 2) return BooleanEval<geo::BooleanOp::kUnion>(a, ctx);
  std::vector<Geography> parts;
  for (const Value& v : a[0].elements()) {
    if (!v.is_null()) parts.push_back(Geo(v));  // NULL elements are ignored
  }
  return GeoResult("ST_UNION", geo::UnionAll(std::move(parts)));
}

// ---- buffers ----

Result<geo::BufferOptions> BufferStyle(std::string_view fn, const Values& a, size_t at) {
  geo::BufferOptions options;
  if (at < a.size() && !a[at].is_null() && a[at].boolean()) {
    return Status::InvalidArgument(fmt::format("{} supports only use_spheroid => FALSE", fn));
  }
  if (at + 1 < a.size() && !a[at + 1].is_null()) {
    const std::string& cap = a[at + 1].str();
    if (cap != "ROUND" && cap != "FLAT")
      return Status::InvalidArgument(fmt::format("{}'s endcap must be ROUND or FLAT", fn));
    options.flat_end_caps = cap == "FLAT";
  }
  if (at + 2 < a.size() && !a[at + 2].is_null()) {
    const std::string& side = a[at + 2].str();
    if (side != "BOTH" && side != "LEFT" && side != "RIGHT") {
      return Status::InvalidArgument(fmt::format("{}'s side must be BOTH, LEFT or RIGHT", fn));
    }
    options.side = side == "LEFT" ? -1 : side == "RIGHT" ? 1 : 0;
  }
  return options;
}

Result<TypePtr> BufferCheck(const Types& a) {
  return GeoCheck("ST_BUFFER", a, {G::kGeography, G::kNumber, G::kNumber, G::kBool, G::kString, G::kString}, 2,
                  Type::Geography());
}
Result<Value> BufferEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(geo::BufferOptions options, BufferStyle("ST_BUFFER", a, 3));
  options.meters = a[1].AsDouble();
  if (a.size() > 2) options.segments_per_quarter = a[2].AsDouble();
  if (!(options.segments_per_quarter >= 1)) {
    return Status::InvalidArgument("ST_BUFFER's num_seg_quarter_circle must be at least 1");
  }
  return GeoResult("ST_BUFFER", geo::Buffer(Geo(a[0]), options));
}

Result<TypePtr> BufferToleranceCheck(const Types& a) {
  return GeoCheck("ST_BUFFERWITHTOLERANCE", a,
                  {G::kGeography, G::kNumber, G::kNumber, G::kBool, G::kString, G::kString}, 3, Type::Geography());
}
Result<Value> BufferToleranceEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(geo::BufferOptions options, BufferStyle("ST_BUFFERWITHTOLERANCE", a, 3));
  options.meters = a[1].AsDouble();
  const double tolerance = a[2].AsDouble();
  if (!(tolerance > 0)) return Status::InvalidArgument("ST_BUFFERWITHTOLERANCE's tolerance must be positive");
  // The fewest sides whose chords stray at most `tolerance` from the
  // circle: r (1 - cos(pi / sides)) <= tolerance.
  const double r = std::abs(options.meters);
  const double sides = tolerance >= r ? 3 : std::max(3.0, std::ceil(std::numbers::pi / std::acos(1 - tolerance / r)));
  // Past S2's most segments, the closest it can come.
  options.segments_per_quarter = std::min(sides, geo::kMaxBufferSegments) / 4;
  return GeoResult("ST_BUFFERWITHTOLERANCE", geo::Buffer(Geo(a[0]), options));
}

// ---- lines ----

Result<const geo::Line*> LineArgument(std::string_view fn, const Geography& g) {
  const geo::Line* line = g.SingleLine();
  if (line == nullptr) return GeoKindError(fn, "a linestring", g);
  return line;
}

Status CheckFraction(std::string_view fn, double f) {
  if (!(f >= 0 && f <= 1)) return Status::InvalidArgument(fmt::format("{}'s fraction must be between 0 and 1", fn));
  return Status::OK();
}

Result<TypePtr> InterpolateCheck(const Types& a) {
  return GeoCheck("ST_LINEINTERPOLATEPOINT", a, {G::kGeography, G::kNumber}, 2, Type::Geography());
}
Result<Value> InterpolateEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  if (g.empty()) return GeoValue(g);
  LBT_ASSIGN_OR_RETURN(const geo::Line* line, LineArgument("ST_LINEINTERPOLATEPOINT", g));
  LBT_RETURN_IF_ERROR(CheckFraction("ST_LINEINTERPOLATEPOINT", a[1].AsDouble()));
  return GeoValue(Geography{{geo::InterpolatePoint(*line, a[1].AsDouble())}, {}, {}});
}

Result<TypePtr> SubstringCheck(const Types& a) {
  return GeoCheck("ST_LINESUBSTRING", a, {G::kGeography, G::kNumber, G::kNumber}, 3, Type::Geography());
}
Result<Value> SubstringEval(const Values& a, const EvalContext&) {
  const Geography g = Geo(a[0]);
  if (g.empty()) return GeoValue(g);
  LBT_ASSIGN_OR_RETURN(const geo::Line* line, LineArgument("ST_LINESUBSTRING", g));
  const double start = a[1].AsDouble(), end = a[2].AsDouble();
  LBT_RETURN_IF_ERROR(CheckFraction("ST_LINESUBSTRING", start));
  LBT_RETURN_IF_ERROR(CheckFraction("ST_LINESUBSTRING", end));
  if (start > end) return Status::InvalidArgument("ST_LINESUBSTRING's start fraction is after its end");
  geo::Line part = geo::Substring(*line, start, end);
  if (part.size() < 2 || part.front() == part.back()) {
    return GeoValue(Geography{{part.front()}, {}, {}});
  }
  return GeoValue(Geography{{}, {part}, {}});
}

// ---- simplification ----

Result<TypePtr> SimplifyCheck(const Types& a) {
  return GeoCheck("ST_SIMPLIFY", a, {G::kGeography, G::kNumber}, 2, Type::Geography());
}
Result<Value> SimplifyEval(const Values& a, const EvalContext&) {
  if (!(a[1].AsDouble() >= 0)) return Status::InvalidArgument("ST_SIMPLIFY's tolerance cannot be negative");
  return GeoResult("ST_SIMPLIFY", geo::Simplify(Geo(a[0]), a[1].AsDouble()));
}

Result<TypePtr> SnapToGridCheck(const Types& a) {
  return GeoCheck("ST_SNAPTOGRID", a, {G::kGeography, G::kNumber}, 2, Type::Geography());
}
Result<Value> SnapToGridEval(const Values& a, const EvalContext&) {
  if (!(a[1].AsDouble() > 0) || !std::isfinite(a[1].AsDouble())) {
    return Status::InvalidArgument("ST_SNAPTOGRID's grid size must be positive");
  }
  // GoogleSQL rounds the grid size to a power of ten, 10^n with -10 < n < 0.
  const double grid = std::pow(10.0, std::clamp(std::round(std::log10(a[1].AsDouble())), -9.0, -1.0));
  Geography g = Geo(a[0]);
  auto snap = [grid](LngLat& p) {
    p.lng = std::round(p.lng / grid) * grid;
    p.lat = std::clamp(std::round(p.lat / grid) * grid, -90.0, 90.0);
  };
  for (LngLat& p : g.points) snap(p);
  for (geo::Line& line : g.lines) std::for_each(line.begin(), line.end(), snap);
  for (geo::Polygon& polygon : g.polygons) {
    for (geo::Ring& ring : polygon) std::for_each(ring.begin(), ring.end(), snap);
  }
  // Snapping may merge vertices: rebuild, as S2's builder would.
  return GeoResult("ST_SNAPTOGRID", geo::Simplify(g, 0));
}

// ---- aggregates ----

class AccumAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OutOfRange("ST_ACCUM cannot make an array with a NULL element");
    bytes_ += static_cast<double>(a[0].str().size());
    LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes_, "ST_ACCUM's result"));
    values_.push_back(a[0]);
    return Status::OK();
  }
  Value Finish() const override { return Value::Array(Type::Array(Type::Geography()), values_); }

 private:
  Values values_;
  double bytes_ = 0;
};

class CentroidAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (!a[0].is_null()) sum_.Add(Geo(a[0]));
    return Status::OK();
  }
  Value Finish() const override {
    const Geography g = sum_.Finish();
    return g.empty() ? Value::Null(Type::Geography()) : GeoValue(g);
  }

 private:
  geo::CentroidSum sum_;
};

// Unions pairwise as a binary counter does: partial unions of 1, 2, 4, ...
// inputs, each merged with its equal, so that each input takes part in
// log n unions rather than n.
class UnionAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    seen_ = true;
    Geography carry = Geo(a[0]);
    size_t rank = 0;
    for (; rank < partial_.size() && partial_[rank]; ++rank) {
      LBT_ASSIGN_OR_RETURN(carry, geo::Boolean(geo::BooleanOp::kUnion, *partial_[rank], carry));
      partial_[rank].reset();
    }
    if (rank == partial_.size()) partial_.emplace_back();
    partial_[rank] = std::move(carry);
    size_t vertices = 0;
    for (const auto& p : partial_) vertices += p ? p->NumVertices() : 0;
    return CheckComputedBytes(static_cast<double>(vertices) * 16, "ST_UNION_AGG's result");
  }
  Value Finish() const override {
    if (!seen_) return Value::Null(Type::Geography());
    std::vector<Geography> parts;
    for (const auto& p : partial_) {
      if (p) parts.push_back(*p);
    }
    Result<Geography> all = geo::UnionAll(std::move(parts));
    return all.ok() ? GeoValue(*all) : Value::Null(Type::Geography());
  }

 private:
  std::vector<std::optional<Geography>> partial_;
  bool seen_ = false;
};

class ExtentAccumulator final : public Accumulator {
 public:
  Status Add(const Values& a) override {
    if (!a[0].is_null()) sum_.Add(Geo(a[0]));
    return Status::OK();
  }
  Value Finish() const override { return BoxValue(sum_.Finish()); }

 private:
  geo::ExtentSum sum_;
};

constexpr char kAccum[] = "ST_ACCUM";
constexpr char kCentroidAgg[] = "ST_CENTROID_AGG";
constexpr char kUnionAgg[] = "ST_UNION_AGG";
Result<TypePtr> AccumCheck(const Types& a) {
  return GeoCheck(kAccum, a, {G::kGeography}, 1, Type::Array(Type::Geography()));
}
Result<TypePtr> ExtentCheck(const Types& a) { return GeoCheck("ST_EXTENT", a, {G::kGeography}, 1, BoxType()); }

template <typename T>
std::unique_ptr<Accumulator> Create(const TypePtr&, const Types&) {
  return std::make_unique<T>();
}

// ---- ST_CLUSTERDBSCAN(geography, epsilon, minimum_geographies) OVER (...) ----

Result<TypePtr> ClusterCheck(const Types& a) {
  return GeoCheck("ST_CLUSTERDBSCAN", a, {G::kGeography, G::kNumber, G::kInt}, 3, Type::Int64());
}
Status ClusterCompute(const WindowPartition& p, Values* out) {
  if (p.size == 0) return Status::OK();
  const Value& epsilon = p.args[0][1];
  const Value& minimum = p.args[0][2];
  if (epsilon.is_null() || minimum.is_null() || !(epsilon.AsDouble() >= 0) || minimum.int64() < 0) {
    return Status::InvalidArgument("ST_CLUSTERDBSCAN needs a non-negative epsilon and minimum_geographies");
  }
  std::vector<Geography> geographies(p.size);
  std::vector<const Geography*> pointers(p.size, nullptr);
  for (size_t i = 0; i < p.size; ++i) {
    if (p.args[i][0].is_null()) continue;
    geographies[i] = Geo(p.args[i][0]);
    pointers[i] = &geographies[i];
  }
  const std::vector<std::optional<int64_t>> ids = geo::ClusterDbscan(pointers, epsilon.AsDouble(), minimum.int64());
  for (size_t i = 0; i < p.size; ++i) (*out)[i] = ids[i] ? Value::Int64(*ids[i]) : Value::Null(Type::Int64());
  return Status::OK();
}

void RegisterAggregates(FunctionRegistry* r) {
  r->AddAggregate("ST_ACCUM", AccumCheck, Create<AccumAccumulator>);
  r->AddAggregate("ST_CENTROID_AGG", OneGeographyCheck<kCentroidAgg, Type::Geography>, Create<CentroidAccumulator>);
  r->AddAggregate("ST_UNION_AGG", OneGeographyCheck<kUnionAgg, Type::Geography>, Create<UnionAccumulator>);
  r->AddAggregate("ST_EXTENT", ExtentCheck, Create<ExtentAccumulator>);
  WindowFunction cluster;
  cluster.name = "ST_CLUSTERDBSCAN";
  cluster.check = ClusterCheck;
  cluster.compute = ClusterCompute;
  cluster.constant_args = {1, 2};
  r->AddWindow(std::move(cluster));
}

}  // namespace

void RegisterGeographyTransforms(FunctionRegistry* r) {
  constexpr auto kIndependent = FunctionRegistry::Args::kIndependent;
  constexpr auto kMakeNull = FunctionRegistry::Nulls::kMakeNull;
  r->Add("ST_BOUNDARY", OneGeographyCheck<kBoundary, Type::Geography>, BoundaryEval);
  r->Add("ST_CENTROID", OneGeographyCheck<kCentroid, Type::Geography>, CentroidEval);
  r->Add("ST_CONVEXHULL", OneGeographyCheck<kConvexHull, Type::Geography>, ConvexHullEval);
  r->Add("ST_EXTERIORRING", OneGeographyCheck<kExteriorRing, Type::Geography>, ExteriorRingEval);
  r->Add("ST_INTERIORRINGS", InteriorRingsCheck, InteriorRingsEval);
  r->Add("ST_CLOSESTPOINT", ClosestPointCheck, ClosestPointEval, kMakeNull, kIndependent);
  r->NameArguments("ST_CLOSESTPOINT", 2, {{"use_spheroid", Value::Bool(false)}});
  r->Add("ST_DIFFERENCE", TwoGeoCheck<kDifference>, BooleanEval<geo::BooleanOp::kDifference>);
  r->Add("ST_INTERSECTION", TwoGeoCheck<kIntersection>, BooleanEval<geo::BooleanOp::kIntersection>);
  r->Add("ST_UNION", UnionCheck, UnionEval);
  const NamedArguments style = {
      {"use_spheroid", Value::Bool(false)}, {"endcap", Value::String("ROUND")}, {"side", Value::String("BOTH")}};
  r->Add("ST_BUFFER", BufferCheck, BufferEval, kMakeNull, kIndependent);
  NamedArguments buffer_names = {{"num_seg_quarter_circle", Value::Float64(8)}};
  buffer_names.insert(buffer_names.end(), style.begin(), style.end());
  r->NameArguments("ST_BUFFER", 2, buffer_names);
  r->Add("ST_BUFFERWITHTOLERANCE", BufferToleranceCheck, BufferToleranceEval, kMakeNull, kIndependent);
  NamedArguments tolerance_names = {{"tolerance_meters", std::nullopt}};
  tolerance_names.insert(tolerance_names.end(), style.begin(), style.end());
  r->NameArguments("ST_BUFFERWITHTOLERANCE", 2, tolerance_names);
  r->Add("ST_LINEINTERPOLATEPOINT", InterpolateCheck, InterpolateEval, kMakeNull, kIndependent);
  r->Add("ST_LINESUBSTRING", SubstringCheck, SubstringEval, kMakeNull, kIndependent);
  r->Add("ST_SIMPLIFY", SimplifyCheck, SimplifyEval, kMakeNull, kIndependent);
  r->Add("ST_SNAPTOGRID", SnapToGridCheck, SnapToGridEval, kMakeNull, kIndependent);
  RegisterAggregates(r);
}

}  // namespace lbt::sql
