#include "sql/geography/geography_formats.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

namespace lbt::sql::geo {

std::string FormatCoordinate(double degrees) {
  if (degrees == 0) return "0";
  const std::string rounded = fmt::format("{:.15g}", degrees);
  double back = 0;
  std::from_chars(rounded.data(), rounded.data() + rounded.size(), back);
  return fmt::format("{}", back);
}

std::string ExactCoordinate(double degrees) { return degrees == 0 ? "0" : fmt::format("{}", degrees); }

// ---- WKT ----

namespace {

class WktParser {
 public:
  WktParser(std::string_view text, bool close_rings) : text_(text), close_rings_(close_rings) {}

  Result<Geography> Parse() {
    Geography g;
    LBT_RETURN_IF_ERROR(Shape(&g));
    SkipSpace();
    if (at_ != text_.size()) return Fault("unexpected text after the shape");
    return g;
  }

 private:
  Status Fault(std::string_view what) const {
    return Status::InvalidArgument(fmt::format("Invalid WKT at character {}: {}", at_ + 1, what));
  }
  void SkipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool Accept(char c) {
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  Status Expect(char c) { return Accept(c) ? Status::OK() : Fault(fmt::format("expected '{}'", c)); }
  std::string Word() {
    SkipSpace();
    std::string word;
    while (at_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[at_]))) {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(text_[at_++])));
    }
    return word;
  }
  // EMPTY, or the '(' that opens the shape's text. Z and M are refused.
  Result<bool> Opens() {
    const size_t before = at_;
    const std::string word = Word();
    if (word == "EMPTY") return false;
    if (word == "Z" || word == "M" || word == "ZM") return Fault("only two coordinates are supported (no Z or M)");
    if (!word.empty()) {
      at_ = before;
      return Fault("expected '(' or EMPTY");
    }
    LBT_RETURN_IF_ERROR(Expect('('));
    return true;
  }
  Result<double> Number() {
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == '+') ++at_;  // from_chars takes no leading +
    const char* begin = text_.data() + at_;
    double v = 0;
    auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), v);
    if (ec == std::errc::result_out_of_range) return Fault("a number out of range");
    if (ec != std::errc() || end == begin) return Fault("expected a number");
    at_ += end - begin;
    return v;
  }
  Result<LngLat> Vertex() {
    LBT_ASSIGN_OR_RETURN(double lng, Number());
    LBT_ASSIGN_OR_RETURN(double lat, Number());
    SkipSpace();
    if (at_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '-')) {
      return Fault("only two coordinates are supported (no Z or M)");
    }
    return LngLat{lng, lat};
  }
  // "(x y, x y, ...)" after its '(' was read.
  Result<std::vector<LngLat>> Vertices() {
    std::vector<LngLat> out;
    do {
      LBT_ASSIGN_OR_RETURN(LngLat p, Vertex());
      out.push_back(p);
    } while (Accept(','));
    LBT_RETURN_IF_ERROR(Expect(')'));
    return out;
  }
  Result<Polygon> PolygonText() {
    Polygon polygon;
    do {
      LBT_RETURN_IF_ERROR(Expect('('));
      LBT_ASSIGN_OR_RETURN(Ring ring, Vertices());
      if (close_rings_ && !ring.empty() && !(ring.front() == ring.back())) ring.push_back(ring.front());
      if (ring.size() < 4 || !(ring.front() == ring.back())) {
        return Fault("a polygon's ring must be closed: its last vertex repeats its first");
      }
      polygon.push_back(std::move(ring));
    } while (Accept(','));
    LBT_RETURN_IF_ERROR(Expect(')'));
    return polygon;
  }
  Status MultiPoint(Geography* g) {
    do {
      const bool wrapped = Accept('(');
      LBT_ASSIGN_OR_RETURN(LngLat p, Vertex());
      g->points.push_back(p);
      if (wrapped) LBT_RETURN_IF_ERROR(Expect(')'));
    } while (Accept(','));
    return Expect(')');
  }
  Status Shape(Geography* g);

  std::string_view text_;
  bool close_rings_ = false;
  size_t at_ = 0;
  int depth_ = 0;
};

Status WktParser::Shape(Geography* g) {
  if (++depth_ > 32) return Fault("collections nest too deeply");
  const std::string kind = Word();
  if (kind.empty()) return Fault("expected a shape such as POINT or POLYGON");
  if (kind == "FULLGLOBE") return Fault("lbt has no full-globe geography ('fullglobe')");
  LBT_ASSIGN_OR_RETURN(bool opens, Opens());
  if (!opens) {
  } else if (kind == "POINT") {
    LBT_ASSIGN_OR_RETURN(LngLat p, Vertex());
    g->points.push_back(p);
    LBT_RETURN_IF_ERROR(Expect(')'));
  } else if (kind == "LINESTRING") {
    LBT_ASSIGN_OR_RETURN(Line line, Vertices());
    g->lines.push_back(std::move(line));
  } else if (kind == "POLYGON") {
    LBT_ASSIGN_OR_RETURN(Polygon polygon, PolygonText());
    g->polygons.push_back(std::move(polygon));
  } else if (kind == "MULTIPOINT") {
    LBT_RETURN_IF_ERROR(MultiPoint(g));
  } else if (kind == "MULTILINESTRING") {
    do {
      LBT_RETURN_IF_ERROR(Expect('('));
      LBT_ASSIGN_OR_RETURN(Line line, Vertices());
      g->lines.push_back(std::move(line));
    } while (Accept(','));
    LBT_RETURN_IF_ERROR(Expect(')'));
  } else if (kind == "MULTIPOLYGON") {
    do {
      LBT_RETURN_IF_ERROR(Expect('('));
      LBT_ASSIGN_OR_RETURN(Polygon polygon, PolygonText());
      g->polygons.push_back(std::move(polygon));
    } while (Accept(','));
    LBT_RETURN_IF_ERROR(Expect(')'));
  } else if (kind == "GEOMETRYCOLLECTION") {
    do {
      LBT_RETURN_IF_ERROR(Shape(g));
    } while (Accept(','));
    LBT_RETURN_IF_ERROR(Expect(')'));
  } else {
    return Fault(fmt::format("unknown shape {}", kind));
  }
  --depth_;
  return Status::OK();
}

std::string VerticesText(const std::vector<LngLat>& vertices, bool close) {
  std::string out = "(";
  for (size_t i = 0; i < vertices.size() + (close ? 1 : 0); ++i) {
    const LngLat& p = vertices[i % vertices.size()];
    if (i > 0) out += ", ";
    out += FormatCoordinate(p.lng) + " " + FormatCoordinate(p.lat);
  }
  return out + ")";
}

std::string PolygonBody(const Polygon& polygon) {
  std::string out = "(";
  for (size_t i = 0; i < polygon.size(); ++i) out += (i ? ", " : "") + VerticesText(polygon[i], true);
  return out + ")";
}

std::string PointsWkt(const std::vector<LngLat>& points) {
  if (points.size() == 1) return "POINT" + VerticesText(points, false);
  return "MULTIPOINT" + VerticesText(points, false);
}

std::string LinesWkt(const std::vector<Line>& lines) {
  if (lines.size() == 1) return "LINESTRING" + VerticesText(lines[0], false);
  std::string out = "MULTILINESTRING(";
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? ", " : "") + VerticesText(lines[i], false);
  return out + ")";
}

std::string PolygonsWkt(const std::vector<Polygon>& polygons) {
  if (polygons.size() == 1) return "POLYGON" + PolygonBody(polygons[0]);
  std::string out = "MULTIPOLYGON(";
  for (size_t i = 0; i < polygons.size(); ++i) out += (i ? ", " : "") + PolygonBody(polygons[i]);
  return out + ")";
}

}  // namespace

Result<Geography> ParseWkt(std::string_view text, bool close_rings) { return WktParser(text, close_rings).Parse(); }

std::string FormatWkt(const Geography& g) {
  std::vector<std::string> parts;
  if (!g.points.empty()) parts.push_back(PointsWkt(g.points));
  if (!g.lines.empty()) parts.push_back(LinesWkt(g.lines));
  if (!g.polygons.empty()) parts.push_back(PolygonsWkt(g.polygons));
  if (parts.size() == 1) return parts[0];
  if (parts.empty()) return "GEOMETRYCOLLECTION EMPTY";
  return fmt::format("GEOMETRYCOLLECTION({})", fmt::join(parts, ", "));
}

// ---- WKB ----

namespace {

class WkbReader {
 public:
  explicit WkbReader(std::string_view bytes) : bytes_(bytes) {}

  Status Shape(Geography* g, int depth) {
    if (depth > 32) return Fault("collections nest too deeply");
    LBT_ASSIGN_OR_RETURN(uint32_t type, ByteOrderAndType());
    switch (type) {
      case 1: {
        LBT_ASSIGN_OR_RETURN(LngLat p, Vertex());
        // WKB writes an empty point as NaN coordinates.
        if (!(std::isnan(p.lng) && std::isnan(p.lat))) g->points.push_back(p);
        return Status::OK();
      }
      case 2: {
        LBT_ASSIGN_OR_RETURN(Line line, Vertices());
        if (!line.empty()) g->lines.push_back(std::move(line));
        return Status::OK();
      }
      case 3: {
        LBT_ASSIGN_OR_RETURN(Polygon polygon, PolygonBody());
        if (!polygon.empty()) g->polygons.push_back(std::move(polygon));
        return Status::OK();
      }
      case 4:
      case 5:
      case 6:
      case 7: {
        LBT_ASSIGN_OR_RETURN(uint32_t n, Count());
        for (uint32_t i = 0; i < n; ++i) LBT_RETURN_IF_ERROR(Shape(g, depth + 1));
        return Status::OK();
      }
      default: return Fault(fmt::format("unsupported geometry type {} (two-dimensional types 1 to 7 only)", type));
    }
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  Status Fault(std::string_view what) const {
    return Status::InvalidArgument(fmt::format("Invalid WKB at byte {}: {}", at_, what));
  }
  Result<uint32_t> ByteOrderAndType() {
    if (at_ >= bytes_.size()) return Fault("the data ends early");
    const uint8_t order = static_cast<uint8_t>(bytes_[at_++]);
    if (order > 1) return Fault("the byte order must be 0 or 1");
    little_ = order == 1;
    return Count();
  }
  Result<uint64_t> Word(size_t n) {
    if (bytes_.size() - at_ < n) return Fault("the data ends early");
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t byte = static_cast<uint8_t>(bytes_[at_ + i]);
      v |= little_ ? byte << (8 * i) : byte << (8 * (n - 1 - i));
    }
    at_ += n;
    return v;
  }
  Result<uint32_t> Count() {
    LBT_ASSIGN_OR_RETURN(uint64_t v, Word(4));
    return static_cast<uint32_t>(v);
  }
  Result<double> Number() {
    LBT_ASSIGN_OR_RETURN(uint64_t bits, Word(8));
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  Result<LngLat> Vertex() {
    LBT_ASSIGN_OR_RETURN(double lng, Number());
    LBT_ASSIGN_OR_RETURN(double lat, Number());
    return LngLat{lng, lat};
  }
  Result<std::vector<LngLat>> Vertices() {
    LBT_ASSIGN_OR_RETURN(uint32_t n, Count());
    if (n > (bytes_.size() - at_) / 16) return Fault("more vertices than bytes");
    std::vector<LngLat> out;
    for (uint32_t i = 0; i < n; ++i) {
      LBT_ASSIGN_OR_RETURN(LngLat p, Vertex());
      out.push_back(p);
    }
    return out;
  }
  Result<Polygon> PolygonBody() {
    LBT_ASSIGN_OR_RETURN(uint32_t n, Count());
    Polygon polygon;
    for (uint32_t i = 0; i < n; ++i) {
      LBT_ASSIGN_OR_RETURN(Ring ring, Vertices());
      if (ring.size() < 4 || !(ring.front() == ring.back())) return Fault("a polygon's ring must be closed");
      polygon.push_back(std::move(ring));
    }
    return polygon;
  }

  std::string_view bytes_;
  size_t at_ = 0;
  bool little_ = true;
};

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void PutDouble(std::string* out, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(bits >> (8 * i)));
}
void PutHeader(std::string* out, uint32_t type) {
  out->push_back(1);
  PutU32(out, type);
}
void PutVertices(std::string* out, const std::vector<LngLat>& vertices, bool close) {
  PutU32(out, static_cast<uint32_t>(vertices.size() + (close ? 1 : 0)));
  for (size_t i = 0; i < vertices.size() + (close ? 1 : 0); ++i) {
    PutDouble(out, vertices[i % vertices.size()].lng);
    PutDouble(out, vertices[i % vertices.size()].lat);
  }
}
void PutPolygon(std::string* out, const Polygon& polygon) {
  PutHeader(out, 3);
  PutU32(out, static_cast<uint32_t>(polygon.size()));
  for (const Ring& ring : polygon) PutVertices(out, ring, true);
}
void PutPoints(std::string* out, const std::vector<LngLat>& points) {
  if (points.size() != 1) {
    PutHeader(out, 4);
    PutU32(out, static_cast<uint32_t>(points.size()));
  }
  for (const LngLat& p : points) {
    PutHeader(out, 1);
    PutDouble(out, p.lng);
    PutDouble(out, p.lat);
  }
}
void PutLines(std::string* out, const std::vector<Line>& lines) {
  if (lines.size() != 1) {
    PutHeader(out, 5);
    PutU32(out, static_cast<uint32_t>(lines.size()));
  }
  for (const Line& line : lines) {
    PutHeader(out, 2);
    PutVertices(out, line, false);
  }
}
void PutPolygons(std::string* out, const std::vector<Polygon>& polygons) {
  if (polygons.size() != 1) {
    PutHeader(out, 6);
    PutU32(out, static_cast<uint32_t>(polygons.size()));
  }
  for (const Polygon& polygon : polygons) PutPolygon(out, polygon);
}

}  // namespace

Result<Geography> ParseWkb(std::string_view bytes) {
  WkbReader reader(bytes);
  Geography g;
  LBT_RETURN_IF_ERROR(reader.Shape(&g, 0));
  if (!reader.done()) return Status::InvalidArgument("Invalid WKB: bytes after the shape");
  return g;
}

std::string FormatWkb(const Geography& g) {
  const int kinds = !g.points.empty() + !g.lines.empty() + !g.polygons.empty();
  std::string out;
  if (kinds != 1) {
    PutHeader(&out, 7);
    PutU32(&out, static_cast<uint32_t>(kinds));
  }
  if (!g.points.empty()) PutPoints(&out, g.points);
  if (!g.lines.empty()) PutLines(&out, g.lines);
  if (!g.polygons.empty()) PutPolygons(&out, g.polygons);
  return out;
}

// ---- GeoJSON ----

namespace {

using Json = nlohmann::json;

Result<LngLat> JsonVertex(const Json& j) {
  if (!j.is_array() || j.size() < 2 || !j[0].is_number() || !j[1].is_number()) {
    return Status::InvalidArgument("Invalid GeoJSON: a position must be an array of two numbers");
  }
  if (j.size() > 2) return Status::InvalidArgument("Invalid GeoJSON: only two coordinates are supported");
  return LngLat{j[0].get<double>(), j[1].get<double>()};
}

Result<std::vector<LngLat>> JsonVertices(const Json& j) {
  if (!j.is_array()) return Status::InvalidArgument("Invalid GeoJSON: expected an array of positions");
  std::vector<LngLat> out;
  for (const Json& p : j) {
    LBT_ASSIGN_OR_RETURN(LngLat v, JsonVertex(p));
    out.push_back(v);
  }
  return out;
}

Result<Polygon> JsonPolygon(const Json& j) {
  if (!j.is_array()) return Status::InvalidArgument("Invalid GeoJSON: a polygon's coordinates must be an array");
  Polygon polygon;
  for (const Json& r : j) {
    LBT_ASSIGN_OR_RETURN(Ring ring, JsonVertices(r));
    if (ring.size() < 4 || !(ring.front() == ring.back())) {
      return Status::InvalidArgument("Invalid GeoJSON: a polygon's ring must be closed");
    }
    polygon.push_back(std::move(ring));
  }
  return polygon;
}

Status JsonShape(const Json& j, Geography* g, int depth) {
  if (depth > 32) return Status::InvalidArgument("Invalid GeoJSON: collections nest too deeply");
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) {
    return Status::InvalidArgument("Invalid GeoJSON: expected a geometry object with a \"type\"");
  }
  const std::string type = j["type"];
  if (type == "GeometryCollection") {
    if (!j.contains("geometries") || !j["geometries"].is_array()) {
      return Status::InvalidArgument("Invalid GeoJSON: a GeometryCollection needs \"geometries\"");
    }
    for (const Json& part : j["geometries"]) LBT_RETURN_IF_ERROR(JsonShape(part, g, depth + 1));
    return Status::OK();
  }
  if (!j.contains("coordinates") || !j["coordinates"].is_array()) {
    if (type == "Feature" || type == "FeatureCollection") {
      return Status::InvalidArgument("Invalid GeoJSON: expected a geometry, not a " + type);
    }
    return Status::InvalidArgument("Invalid GeoJSON: a " + type + " needs \"coordinates\"");
  }
  const Json& c = j["coordinates"];
  if (type == "Point") {
    if (c.empty()) return Status::OK();
    LBT_ASSIGN_OR_RETURN(LngLat p, JsonVertex(c));
    g->points.push_back(p);
  } else if (type == "MultiPoint") {
    LBT_ASSIGN_OR_RETURN(std::vector<LngLat> points, JsonVertices(c));
    g->points.insert(g->points.end(), points.begin(), points.end());
  } else if (type == "LineString") {
    LBT_ASSIGN_OR_RETURN(Line line, JsonVertices(c));
    if (!line.empty()) g->lines.push_back(std::move(line));
  } else if (type == "MultiLineString") {
    for (const Json& l : c) {
      LBT_ASSIGN_OR_RETURN(Line line, JsonVertices(l));
      g->lines.push_back(std::move(line));
    }
  } else if (type == "Polygon") {
    LBT_ASSIGN_OR_RETURN(Polygon polygon, JsonPolygon(c));
    if (!polygon.empty()) g->polygons.push_back(std::move(polygon));
  } else if (type == "MultiPolygon") {
    for (const Json& p : c) {
      LBT_ASSIGN_OR_RETURN(Polygon polygon, JsonPolygon(p));
      g->polygons.push_back(std::move(polygon));
    }
  } else {
    return Status::InvalidArgument("Invalid GeoJSON: unknown geometry type " + type);
  }
  return Status::OK();
}

std::string JsonPosition(const LngLat& p) { return "[" + ExactCoordinate(p.lng) + ", " + ExactCoordinate(p.lat) + "]"; }

std::string JsonPositions(const std::vector<LngLat>& vertices, bool close) {
  std::string out = "[";
  for (size_t i = 0; i < vertices.size() + (close ? 1 : 0); ++i) {
    out += (i ? ", " : "") + JsonPosition(vertices[i % vertices.size()]);
  }
  return out + "]";
}

std::string JsonPolygonCoordinates(const Polygon& polygon) {
  std::string out = "[";
  for (size_t i = 0; i < polygon.size(); ++i) out += (i ? ", " : "") + JsonPositions(polygon[i], true);
  return out + "]";
}

std::string JsonObject(std::string_view type, const std::string& coordinates) {
  return fmt::format("{{ \"type\": \"{}\", \"coordinates\": {} }}", type, coordinates);
}

std::vector<std::string> JsonParts(const Geography& g) {
  std::vector<std::string> parts;
  if (g.points.size() == 1) parts.push_back(JsonObject("Point", JsonPosition(g.points[0])));
  if (g.points.size() > 1) parts.push_back(JsonObject("MultiPoint", JsonPositions(g.points, false)));
  if (g.lines.size() == 1) parts.push_back(JsonObject("LineString", JsonPositions(g.lines[0], false)));
  if (g.lines.size() > 1) {
    std::string c = "[";
    for (size_t i = 0; i < g.lines.size(); ++i) c += (i ? ", " : "") + JsonPositions(g.lines[i], false);
    parts.push_back(JsonObject("MultiLineString", c + "]"));
  }
  if (g.polygons.size() == 1) parts.push_back(JsonObject("Polygon", JsonPolygonCoordinates(g.polygons[0])));
  if (g.polygons.size() > 1) {
    std::string c = "[";
    for (size_t i = 0; i < g.polygons.size(); ++i) c += (i ? ", " : "") + JsonPolygonCoordinates(g.polygons[i]);
    parts.push_back(JsonObject("MultiPolygon", c + "]"));
  }
  return parts;
}

}  // namespace

Result<Geography> ParseGeoJson(std::string_view text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("Invalid GeoJSON: the text is not JSON");
  Geography g;
  LBT_RETURN_IF_ERROR(JsonShape(j, &g, 0));
  return g;
}

std::string FormatGeoJson(const Geography& g) {
  const std::vector<std::string> parts = JsonParts(g);
  if (parts.size() == 1) return parts[0];
  return fmt::format("{{ \"type\": \"GeometryCollection\", \"geometries\": [{}] }}", fmt::join(parts, ", "));
}

// ---- KML ----

namespace {

std::string KmlCoordinates(const std::vector<LngLat>& vertices, bool close) {
  std::string out = "<coordinates>";
  for (size_t i = 0; i < vertices.size() + (close ? 1 : 0); ++i) {
    const LngLat& p = vertices[i % vertices.size()];
    out += (i ? " " : "") + ExactCoordinate(p.lng) + "," + ExactCoordinate(p.lat);
  }
  return out + "</coordinates>";
}

std::string KmlPolygon(const Polygon& polygon) {
  std::string out = "<Polygon>";
  for (size_t i = 0; i < polygon.size(); ++i) {
    const char* boundary = i == 0 ? "outerBoundaryIs" : "innerBoundaryIs";
    out += fmt::format("<{0}><LinearRing>{1}</LinearRing></{0}>", boundary, KmlCoordinates(polygon[i], true));
  }
  return out + "</Polygon>";
}

// A small reader of KML's geometry elements: tags, their text, nothing else
// (attributes and namespaces are skipped).
class KmlReader {
 public:
  explicit KmlReader(std::string_view text) : text_(text) {}

  Status Geometry(Geography* g, int depth) {
    if (depth > 32) return Fault("elements nest too deeply");
    LBT_ASSIGN_OR_RETURN(std::string tag, OpenTag());
    if (tag == "Point") {
      LBT_ASSIGN_OR_RETURN(std::vector<LngLat> v, CoordinatesElement());
      if (v.size() != 1) return Fault("a Point needs one coordinate");
      g->points.push_back(v[0]);
    } else if (tag == "LineString") {
      LBT_ASSIGN_OR_RETURN(Line line, CoordinatesElement());
      g->lines.push_back(std::move(line));
    } else if (tag == "Polygon") {
      LBT_RETURN_IF_ERROR(PolygonBody(g));
    } else if (tag == "MultiGeometry") {
      while (!PeekClose()) LBT_RETURN_IF_ERROR(Geometry(g, depth + 1));
    } else {
      return Fault("unsupported element <" + tag + ">");
    }
    return CloseTag(tag);
  }
  bool AtEnd() {
    SkipSpace();
    return at_ == text_.size();
  }

 private:
  Status Fault(std::string_view what) const {
    return Status::InvalidArgument(fmt::format("Invalid KML at character {}: {}", at_ + 1, what));
  }
  void SkipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool PeekClose() {
    SkipSpace();
    return text_.substr(at_, 2) == "</";
  }
  Result<std::string> OpenTag() {
    SkipSpace();
    if (at_ >= text_.size() || text_[at_] != '<' || PeekClose()) return Fault("expected an element");
    const size_t end = text_.find('>', at_);
    if (end == std::string_view::npos) return Fault("an element is not closed");
    std::string_view inside = text_.substr(at_ + 1, end - at_ - 1);
    at_ = end + 1;
    std::string_view name = inside.substr(0, inside.find_first_of(" \t\r\n/"));
    if (const size_t colon = name.find(':'); colon != std::string_view::npos) name = name.substr(colon + 1);
    return std::string(name);
  }
  Status CloseTag(const std::string& tag) {
    SkipSpace();
    if (!PeekClose()) return Fault("expected </" + tag + ">");
    const size_t end = text_.find('>', at_);
    std::string_view name = text_.substr(at_ + 2, end == std::string_view::npos ? 0 : end - at_ - 2);
    if (const size_t colon = name.find(':'); colon != std::string_view::npos) name = name.substr(colon + 1);
    if (end == std::string_view::npos || name != tag) return Fault("expected </" + tag + ">");
    at_ = end + 1;
    return Status::OK();
  }
  Result<std::vector<LngLat>> CoordinatesElement() {
    LBT_ASSIGN_OR_RETURN(std::string tag, OpenTag());
    if (tag != "coordinates") return Fault("expected <coordinates>");
    const size_t end = text_.find('<', at_);
    if (end == std::string_view::npos) return Fault("<coordinates> is not closed");
    std::string_view body = text_.substr(at_, end - at_);
    at_ = end;
    std::vector<LngLat> out;
    size_t i = 0;
    while (true) {
      while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
      if (i == body.size()) break;
      const size_t stop = body.find_first_of(" \t\r\n", i);
      std::string_view tuple = body.substr(i, stop == std::string_view::npos ? body.size() - i : stop - i);
      i += tuple.size();
      LngLat p;
      const size_t comma = tuple.find(',');
      if (comma == std::string_view::npos) return Fault("a coordinate is lng,lat[,alt]");
      std::string_view lat = tuple.substr(comma + 1);
      lat = lat.substr(0, lat.find(','));
      auto a = std::from_chars(tuple.data(), tuple.data() + comma, p.lng);
      auto b = std::from_chars(lat.data(), lat.data() + lat.size(), p.lat);
      if (a.ec != std::errc() || b.ec != std::errc()) return Fault("a coordinate is lng,lat[,alt]");
      out.push_back(p);
    }
    LBT_RETURN_IF_ERROR(CloseTag("coordinates"));
    return out;
  }
  Status PolygonBody(Geography* g) {
    Polygon polygon;
    while (!PeekClose()) {
      LBT_ASSIGN_OR_RETURN(std::string boundary, OpenTag());
      if (boundary != "outerBoundaryIs" && boundary != "innerBoundaryIs") {
        return Fault("expected <outerBoundaryIs> or <innerBoundaryIs>");
      }
      LBT_ASSIGN_OR_RETURN(std::string ring_tag, OpenTag());
      if (ring_tag != "LinearRing") return Fault("expected <LinearRing>");
      LBT_ASSIGN_OR_RETURN(Ring ring, CoordinatesElement());
      if (ring.size() < 4 || !(ring.front() == ring.back())) return Fault("a LinearRing must be closed");
      if (boundary == "outerBoundaryIs") {
        polygon.insert(polygon.begin(), std::move(ring));
      } else {
        polygon.push_back(std::move(ring));
      }
      LBT_RETURN_IF_ERROR(CloseTag("LinearRing"));
      LBT_RETURN_IF_ERROR(CloseTag(boundary));
    }
    if (!polygon.empty()) g->polygons.push_back(std::move(polygon));
    return Status::OK();
  }

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace

Result<Geography> ParseKml(std::string_view text) {
  KmlReader reader(text);
  Geography g;
  LBT_RETURN_IF_ERROR(reader.Geometry(&g, 0));
  if (!reader.AtEnd()) return Status::InvalidArgument("Invalid KML: text after the geometry");
  return g;
}

std::string FormatKml(const Geography& g) {
  std::vector<std::string> parts;
  for (const LngLat& p : g.points) parts.push_back("<Point>" + KmlCoordinates({p}, false) + "</Point>");
  for (const Line& line : g.lines) parts.push_back("<LineString>" + KmlCoordinates(line, false) + "</LineString>");
  for (const Polygon& polygon : g.polygons) parts.push_back(KmlPolygon(polygon));
  if (parts.size() == 1) return parts[0];
  return fmt::format("<MultiGeometry>{}</MultiGeometry>", fmt::join(parts, ""));
}

// ---- geohash ----

namespace {
constexpr std::string_view kGeohashAlphabet = "0123456789bcdefghjkmnpqrstuvwxyz";
}

std::string Geohash(const LngLat& p, int max_chars) {
  double lng_lo = -180, lng_hi = 180, lat_lo = -90, lat_hi = 90;
  std::string out;
  bool even = true;  // longitude first
  int bits = 0, value = 0;
  while (static_cast<int>(out.size()) < max_chars) {
    double& lo = even ? lng_lo : lat_lo;
    double& hi = even ? lng_hi : lat_hi;
    const double mid = (lo + hi) / 2;
    const double v = even ? p.lng : p.lat;
    value = value << 1 | (v >= mid ? 1 : 0);
    (v >= mid ? lo : hi) = mid;
    even = !even;
    if (++bits == 5) {
      out += kGeohashAlphabet[value];
      bits = value = 0;
    }
  }
  return out;
}

Result<LngLat> FromGeohash(std::string_view hash) {
  if (hash.empty()) return Status::InvalidArgument("a geohash cannot be empty");
  double lng_lo = -180, lng_hi = 180, lat_lo = -90, lat_hi = 90;
  bool even = true;
  for (char c : hash) {
    const size_t value = kGeohashAlphabet.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (value == std::string_view::npos) {
      return Status::InvalidArgument(fmt::format("Invalid geohash '{}': '{}' is not a geohash character", hash, c));
    }
    for (int bit = 4; bit >= 0; --bit) {
      double& lo = even ? lng_lo : lat_lo;
      double& hi = even ? lng_hi : lat_hi;
      ((value >> bit) & 1 ? lo : hi) = (lo + hi) / 2;
      even = !even;
    }
  }
  return LngLat{(lng_lo + lng_hi) / 2, (lat_lo + lat_hi) / 2};
}

}  // namespace lbt::sql::geo
