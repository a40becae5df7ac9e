#include "sql/geography/geography_s2.h"

#include <fmt/format.h>

#include <s2/mutable_s2shape_index.h>
#include <s2/s2boolean_operation.h>
#include <s2/s2buffer_operation.h>
#include <s2/s2builder.h>
#include <s2/s2builderutil_closed_set_normalizer.h>
#include <s2/s2builderutil_s2point_vector_layer.h>
#include <s2/s2builderutil_s2polygon_layer.h>
#include <s2/s2builderutil_s2polyline_vector_layer.h>
#include <s2/s2builderutil_snap_functions.h>
#include <s2/s2cell_id.h>
#include <s2/s2closest_edge_query.h>
#include <s2/s2convex_hull_query.h>
#include <s2/s2earth.h>
#include <s2/s2edge_crossings.h>
#include <s2/s2edge_distances.h>
#include <s2/s2furthest_edge_query.h>
#include <s2/s2latlng.h>
#include <s2/s2latlng_rect_bounder.h>
#include <s2/s2loop.h>
#include <s2/s2measures.h>
#include <s2/s2point_vector_shape.h>
#include <s2/s2polygon.h>
#include <s2/s2polyline.h>
#include <s2/s2region_coverer.h>
#include <s2/s2shape_index_buffered_region.h>
#include <s2/s2winding_operation.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

namespace lbt::sql::geo {

namespace {

S2Point ToS2(const LngLat& p) { return S2LatLng::FromDegrees(p.lat, p.lng).ToPoint(); }

LngLat FromS2(const S2Point& p) {
  const S2LatLng ll(p);
  return LngLat{ll.lng().degrees(), ll.lat().degrees()};
}

std::vector<S2Point> ToS2(const std::vector<LngLat>& vertices) {
  std::vector<S2Point> out;
  out.reserve(vertices.size());
  for (const LngLat& p : vertices) out.push_back(ToS2(p));
  return out;
}

std::unique_ptr<S2Polygon> ToS2Polygon(const Polygon& polygon) {
  std::vector<std::unique_ptr<S2Loop>> loops;
  for (const Ring& ring : polygon) loops.push_back(std::make_unique<S2Loop>(ToS2(ring), S2Debug::DISABLE));
  auto out = std::make_unique<S2Polygon>();
  out->set_s2debug_override(S2Debug::DISABLE);
  out->InitOriented(std::move(loops));
  return out;
}

// About 0.1 micrometers: what separates a vertex from its round trip
// through degrees.
constexpr double kMergeRadians = 1e-14;

double Meters(S1Angle angle) { return angle.radians() * kEarthRadiusMeters; }
double Meters(S1ChordAngle angle) { return Meters(angle.ToAngle()); }
S1Angle AngleOf(double meters) { return S1Angle::Radians(meters / kEarthRadiusMeters); }

// A geography as S2 objects, with an index of them all.
struct S2Form {
  std::vector<S2Point> points;
  std::vector<std::unique_ptr<S2Polyline>> lines;
  std::vector<std::unique_ptr<S2Polygon>> polygons;
  MutableS2ShapeIndex index;

  explicit S2Form(const Geography& g) : points(ToS2(g.points)) {
    if (!points.empty()) index.Add(std::make_unique<S2PointVectorShape>(points));
    for (const Line& line : g.lines) {
      lines.push_back(std::make_unique<S2Polyline>(ToS2(line), S2Debug::DISABLE));
      index.Add(std::make_unique<S2Polyline::Shape>(lines.back().get()));
    }
    for (const Polygon& polygon : g.polygons) {
      polygons.push_back(ToS2Polygon(polygon));
      index.Add(std::make_unique<S2Polygon::Shape>(polygons.back().get()));
    }
  }
};

Polygon FromS2Loops(const S2Polygon& polygon, int* i) {
  Polygon out;
  const int depth = polygon.loop(*i)->depth();
  for (; *i < polygon.num_loops(); ++*i) {
    const S2Loop& loop = *polygon.loop(*i);
    if (!out.empty() && loop.depth() <= depth) break;
    if (loop.depth() > depth + 1) continue;  // an island in a hole: its own polygon, later
    Ring ring;
    for (int j = 0; j < loop.num_vertices(); ++j) ring.push_back(FromS2(loop.oriented_vertex(j)));
    out.push_back(std::move(ring));
  }
  return out;
}

Geography FromS2(const std::vector<S2Point>& points, const std::vector<std::unique_ptr<S2Polyline>>& lines,
                 const S2Polygon& polygon) {
  Geography g;
  for (const S2Point& p : points) g.points.push_back(FromS2(p));
  for (const auto& line : lines) {
    Line out;
    for (int j = 0; j < line->num_vertices(); ++j) out.push_back(FromS2(line->vertex(j)));
    if (out.size() >= 2) g.lines.push_back(std::move(out));
  }
  for (int i = 0; i < polygon.num_loops(); ++i) {
    if (polygon.loop(i)->depth() % 2 != 0) continue;
    int at = i;
    g.polygons.push_back(FromS2Loops(polygon, &at));
  }
  return g;
}

S2BooleanOperation::Options ModelOptions(S2BooleanOperation::PolygonModel polygons,
                                         S2BooleanOperation::PolylineModel polylines) {
  S2BooleanOperation::Options options;
  options.set_polygon_model(polygons);
  options.set_polyline_model(polylines);
  return options;
}

// Points once each; lines as undirected edges merged into the longest
// chains, as GoogleSQL's results are (its lines have no direction).
s2builderutil::S2PointVectorLayer::Options PointOptions() {
  s2builderutil::S2PointVectorLayer::Options options;
  options.set_duplicate_edges(S2Builder::GraphOptions::DuplicateEdges::MERGE);
  return options;
}
s2builderutil::S2PolylineVectorLayer::Options LineOptions() {
  s2builderutil::S2PolylineVectorLayer::Options options;
  options.set_edge_type(S2Builder::EdgeType::UNDIRECTED);
  options.set_polyline_type(S2Builder::Graph::PolylineType::WALK);
  options.set_duplicate_edges(S2Builder::GraphOptions::DuplicateEdges::MERGE);
  return options;
}

using PolygonModel = S2BooleanOperation::PolygonModel;
using PolylineModel = S2BooleanOperation::PolylineModel;

}  // namespace

// ---- repair ----

Result<Geography> MakeValid(const Geography& g) {
  Geography out{g.points, g.lines, {}};
  std::vector<Geography> rebuilt;
  for (const Polygon& polygon : g.polygons) {
    S2Polygon result;
    S2WindingOperation operation(std::make_unique<s2builderutil::S2PolygonLayer>(&result));
    S2Point sum(0, 0, 0);
    for (const Ring& ring : polygon) {
      const std::vector<S2Point> loop = ToS2(ring);
      for (const S2Point& p : loop) sum += p;
      operation.AddLoop(loop);
    }
    // Far from every vertex, so outside the polygon.
    const S2Point outside = sum.Norm2() > 0 ? -sum.Normalize() : S2Point(0, 0, 1);
    S2Error error;
    if (!operation.Build(outside, 0, S2WindingOperation::WindingRule::ODD, &error)) {
      return Status::InvalidArgument(fmt::format("the polygon cannot be made valid: {}", error.text()));
    }
    rebuilt.push_back(FromS2({}, {}, result));
  }
  // Polygons that overlap become their union.
  LBT_ASSIGN_OR_RETURN(Geography polygons, UnionAll(std::move(rebuilt)));
  out.Append(polygons);
  return Normalize(std::move(out), {.oriented = true});
}

namespace {

void SplitPlanarEdge(const LngLat& a, const LngLat& b, int depth, std::vector<LngLat>* out) {
  const LngLat mid{(a.lng + b.lng) / 2, (a.lat + b.lat) / 2};
  const S2Point geodesic_mid = S2::Interpolate(ToS2(a), ToS2(b), 0.5);
  if (depth < 20 && Meters(S1Angle(geodesic_mid, ToS2(mid))) > 10) {
    SplitPlanarEdge(a, mid, depth + 1, out);
    out->push_back(mid);
    SplitPlanarEdge(mid, b, depth + 1, out);
  }
}

std::vector<LngLat> Tessellated(const std::vector<LngLat>& vertices, bool closed) {
  std::vector<LngLat> out;
  const size_t n = vertices.size();
  for (size_t i = 0; i < n; ++i) {
    out.push_back(vertices[i]);
    if (i + 1 < n || closed) SplitPlanarEdge(vertices[i], vertices[(i + 1) % n], 0, &out);
  }
  return out;
}

}  // namespace

Geography TessellatePlanar(const Geography& g) {
  Geography out{g.points, {}, {}};
  for (const Line& line : g.lines) out.lines.push_back(Tessellated(line, false));
  for (const Polygon& polygon : g.polygons) {
    Polygon p;
    for (const Ring& ring : polygon) {
      Ring r = ring;
      if (r.size() > 1 && r.front() == r.back()) r.pop_back();
      p.push_back(Tessellated(r, true));
      p.back().push_back(p.back().front());
    }
    out.polygons.push_back(std::move(p));
  }
  return out;
}

bool IsSimple(const Line& line) {
  const std::vector<S2Point> v = ToS2(line);
  const size_t edges = v.size() - 1;
  const bool closed = v.front() == v.back();
  for (size_t i = 0; i < edges; ++i) {
    for (size_t j = i + 1; j < edges; ++j) {
      const bool neighbors = j == i + 1 || (closed && i == 0 && j == edges - 1);
      if (neighbors) {
        // Neighbors share one vertex; they may not fold back over each other.
        if (S2::CrossingSign(v[i], v[i + 1], v[j], v[j + 1]) > 0) return false;
        continue;
      }
      if (S2::CrossingSign(v[i], v[i + 1], v[j], v[j + 1]) >= 0) return false;
    }
  }
  return true;
}

// ---- measures ----

double Area(const Geography& g) {
  double steradians = 0;
  for (const Polygon& polygon : g.polygons) steradians += ToS2Polygon(polygon)->GetArea();
  return steradians * kEarthRadiusMeters * kEarthRadiusMeters;
}

double Length(const Geography& g) {
  double meters = 0;
  for (const Line& line : g.lines) meters += Meters(S2Polyline(ToS2(line), S2Debug::DISABLE).GetLength());
  return meters;
}

double Perimeter(const Geography& g) {
  double meters = 0;
  for (const Polygon& polygon : g.polygons) {
    for (const Ring& ring : polygon) {
      for (size_t i = 0; i < ring.size(); ++i) {
        meters += Meters(S1Angle(ToS2(ring[i]), ToS2(ring[(i + 1) % ring.size()])));
      }
    }
  }
  return meters;
}

std::optional<double> Distance(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  S2Form x(a), y(b);
  S2ClosestEdgeQuery query(&x.index);
  query.mutable_options()->set_include_interiors(true);
  S2ClosestEdgeQuery::ShapeIndexTarget target(&y.index);
  target.set_include_interiors(true);
  return Meters(query.GetDistance(&target));
}

std::optional<double> MaxDistance(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  S2Form x(a), y(b);
  S2FurthestEdgeQuery query(&x.index);
  query.mutable_options()->set_include_interiors(true);
  S2FurthestEdgeQuery::ShapeIndexTarget target(&y.index);
  target.set_include_interiors(true);
  return Meters(query.GetDistance(&target));
}

namespace {

// `g`'s edges (a point is an edge from itself to itself).
std::vector<std::pair<S2Point, S2Point>> EdgesOf(const Geography& g) {
  std::vector<std::pair<S2Point, S2Point>> out;
  for (const LngLat& p : g.points) out.emplace_back(ToS2(p), ToS2(p));
  auto chain = [&out](const std::vector<LngLat>& vertices, bool closed) {
    const size_t n = vertices.size();
    for (size_t i = 0; i + (closed ? 0 : 1) < n; ++i) out.emplace_back(ToS2(vertices[i]), ToS2(vertices[(i + 1) % n]));
  };
  for (const Line& line : g.lines) chain(line, false);
  for (const Polygon& polygon : g.polygons) {
    for (const Ring& ring : polygon) chain(ring, true);
  }
  return out;
}

// The largest distance from a point of `from` to `to`'s edges and points:
// each edge sampled, then the best sample refined by golden-section search
// (the distance along an edge has one peak between samples).
double DirectedHausdorff(const Geography& from, const Geography& to) {
  S2Form target_form(to);
  S2ClosestEdgeQuery query(&target_form.index);
  query.mutable_options()->set_include_interiors(false);
  auto distance = [&query](const S2Point& p) {
    S2ClosestEdgeQuery::PointTarget target(p);
    return query.GetDistance(&target).ToAngle().radians();
  };
  constexpr int kSamples = 64;
  double worst = 0;
  for (const auto& edge : EdgesOf(from)) {
    auto at = [&](double t) { return distance(S2::Interpolate(edge.first, edge.second, t)); };
    int best = 0;
    double best_value = -1;
    for (int k = 0; k <= kSamples; ++k) {
      const double v = at(static_cast<double>(k) / kSamples);
      if (v > best_value) best_value = v, best = k;
    }
    double lo = std::max(0, best - 1) / static_cast<double>(kSamples);
    double hi = std::min(kSamples, best + 1) / static_cast<double>(kSamples);
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    for (int step = 0; step < 60; ++step) {
      const double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
      if (at(x1) < at(x2)) {
        lo = x1;
      } else {
        hi = x2;
      }
    }
    worst = std::max({worst, best_value, at((lo + hi) / 2)});
  }
  // GoogleSQL's Hausdorff distances are on S2's Earth, of radius
  // 6,371,010 m (its examples' answers say so), not the mean radius.
  return worst * S2Earth::RadiusMeters();
}

}  // namespace

std::optional<double> HausdorffDistance(const Geography& a, const Geography& b, bool directed) {
  if (a.empty() || b.empty()) return std::nullopt;
  const double forward = DirectedHausdorff(a, b);
  return directed ? forward : std::max(forward, DirectedHausdorff(b, a));
}

namespace {

// The direction of the path from `a` toward `b` at `a`: radians clockwise
// from north.
double Bearing(const S2Point& a, const S2Point& b) {
  const S2LatLng x(a), y(b);
  const double lat1 = x.lat().radians(), lat2 = y.lat().radians();
  const double dlng = y.lng().radians() - x.lng().radians();
  const double bearing = std::atan2(std::sin(dlng) * std::cos(lat2),
                                    std::cos(lat1) * std::sin(lat2) - std::sin(lat1) * std::cos(lat2) * std::cos(dlng));
  return bearing < 0 ? bearing + 2 * std::numbers::pi : bearing;
}

}  // namespace

std::optional<double> Azimuth(const LngLat& a, const LngLat& b) {
  const S2Point x = ToS2(a), y = ToS2(b);
  if (x == y || x == -y) return std::nullopt;
  return Bearing(x, y);
}

std::optional<double> Angle(const LngLat& p1, const LngLat& p2, const LngLat& p3) {
  const S2Point a = ToS2(p1), b = ToS2(p2), c = ToS2(p3);
  if (a == b || c == b || a == -b || c == -b) return std::nullopt;
  double angle = Bearing(b, c) - Bearing(b, a);
  if (angle < 0) angle += 2 * std::numbers::pi;
  if (angle >= 2 * std::numbers::pi) angle -= 2 * std::numbers::pi;
  return angle;
}

// ---- predicates ----

bool Intersects(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return false;
  S2Form x(a), y(b);
  return S2BooleanOperation::Intersects(x.index, y.index, ModelOptions(PolygonModel::CLOSED, PolylineModel::CLOSED));
}

bool Covers(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return false;
  S2Form x(a), y(b);
  return S2BooleanOperation::Contains(x.index, y.index, ModelOptions(PolygonModel::CLOSED, PolylineModel::CLOSED));
}

bool Contains(const Geography& a, const Geography& b) {
  if (!Covers(a, b)) return false;
  // Some point of b in a's interior: b meets a's open form.
  S2Form x(a), y(b);
  return S2BooleanOperation::Intersects(x.index, y.index, ModelOptions(PolygonModel::OPEN, PolylineModel::OPEN)) ||
         a.Dimension() == 0;
}

bool Equals(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return a.empty() && b.empty();
  S2Form x(a), y(b);
  return S2BooleanOperation::Equals(x.index, y.index, ModelOptions(PolygonModel::CLOSED, PolylineModel::CLOSED));
}

bool Touches(const Geography& a, const Geography& b) {
  if (!Intersects(a, b)) return false;
  if (a.Dimension() == 0 && b.Dimension() == 0) return false;  // points have no boundary
  S2Form x(a), y(b);
  return !S2BooleanOperation::Intersects(x.index, y.index, ModelOptions(PolygonModel::OPEN, PolylineModel::OPEN));
}

bool WithinDistance(const Geography& a, const Geography& b, double meters) {
  if (a.empty() || b.empty()) return false;
  S2Form x(a), y(b);
  S2ClosestEdgeQuery query(&x.index);
  query.mutable_options()->set_include_interiors(true);
  S2ClosestEdgeQuery::ShapeIndexTarget target(&y.index);
  target.set_include_interiors(true);
  return query.IsDistanceLessOrEqual(&target, S1ChordAngle(AngleOf(meters)));
}

bool IntersectsBox(const Geography& g, double west, double south, double east, double north) {
  if (g.empty()) return false;
  if (east < west) east += 360;
  east = std::min(east, west + 359.999999);
  // The box's edges follow parallels: trace them densely as a polygon.
  constexpr int kSteps = 64;
  Ring ring;
  for (int i = 0; i <= kSteps; ++i) ring.push_back({west + (east - west) * i / kSteps, south});
  for (int i = 0; i <= kSteps; ++i) ring.push_back({east - (east - west) * i / kSteps, north});
  for (LngLat& p : ring) p.lng = std::remainder(p.lng, 360.0);  // into [-180, 180]
  Geography box;
  box.polygons.push_back({ring});
  return Intersects(g, box);
}

// ---- transformations ----

Geography Centroid(const Geography& g) {
  CentroidSum sum;
  sum.Add(g);
  return sum.Finish();
}

void CentroidSum::Add(const Geography& g) {
  auto add = [this](int dimension, const S2Point& p) {
    sums_[dimension][0] += p.x();
    sums_[dimension][1] += p.y();
    sums_[dimension][2] += p.z();
  };
  // S2's centroids are weighted by area and length already.
  for (const Polygon& polygon : g.polygons) add(2, ToS2Polygon(polygon)->GetCentroid());
  for (const Line& line : g.lines) add(1, S2Polyline(ToS2(line), S2Debug::DISABLE).GetCentroid());
  for (const LngLat& p : g.points) add(0, ToS2(p));
}

Geography CentroidSum::Finish() const {
  for (int dimension = 2; dimension >= 0; --dimension) {
    const S2Point sum(sums_[dimension][0], sums_[dimension][1], sums_[dimension][2]);
    if (sum.Norm2() > 0) return Geography{{FromS2(sum.Normalize())}, {}, {}};
  }
  return Geography{};
}

void ExtentSum::Add(const Geography& g) {
  const std::optional<Box> box = BoundingBox(g);
  if (!box) return;
  const double to_radians = std::numbers::pi / 180;
  double hi = box->xmax;
  if (hi > 180) hi -= 360;
  S2LatLngRect rect(R1Interval(box->ymin * to_radians, box->ymax * to_radians),
                    S1Interval(box->xmin * to_radians, hi * to_radians));
  if (!empty_) {
    rect = rect.Union(S2LatLngRect(R1Interval(lat_lo_, lat_hi_), S1Interval(lng_lo_, lng_hi_)));
  }
  empty_ = false;
  lat_lo_ = rect.lat().lo(), lat_hi_ = rect.lat().hi();
  lng_lo_ = rect.lng().lo(), lng_hi_ = rect.lng().hi();
}

std::optional<Box> ExtentSum::Finish() const {
  if (empty_) return std::nullopt;
  const double to_degrees = 180 / std::numbers::pi;
  Box box{lng_lo_ * to_degrees, lat_lo_ * to_degrees, lng_hi_ * to_degrees, lat_hi_ * to_degrees};
  if (lng_lo_ > lng_hi_) box.xmax += 360;
  // A span of half the globe or more is the whole range, as GoogleSQL's
  // ST_EXTENT gives it.
  if (box.xmax - box.xmin >= 180) box.xmin = -180, box.xmax = 180;
  return box;
}

Geography ClosestPoint(const Geography& a, const Geography& b) {
  if (a.empty() || b.empty()) return Geography{};
  S2Form x(a), y(b);
  S2ClosestEdgeQuery query(&x.index);
  query.mutable_options()->set_include_interiors(true);
  S2ClosestEdgeQuery::ShapeIndexTarget target(&y.index);
  target.set_include_interiors(true);
  const S2ClosestEdgeQuery::Result result = query.FindClosestEdge(&target);
  if (result.is_empty()) return Geography{};
  if (result.is_interior()) {
    // b reaches into a polygon of a: the closest point is b's own point
    // there; its closest vertex inside a stands for it.
    S2ClosestEdgeQuery back(&y.index);
    S2ClosestEdgeQuery::ShapeIndexTarget a_target(&x.index);
    a_target.set_include_interiors(true);
    const auto r = back.FindClosestEdge(&a_target);
    if (!r.is_empty() && !r.is_interior()) {
      const S2Shape::Edge e = back.GetEdge(r);
      return Geography{{FromS2(e.v0)}, {}, {}};
    }
    return Geography{{FromS2(y.index.shape(0)->edge(0).v0)}, {}, {}};
  }
  // The point of a's closest edge nearest to b's closest edge.
  const S2Shape::Edge edge = query.GetEdge(result);
  S2ClosestEdgeQuery back(&y.index);
  back.mutable_options()->set_include_interiors(true);
  S2ClosestEdgeQuery::EdgeTarget edge_target(edge.v0, edge.v1);
  const auto r = back.FindClosestEdge(&edge_target);
  S2Point on_a = edge.v0;
  if (!r.is_empty() && !r.is_interior()) {
    const S2Shape::Edge other = back.GetEdge(r);
    const auto [p, q] = S2::GetEdgePairClosestPoints(edge.v0, edge.v1, other.v0, other.v1);
    on_a = p;
  } else {
    on_a = S2::Project(y.index.shape(0)->edge(0).v0, edge.v0, edge.v1);
  }
  return Geography{{FromS2(on_a)}, {}, {}};
}

Geography ConvexHull(const Geography& g) {
  if (g.empty()) return Geography{};
  S2ConvexHullQuery query;
  std::vector<S2Point> distinct;
  auto add = [&](const std::vector<LngLat>& vertices) {
    for (const S2Point& p : ToS2(vertices)) {
      if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
      query.AddPoint(p);
    }
  };
  add(g.points);
  for (const Line& line : g.lines) add(line);
  for (const Polygon& polygon : g.polygons) add(polygon[0]);
  if (distinct.size() == 1) return Geography{{FromS2(distinct[0])}, {}, {}};
  std::unique_ptr<S2Loop> hull = query.GetConvexHull();
  if (hull->GetArea() > 1e-300) {
    Ring ring;
    for (int i = 0; i < hull->num_vertices(); ++i) ring.push_back(FromS2(hull->vertex(i)));
    return Geography{{}, {}, {{ring}}};
  }
  // Every point on one great circle: S2 gives a loop of no area. The hull
  // is the line through its vertices, from its second vertex (as GoogleSQL
  // walks it) in order of distance.
  std::vector<S2Point> vertices;
  for (int i = 0; i < hull->num_vertices(); ++i) vertices.push_back(hull->vertex(i));
  const S2Point start = vertices[vertices.size() > 1 ? 1 : 0];
  std::sort(vertices.begin(), vertices.end(),
            [&start](const S2Point& a, const S2Point& b) { return S1Angle(start, a) < S1Angle(start, b); });
  Line line;
  for (const S2Point& p : vertices) line.push_back(FromS2(p));
  return Geography{{}, {line}, {}};
}

namespace {

Result<Geography> Rebuild(const Geography& g, double meters, const std::vector<S2Point>* split_at);

std::vector<S2Point> VerticesOf(const Geography& g) {
  std::vector<S2Point> out = ToS2(g.points);
  for (const Line& line : g.lines) {
    for (const LngLat& p : line) out.push_back(ToS2(p));
  }
  for (const Polygon& polygon : g.polygons) {
    for (const Ring& ring : polygon) {
      for (const LngLat& p : ring) out.push_back(ToS2(p));
    }
  }
  return out;
}

// S2's boolean operations match edges whole: where a vertex of one input
// lies on an edge of the other (two lines overlapping along a stretch),
// that edge is split there first, so that the shared stretch is one edge
// of both.
Result<Geography> SplitAtVertices(const Geography& g, const Geography& other) {
  if ((g.lines.empty() && g.polygons.empty()) || other.empty()) return g;
  const std::vector<S2Point> vertices = VerticesOf(other);
  return Rebuild(g, kMergeRadians * kEarthRadiusMeters, &vertices);
}

}  // namespace

Result<Geography> Boolean(BooleanOp op, const Geography& a0, const Geography& b0) {
  LBT_ASSIGN_OR_RETURN(Geography a, SplitAtVertices(a0, b0));
  LBT_ASSIGN_OR_RETURN(Geography b, SplitAtVertices(b0, a0));
  S2Form x(a), y(b);
  std::vector<S2Point> points;
  std::vector<std::unique_ptr<S2Polyline>> lines;
  S2Polygon polygon;
  std::vector<std::unique_ptr<S2Builder::Layer>> layers;
  layers.push_back(std::make_unique<s2builderutil::S2PointVectorLayer>(&points, PointOptions()));
  layers.push_back(std::make_unique<s2builderutil::S2PolylineVectorLayer>(&lines, LineOptions()));
  layers.push_back(std::make_unique<s2builderutil::S2PolygonLayer>(&polygon));
  const S2BooleanOperation::OpType type = op == BooleanOp::kUnion          ? S2BooleanOperation::OpType::UNION
                                          : op == BooleanOp::kIntersection ? S2BooleanOperation::OpType::INTERSECTION
                                                                           : S2BooleanOperation::OpType::DIFFERENCE;
  // Vertices a hair apart (one converted to degrees and back) are one.
  // Shapes are closed sets, as GoogleSQL's are: a polygon holds its
  // boundary, and what the inputs share in a lower dimension (two lines'
  // crossing point, two squares' common edge) comes out in that dimension.
  S2BooleanOperation::Options options = ModelOptions(PolygonModel::CLOSED, PolylineModel::CLOSED);
  options.set_snap_function(s2builderutil::IdentitySnapFunction(S1Angle::Radians(kMergeRadians)));
  S2BooleanOperation operation(type, s2builderutil::NormalizeClosedSet(std::move(layers)), options);
  S2Error error;
  if (!operation.Build(x.index, y.index, &error)) {
    return Status::InvalidArgument(fmt::format("the geographies cannot be combined: {}", error.text()));
  }
  return Normalize(FromS2(points, lines, polygon), {.oriented = true});
}

Result<Geography> Buffer(const Geography& g, const BufferOptions& options) {
  if (!std::isfinite(options.meters) || !std::isfinite(options.segments_per_quarter)) {
    return Status::InvalidArgument("ST_BUFFER's radius and segment count must be finite numbers");
  }
  if (options.segments_per_quarter * 4 > kMaxBufferSegments) {
    return Status::InvalidArgument(
        fmt::format("ST_BUFFER's num_seg_quarter_circle must be at most {}", kMaxBufferSegments / 4));
  }
  if (g.empty()) return Geography{};
  S2Polygon polygon;
  S2BufferOperation::Options buffer_options(AngleOf(options.meters));
  buffer_options.set_circle_segments(std::max(3.0, options.segments_per_quarter * 4));
  buffer_options.set_end_cap_style(options.flat_end_caps ? S2BufferOperation::EndCapStyle::FLAT
                                                         : S2BufferOperation::EndCapStyle::ROUND);
  buffer_options.set_polyline_side(options.side < 0   ? S2BufferOperation::PolylineSide::LEFT
                                   : options.side > 0 ? S2BufferOperation::PolylineSide::RIGHT
                                                      : S2BufferOperation::PolylineSide::BOTH);
  S2BufferOperation operation(std::make_unique<s2builderutil::S2PolygonLayer>(&polygon), buffer_options);
  S2Form form(g);
  operation.AddShapeIndex(form.index);
  S2Error error;
  if (!operation.Build(&error)) return Status::InvalidArgument(fmt::format("ST_BUFFER failed: {}", error.text()));
  return Normalize(FromS2({}, {}, polygon), {.oriented = true});
}

namespace {

// S2's builder over `g`, its edges moved at most `meters`, chains of them
// replaced by fewer edges where they stay that close; with `split_at`, its
// edges also split at those of the points that lie on them.
Result<Geography> Rebuild(const Geography& g, double meters, const std::vector<S2Point>* split_at) {
  S2Builder::Options builder_options(s2builderutil::IdentitySnapFunction(AngleOf(std::max(0.0, meters))));
  builder_options.set_simplify_edge_chains(meters > 0 && split_at == nullptr);
  S2Builder builder(builder_options);
  if (split_at != nullptr) {
    for (const S2Point& p : *split_at) builder.ForceVertex(p);
  }
  std::vector<S2Point> points;
  std::vector<std::unique_ptr<S2Polyline>> lines;
  S2Polygon polygon;
  S2Form form(g);
  builder.StartLayer(std::make_unique<s2builderutil::S2PointVectorLayer>(&points, PointOptions()));
  for (const S2Point& p : form.points) builder.AddPoint(p);
  builder.StartLayer(std::make_unique<s2builderutil::S2PolylineVectorLayer>(&lines, LineOptions()));
  for (const auto& line : form.lines) builder.AddPolyline(*line);
  builder.StartLayer(std::make_unique<s2builderutil::S2PolygonLayer>(&polygon));
  for (const auto& p : form.polygons) builder.AddPolygon(*p);
  S2Error error;
  if (!builder.Build(&error)) return Status::InvalidArgument(fmt::format("ST_SIMPLIFY failed: {}", error.text()));
  return Normalize(FromS2(points, lines, polygon), {.oriented = true});
}

// A polygon simplified away: what is left of its shell, a line through
// its distinct vertices or a point.
Result<Geography> Collapsed(const Polygon& polygon, double meters) {
  Line shell = polygon[0];
  shell.push_back(shell.front());
  LBT_ASSIGN_OR_RETURN(Geography outline, Rebuild(Geography{{}, {shell}, {}}, meters, nullptr));
  Line distinct;
  for (const Line& line : outline.lines) {
    for (const LngLat& p : line) {
      if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
    }
  }
  if (distinct.size() >= 2) return Geography{{}, {distinct}, {}};
  return Geography{{polygon[0][0]}, {}, {}};
}

}  // namespace

Result<Geography> Simplify(const Geography& g, double meters) {
  if (!(AngleOf(meters) <= S2Builder::SnapFunction::kMaxSnapRadius())) {
    return Status::InvalidArgument(fmt::format("the tolerance must be at most {:.0f} meters (about 7,800 km)",
                                               Meters(S2Builder::SnapFunction::kMaxSnapRadius())));
  }
  LBT_ASSIGN_OR_RETURN(Geography out, Rebuild(Geography{g.points, g.lines, {}}, meters, nullptr));
  for (const Polygon& polygon : g.polygons) {
    LBT_ASSIGN_OR_RETURN(Geography part, Rebuild(Geography{{}, {}, {polygon}}, meters, nullptr));
    if (part.empty()) {
      LBT_ASSIGN_OR_RETURN(part, Collapsed(polygon, meters));
    }
    out.Append(part);
  }
  return Normalize(std::move(out), {.oriented = true});
}

LngLat InterpolatePoint(const Line& line, double fraction) {
  return FromS2(S2Polyline(ToS2(line), S2Debug::DISABLE).Interpolate(fraction));
}

Line Substring(const Line& line, double start, double end) {
  const S2Polyline polyline(ToS2(line), S2Debug::DISABLE);
  int first_next = 0, last_next = 0;
  const S2Point first = polyline.GetSuffix(start, &first_next);
  const S2Point last = polyline.GetSuffix(end, &last_next);
  Line out{FromS2(first)};
  for (int i = first_next; i < last_next && i < polyline.num_vertices(); ++i) {
    if (polyline.vertex(i) != first) out.push_back(FromS2(polyline.vertex(i)));
  }
  if (!(out.back() == FromS2(last))) out.push_back(FromS2(last));
  return out;
}

double LocatePoint(const Line& line, const LngLat& p) {
  const S2Polyline polyline(ToS2(line), S2Debug::DISABLE);
  int next = 0;
  const S2Point projected = polyline.Project(ToS2(p), &next);
  return polyline.UnInterpolate(projected, next);
}

// ---- bounding boxes ----

std::optional<Box> BoundingBox(const Geography& g) {
  if (g.empty()) return std::nullopt;
  S2LatLngRectBounder bounder;
  S2LatLngRect rect = S2LatLngRect::Empty();
  for (const LngLat& p : g.points) rect = rect.Union(S2LatLngRect::FromPoint(S2LatLng::FromDegrees(p.lat, p.lng)));
  auto add_chain = [&](const std::vector<LngLat>& vertices, bool closed) {
    S2LatLngRectBounder chain;
    for (size_t i = 0; i < vertices.size() + (closed ? 1 : 0); ++i) chain.AddPoint(ToS2(vertices[i % vertices.size()]));
    rect = rect.Union(chain.GetBound());
  };
  for (const Line& line : g.lines) add_chain(line, false);
  for (const Polygon& polygon : g.polygons) rect = rect.Union(ToS2Polygon(polygon)->GetRectBound());
  Box box{rect.lng_lo().degrees(), rect.lat_lo().degrees(), rect.lng_hi().degrees(), rect.lat_hi().degrees()};
  if (rect.lng().is_inverted()) box.xmax += 360;
  return box;
}

// ---- S2 cells ----

int64_t CellIdFromPoint(const LngLat& p, int level) {
  return static_cast<int64_t>(S2CellId(ToS2(p)).parent(level).id());
}

Result<std::vector<int64_t>> CoveringCellIds(const Geography& g, const CoveringOptions& options) {
  S2Form form(g);
  S2RegionCoverer::Options coverer_options;
  coverer_options.set_max_level(options.max_level);
  coverer_options.set_max_cells(options.max_cells);
  S2ShapeIndexBufferedRegion region(&form.index, S1ChordAngle(AngleOf(options.buffer_meters)));
  // A min_level makes every coarser cell its descendants at that level,
  // however many: count them on a covering without one first.
  if (options.min_level > 0) {
    double cells = 0;
    for (const S2CellId& id : S2RegionCoverer(coverer_options).GetCovering(region)) {
      cells += std::pow(4.0, std::max(0, options.min_level - id.level()));
    }
    if (cells > kMaxCoveringCells) {
      return Status::InvalidArgument(
          fmt::format("S2_COVERINGCELLIDS would give about {:.0f} cells at min_level {}, more than the {} lbt allows",
                      cells, options.min_level, kMaxCoveringCells));
    }
  }
  coverer_options.set_min_level(options.min_level);
  std::vector<int64_t> out;
  for (const S2CellId& id : S2RegionCoverer(coverer_options).GetCovering(region)) {
    out.push_back(static_cast<int64_t>(id.id()));
  }
  return out;
}

namespace {

// Every non-empty geography's shapes in one index, to find each one's
// neighbors without comparing every pair.
class NeighborIndex {
 public:
  explicit NeighborIndex(const std::vector<const Geography*>& geographies) : geographies_(geographies) {
    for (size_t i = 0; i < geographies.size(); ++i) {
      if (geographies[i] == nullptr) continue;
      const Geography& g = *geographies[i];
      if (!g.points.empty()) Add(std::make_unique<S2PointVectorShape>(ToS2(g.points)), i);
      for (const Line& line : g.lines) {
        Add(std::make_unique<S2Polyline::OwningShape>(std::make_unique<S2Polyline>(ToS2(line), S2Debug::DISABLE)), i);
      }
      for (const Polygon& polygon : g.polygons) Add(std::make_unique<S2Polygon::OwningShape>(ToS2Polygon(polygon)), i);
    }
  }

  // The rows within `epsilon` meters of row i, itself included.
  std::vector<size_t> Within(size_t i, double epsilon) {
    std::vector<size_t> out;
    if (geographies_[i] == nullptr || geographies_[i]->empty()) return out;
    S2Form form(*geographies_[i]);
    S2ClosestEdgeQuery query(&index_);
    query.mutable_options()->set_include_interiors(true);
    query.mutable_options()->set_inclusive_max_distance(AngleOf(epsilon));
    S2ClosestEdgeQuery::ShapeIndexTarget target(&form.index);
    target.set_include_interiors(true);
    for (const auto& result : query.FindClosestEdges(&target)) out.push_back(row_of_shape_[result.shape_id()]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  void Add(std::unique_ptr<S2Shape> shape, size_t row) {
    const int id = index_.Add(std::move(shape));
    if (row_of_shape_.size() <= static_cast<size_t>(id)) row_of_shape_.resize(id + 1);
    row_of_shape_[id] = row;
  }

  const std::vector<const Geography*>& geographies_;
  MutableS2ShapeIndex index_;
  std::vector<size_t> row_of_shape_;
};

}  // namespace

std::vector<std::optional<int64_t>> ClusterDbscan(const std::vector<const Geography*>& geographies, double epsilon,
                                                  int64_t min_points) {
  const size_t n = geographies.size();
  NeighborIndex index(geographies);
  std::vector<std::optional<int64_t>> cluster(n);
  std::vector<bool> visited(n, false);
  int64_t next_id = 0;
  for (size_t i = 0; i < n; ++i) {
    if (visited[i]) continue;
    visited[i] = true;
    // An empty or NULL geography is always noise.
    if (geographies[i] == nullptr || geographies[i]->empty()) continue;
    std::vector<size_t> seeds = index.Within(i, epsilon);
    if (static_cast<int64_t>(seeds.size()) < min_points) continue;  // noise, unless a cluster reaches it
    const int64_t id = next_id++;
    cluster[i] = id;
    for (size_t k = 0; k < seeds.size(); ++k) {
      const size_t j = seeds[k];
      if (!cluster[j]) cluster[j] = id;
      if (visited[j]) continue;
      visited[j] = true;
      std::vector<size_t> more = index.Within(j, epsilon);
      if (static_cast<int64_t>(more.size()) >= min_points) seeds.insert(seeds.end(), more.begin(), more.end());
    }
  }
  return cluster;
}

Result<Geography> UnionAll(std::vector<Geography> parts) {
  if (parts.empty()) return Geography{};
  // Pairs, then pairs of pairs: each vertex takes part in log n unions.
  while (parts.size() > 1) {
    std::vector<Geography> next;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      LBT_ASSIGN_OR_RETURN(Geography u, Boolean(BooleanOp::kUnion, parts[i], parts[i + 1]));
      next.push_back(std::move(u));
    }
    if (parts.size() % 2 == 1) next.push_back(std::move(parts.back()));
    parts = std::move(next);
  }
  return Boolean(BooleanOp::kUnion, parts[0], Geography{});
}

}  // namespace lbt::sql::geo
