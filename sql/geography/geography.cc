#include "sql/geography/geography.h"

#include <fmt/format.h>
#include <s2/s2cell_id.h>
#include <s2/s2latlng.h>
#include <s2/s2loop.h>
#include <s2/s2polygon.h>

#include <cmath>
#include <cstring>
#include <memory>

namespace lbt::sql::geo {

int Geography::Dimension() const {
  if (!polygons.empty()) return 2;
  if (!lines.empty()) return 1;
  return points.empty() ? -1 : 0;
}

size_t Geography::NumVertices() const {
  size_t n = points.size();
  for (const Line& line : lines) n += line.size();
  for (const Polygon& polygon : polygons) {
    for (const Ring& ring : polygon) n += ring.size() + 1;
  }
  return n;
}

std::vector<Geography> Geography::Parts() const {
  std::vector<Geography> parts;
  for (const LngLat& p : points) parts.push_back(Geography{{p}, {}, {}});
  for (const Line& line : lines) parts.push_back(Geography{{}, {line}, {}});
  for (const Polygon& polygon : polygons) parts.push_back(Geography{{}, {}, {polygon}});
  return parts;
}

void Geography::Append(const Geography& other) {
  points.insert(points.end(), other.points.begin(), other.points.end());
  lines.insert(lines.end(), other.lines.begin(), other.lines.end());
  polygons.insert(polygons.end(), other.polygons.begin(), other.polygons.end());
}

// ---- normalizing ----

namespace {

Status CheckCoordinates(const LngLat& p) {
  if (!std::isfinite(p.lng) || !std::isfinite(p.lat)) {
    return Status::InvalidArgument("a geography's coordinates must be finite numbers");
  }
  if (p.lat < -90 || p.lat > 90) {
    return Status::InvalidArgument(fmt::format("Latitude must be between -90 and 90 degrees, got {}", p.lat));
  }
  if (p.lng < -180 || p.lng > 180) {
    return Status::InvalidArgument(fmt::format("Longitude must be between -180 and 180 degrees, got {}", p.lng));
  }
  return Status::OK();
}

S2Point ToS2(const LngLat& p) { return S2LatLng::FromDegrees(p.lat, p.lng).ToPoint(); }

// The vertices without consecutive repeats (the poles' longitudes and
// +-180 are one point: compared on the sphere).
std::vector<LngLat> WithoutRepeats(const std::vector<LngLat>& vertices) {
  std::vector<LngLat> out;
  for (const LngLat& p : vertices) {
    if (out.empty() || ToS2(out.back()) != ToS2(p)) out.push_back(p);
  }
  return out;
}

Status CheckEdges(const std::vector<LngLat>& vertices, bool closed) {
  for (size_t i = 0; i + (closed ? 0 : 1) < vertices.size(); ++i) {
    const S2Point a = ToS2(vertices[i]);
    const S2Point b = ToS2(vertices[(i + 1) % vertices.size()]);
    // Antipodal to within rounding: (0 0) and (180 0) are not exactly
    // opposite once in floating point.
    if ((a + b).Norm2() < 1e-24) {
      return Status::InvalidArgument(fmt::format(
          "an edge joins antipodal points ({} {}) and ({} {}): its path is undefined", vertices[i].lng, vertices[i].lat,
          vertices[(i + 1) % vertices.size()].lng, vertices[(i + 1) % vertices.size()].lat));
    }
  }
  return Status::OK();
}

Result<Ring> NormalizeRing(const Ring& given, bool hole, bool oriented) {
  Ring ring = WithoutRepeats(given);
  if (ring.size() > 1 && ToS2(ring.front()) == ToS2(ring.back())) ring.pop_back();
  if (ring.size() < 3) return Status::InvalidArgument("a polygon's ring needs at least three distinct vertices");
  LBT_RETURN_IF_ERROR(CheckEdges(ring, /*closed=*/true));
  if (oriented) return ring;
  std::vector<S2Point> vertices;
  for (const LngLat& p : ring) vertices.push_back(ToS2(p));
  S2Loop loop(vertices, S2Debug::DISABLE);
  // The smaller region is the interior: a shell turns counterclockwise
  // around it, a hole clockwise.
  const bool ccw = loop.GetCurvature() >= 0;
  if (ccw == hole) std::reverse(ring.begin(), ring.end());
  return ring;
}

Status CheckPolygon(const Polygon& polygon) {
  std::vector<std::unique_ptr<S2Loop>> loops;
  for (const Ring& ring : polygon) {
    std::vector<S2Point> vertices;
    for (const LngLat& p : ring) vertices.push_back(ToS2(p));
    loops.push_back(std::make_unique<S2Loop>(vertices, S2Debug::DISABLE));
    S2Error error;
    if (loops.back()->FindValidationError(&error)) {
      return Status::InvalidArgument(fmt::format("Invalid polygon: {}", error.text()));
    }
  }
  S2Polygon s2;
  s2.set_s2debug_override(S2Debug::DISABLE);
  s2.InitOriented(std::move(loops));
  S2Error error;
  if (s2.FindValidationError(&error)) return Status::InvalidArgument(fmt::format("Invalid polygon: {}", error.text()));
  return Status::OK();
}

// A geography's points in S2 cell order, each once: the order GoogleSQL
// prints them in.
std::vector<LngLat> SortedPoints(const std::vector<LngLat>& points) {
  std::vector<std::pair<uint64_t, LngLat>> keyed;
  for (const LngLat& p : points) keyed.emplace_back(S2CellId(ToS2(p)).id(), p);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<LngLat> out;
  for (size_t i = 0; i < keyed.size(); ++i) {
    if (i == 0 || keyed[i].first != keyed[i - 1].first || ToS2(keyed[i].second) != ToS2(keyed[i - 1].second)) {
      out.push_back(keyed[i].second);
    }
  }
  return out;
}

}  // namespace

Result<Geography> Normalize(Geography g, const ShapeOptions& options) {
  Geography out;
  for (const LngLat& p : g.points) LBT_RETURN_IF_ERROR(CheckCoordinates(p));
  out.points = SortedPoints(g.points);
  for (const Line& given : g.lines) {
    for (const LngLat& p : given) LBT_RETURN_IF_ERROR(CheckCoordinates(p));
    Line line = WithoutRepeats(given);
    if (line.size() < 2) return Status::InvalidArgument("a line needs at least two distinct vertices");
    LBT_RETURN_IF_ERROR(CheckEdges(line, /*closed=*/false));
    out.lines.push_back(std::move(line));
  }
  for (const Polygon& given : g.polygons) {
    Polygon polygon;
    for (size_t i = 0; i < given.size(); ++i) {
      for (const LngLat& p : given[i]) LBT_RETURN_IF_ERROR(CheckCoordinates(p));
      LBT_ASSIGN_OR_RETURN(Ring ring, NormalizeRing(given[i], /*hole=*/i > 0, options.oriented));
      polygon.push_back(std::move(ring));
    }
    if (polygon.empty()) continue;
    LBT_RETURN_IF_ERROR(CheckPolygon(polygon));
    out.polygons.push_back(std::move(polygon));
  }
  if (out.polygons.size() > 1) {
    // A GEOGRAPHY is a set of points: polygons that overlap would count
    // their shared area twice. Their rings together must make one valid
    // S2 polygon (make_valid merges them instead).
    Polygon all;
    for (const Polygon& polygon : out.polygons) all.insert(all.end(), polygon.begin(), polygon.end());
    Status valid = CheckPolygon(all);
    if (!valid.ok()) {
      return Status::InvalidArgument(
          fmt::format("the polygons of a multipolygon overlap or cross ({})", valid.message()));
    }
  }
  return out;
}

// ---- the bytes a Value holds ----

namespace {

void PutCount(std::string* out, size_t n) {
  const uint32_t v = static_cast<uint32_t>(n);
  out->append(reinterpret_cast<const char*>(&v), sizeof v);
}

void PutVertices(std::string* out, const std::vector<LngLat>& vertices) {
  PutCount(out, vertices.size());
  for (const LngLat& p : vertices) {
    out->append(reinterpret_cast<const char*>(&p.lng), sizeof p.lng);
    out->append(reinterpret_cast<const char*>(&p.lat), sizeof p.lat);
  }
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  uint32_t Count() {
    uint32_t v = 0;
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::vector<LngLat> Vertices() {
    std::vector<LngLat> out(Count());
    for (LngLat& p : out) {
      std::memcpy(&p.lng, bytes_.data() + at_, sizeof p.lng);
      std::memcpy(&p.lat, bytes_.data() + at_ + sizeof p.lng, sizeof p.lat);
      at_ += sizeof p.lng + sizeof p.lat;
    }
    return out;
  }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

}  // namespace

std::string Encode(const Geography& g) {
  std::string out;
  PutVertices(&out, g.points);
  PutCount(&out, g.lines.size());
  for (const Line& line : g.lines) PutVertices(&out, line);
  PutCount(&out, g.polygons.size());
  for (const Polygon& polygon : g.polygons) {
    PutCount(&out, polygon.size());
    for (const Ring& ring : polygon) PutVertices(&out, ring);
  }
  return out;
}

Geography Decode(std::string_view bytes) {
  Reader in(bytes);
  Geography g;
  g.points = in.Vertices();
  g.lines.resize(in.Count());
  for (Line& line : g.lines) line = in.Vertices();
  g.polygons.resize(in.Count());
  for (Polygon& polygon : g.polygons) {
    polygon.resize(in.Count());
    for (Ring& ring : polygon) ring = in.Vertices();
  }
  return g;
}

}  // namespace lbt::sql::geo
