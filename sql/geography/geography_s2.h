// Spherical geometry on GEOGRAPHY values, over Google's S2 library (Debian's
// libs2): measures, predicates, the closest and furthest points, boolean
// operations, buffers, hulls, simplification and S2 cell coverings.
// Distances are on a sphere of the Earth's mean radius, 6,371,008.8 m, as
// GoogleSQL measures them.

#ifndef LBT_SQL_GEOGRAPHY_GEOGRAPHY_S2_H_
#define LBT_SQL_GEOGRAPHY_GEOGRAPHY_S2_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "api/status.h"
#include "sql/geography/geography.h"

namespace lbt::sql::geo {

inline constexpr double kEarthRadiusMeters = 6371008.8;

// ---- repair ----
// `g` with each polygon rebuilt from its rings by the even-odd rule (a ring
// that crosses itself splits into its loops; the interior is what the rings
// enclose an odd number of times, whichever way they turn), then normalized.
Result<Geography> MakeValid(const Geography& g);
// `g` read as planar (edges straight in longitude and latitude): its edges
// split until each geodesic stays within 10 m of the straight one.
Geography TessellatePlanar(const Geography& g);
// Whether no two edges of the line meet but neighbors at their shared
// vertex (and a closed line's first and last).
bool IsSimple(const Line& line);

// ---- measures ----
double Area(const Geography& g);       // square meters of the polygons
double Length(const Geography& g);     // meters of the lines
double Perimeter(const Geography& g);  // meters of the polygons' rings
// The shortest and longest distance between a point of `a` and one of `b`,
// in meters; nullopt when either is empty.
std::optional<double> Distance(const Geography& a, const Geography& b);
std::optional<double> MaxDistance(const Geography& a, const Geography& b);
// The largest distance from a point of `a` to the nearest point of `b`
// (directed) or the larger both ways, in meters, measured at `a`'s and
// `b`'s vertices and at points every ~1/64 of each edge.
std::optional<double> HausdorffDistance(const Geography& a, const Geography& b, bool directed);
// Radians clockwise from north of the path from `a` to `b`, in [0, 2pi);
// nullopt when they coincide or are antipodal.
std::optional<double> Azimuth(const LngLat& a, const LngLat& b);
// Radians clockwise from the line p2-p1 to the line p2-p3, in [0, 2pi).
std::optional<double> Angle(const LngLat& p1, const LngLat& p2, const LngLat& p3);

// ---- predicates ----
bool Intersects(const Geography& a, const Geography& b);
// Every point of `b` is in `a` (its boundary included).
bool Covers(const Geography& a, const Geography& b);
// Covers, and some point of `b` is in `a`'s interior.
bool Contains(const Geography& a, const Geography& b);
bool Equals(const Geography& a, const Geography& b);
// They intersect, but only on their boundaries.
bool Touches(const Geography& a, const Geography& b);
bool WithinDistance(const Geography& a, const Geography& b, double meters);
// Whether `g` meets the latitude-longitude box (which may cross the
// antimeridian when west > east).
bool IntersectsBox(const Geography& g, double west, double south, double east, double north);

// ---- transformations ----
Geography Centroid(const Geography& g);
// The point of `a` closest to `b`; empty when either is.
Geography ClosestPoint(const Geography& a, const Geography& b);
Geography ConvexHull(const Geography& g);
enum class BooleanOp { kUnion, kIntersection, kDifference };
Result<Geography> Boolean(BooleanOp op, const Geography& a, const Geography& b);
// The union of all `parts`, in log n rounds of pairwise unions.
Result<Geography> UnionAll(std::vector<Geography> parts);
// S2's most circle segments a buffer may use (S2BufferOperation's limit).
inline constexpr double kMaxBufferSegments = 1570;
struct BufferOptions {
  double meters = 0;
  double segments_per_quarter = 8;  // circle segments per quarter circle
  bool flat_end_caps = false;
  int side = 0;  // 0 both, -1 left, 1 right
};
Result<Geography> Buffer(const Geography& g, const BufferOptions& options);
// Vertices removed while the result stays within `meters` of `g`.
Result<Geography> Simplify(const Geography& g, double meters);
// The line's point at `fraction` of its length, and the part between two.
LngLat InterpolatePoint(const Line& line, double fraction);
Line Substring(const Line& line, double start, double end);
// The fraction of the line's length at which it comes closest to `p`.
double LocatePoint(const Line& line, const LngLat& p);

// ---- bounding boxes ----
struct Box {
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};
// nullopt for the empty geography; xmax > 180 when the box crosses the
// antimeridian.
std::optional<Box> BoundingBox(const Geography& g);

// ---- aggregates ----
// ST_CENTROID_AGG's running state: the centroid of every geography added,
// of their highest dimension's parts, in bounded memory.
class CentroidSum {
 public:
  void Add(const Geography& g);
  Geography Finish() const;  // empty when nothing was added

 private:
  double sums_[3][3] = {};  // per dimension, x y z weighted by measure
};
// ST_EXTENT's running state: the smallest box holding every box added.
class ExtentSum {
 public:
  void Add(const Geography& g);
  std::optional<Box> Finish() const;

 private:
  bool empty_ = true;
  double lat_lo_ = 0, lat_hi_ = 0, lng_lo_ = 0, lng_hi_ = 0;  // S2LatLngRect's bounds, radians
};

// ---- S2 cells ----
// The id of the S2 cell of `level` holding `p`, as GoogleSQL's INT64.
int64_t CellIdFromPoint(const LngLat& p, int level);
struct CoveringOptions {
  int min_level = 0;
  int max_level = 30;
  int max_cells = 8;
  double buffer_meters = 0;
};
// The most cells a covering may have.
inline constexpr double kMaxCoveringCells = 1'000'000;
// INVALID_ARGUMENT when a min_level would need more than kMaxCoveringCells.
Result<std::vector<int64_t>> CoveringCellIds(const Geography& g, const CoveringOptions& options);

// Ids of density-based clusters (DBSCAN) of the geographies, by distance
// `epsilon` meters and `min_points` neighbors (themselves included); a
// noise point's, an empty geography's and a NULL's id is nullopt.
std::vector<std::optional<int64_t>> ClusterDbscan(const std::vector<const Geography*>& geographies, double epsilon,
                                                  int64_t min_points);

}  // namespace lbt::sql::geo

#endif  // LBT_SQL_GEOGRAPHY_GEOGRAPHY_S2_H_
