// GEOGRAPHY's external formats: WKT, WKB, GeoJSON and KML, both ways, and
// geohashes. Parsers return the shape as written; callers pass it through
// `Normalize` (geography.h) before using it.

#ifndef LBT_SQL_GEOGRAPHY_GEOGRAPHY_FORMATS_H_
#define LBT_SQL_GEOGRAPHY_GEOGRAPHY_FORMATS_H_

#include <string>
#include <string_view>

#include "api/status.h"
#include "sql/geography/geography.h"

namespace lbt::sql::geo {

// Well-known text: POINT, LINESTRING, POLYGON, their MULTI forms and
// GEOMETRYCOLLECTION, EMPTY for any; two coordinates per vertex. A ring
// must repeat its first vertex last, unless `close_rings` (make_valid's
// leniency) closes it.
Result<Geography> ParseWkt(std::string_view text, bool close_rings = false);
// "POINT(1 2)", "MULTIPOINT(1 2, 3 4)", a GEOMETRYCOLLECTION of each
// dimension's parts when they mix, "GEOMETRYCOLLECTION EMPTY" for nothing.
std::string FormatWkt(const Geography& g);

// Well-known binary, either byte order, two dimensions; written little-
// endian as FormatWkt's shapes.
Result<Geography> ParseWkb(std::string_view bytes);
std::string FormatWkb(const Geography& g);

// RFC 7946 GeoJSON geometry objects (not Features).
Result<Geography> ParseGeoJson(std::string_view text);
std::string FormatGeoJson(const Geography& g);

// KML geometry elements: Point, LineString, Polygon, MultiGeometry.
Result<Geography> ParseKml(std::string_view text);
std::string FormatKml(const Geography& g);

// A point's geohash of at most `max_chars` characters (the precision of a
// double runs out at 20), and the center of a geohash's cell.
std::string Geohash(const LngLat& p, int max_chars);
Result<LngLat> FromGeohash(std::string_view hash);

// A coordinate as the formats write it: at most 15 significant digits, so
// that a value computed on the sphere prints as it was given.
std::string FormatCoordinate(double degrees);
// A coordinate in as few digits as read back to the same double (KML's
// and GeoJSON's, which GoogleSQL writes without loss).
std::string ExactCoordinate(double degrees);

}  // namespace lbt::sql::geo

#endif  // LBT_SQL_GEOGRAPHY_GEOGRAPHY_FORMATS_H_
