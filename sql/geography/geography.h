// GoogleSQL's GEOGRAPHY: a set of points, lines and polygons on the sphere,
// with geodesic edges, in longitude and latitude degrees (WGS84's).
//
// A value is kept as a `Geography`: its points, its lines and its polygons,
// each polygon's rings with the interior on their left (a shell counter-
// clockwise, its holes clockwise), without a ring's repeated last vertex.
// In a query a GEOGRAPHY `Value` holds `Encode`'s bytes, which no one else
// reads: a query cannot return one (Bigtable's result types have none), and
// nothing stores one.
//
// The formats (WKT, WKB, GeoJSON, KML, geohashes) are in
// geography_formats.h, the spherical geometry over S2 in geography_s2.h.

#ifndef LBT_SQL_GEOGRAPHY_GEOGRAPHY_H_
#define LBT_SQL_GEOGRAPHY_GEOGRAPHY_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt::sql::geo {

struct LngLat {
  double lng = 0;
  double lat = 0;
  bool operator==(const LngLat&) const = default;
};
using Line = std::vector<LngLat>;
using Ring = std::vector<LngLat>;   // not closed: the first vertex is not repeated
using Polygon = std::vector<Ring>;  // the shell, then the holes

struct Geography {
  std::vector<LngLat> points;
  std::vector<Line> lines;
  std::vector<Polygon> polygons;

  bool empty() const { return points.empty() && lines.empty() && polygons.empty(); }
  // 0 points, 1 lines, 2 polygons: the highest; -1 for the empty geography.
  int Dimension() const;
  // How many parts: points, lines and polygons.
  size_t NumParts() const { return points.size() + lines.size() + polygons.size(); }
  // Every vertex, a ring's first repeated at its end (as WKT counts them).
  size_t NumVertices() const;
  // The one point of a single-point geography, or nullptr.
  const LngLat* SinglePoint() const {
    return points.size() == 1 && lines.empty() && polygons.empty() ? &points[0] : nullptr;
  }
  // The one line of a single-line geography, or nullptr.
  const Line* SingleLine() const {
    return lines.size() == 1 && points.empty() && polygons.empty() ? &lines[0] : nullptr;
  }
  // The parts one by one, each a geography of its own (ST_DUMP's order:
  // points, lines, polygons).
  std::vector<Geography> Parts() const;
  // Adds `other`'s parts to this one's.
  void Append(const Geography& other);
};

// How a parser reads rings and checks shapes.
struct ShapeOptions {
  // A ring's interior is on its left; otherwise it is the smaller of the
  // two regions the ring bounds.
  bool oriented = false;
};

// Checks and normalizes a parsed shape: coordinates in range (longitudes
// wrapped into [-180, 180]), repeated consecutive vertices dropped, lines
// of two distinct vertices or more, rings of three or more oriented as
// `options` says, and polygons whose rings neither cross nor touch
// improperly. INVALID_ARGUMENT names the fault.
Result<Geography> Normalize(Geography g, const ShapeOptions& options);

// The bytes a GEOGRAPHY Value holds, and back. Decode REQUIRES bytes
// Encode made.
std::string Encode(const Geography& g);
Geography Decode(std::string_view bytes);

}  // namespace lbt::sql::geo

#endif  // LBT_SQL_GEOGRAPHY_GEOGRAPHY_H_
