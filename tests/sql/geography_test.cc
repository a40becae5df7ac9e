// The geography functions, against every example GoogleSQL's geography
// reference prints an answer for (tests/sql/geography_examples.txt: the
// examples of Bigtable's, BigQuery's and ZetaSQL's pages, one expression
// each), and their NULLs, errors and limits.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "local/local_bigtable.h"
#include "sql/materialized_view.h"
#include "sql/query.h"
#include "tests/sql/query_lines.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

struct Example {
  std::string title;  // the comment above it
  std::string rows;   // aggregates: the input geographies, "|"-separated
  std::string expression;
  std::string answer;
};

std::vector<Example> ReadExamples() {
  std::ifstream in(std::string(LBT_SOURCE_DIR) + "/tests/sql/geography_examples.txt");
  std::vector<Example> out;
  Example next;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.rfind("# ", 0) == 0) {
      if (next.expression.empty()) next.title = line.substr(2);
    } else if (line[0] == '#') {
      continue;
    } else if (line.rfind("ROWS: ", 0) == 0) {
      next.rows = line.substr(6);
    } else if (line.rfind("AGG: ", 0) == 0) {
      next.expression = line.substr(5);
    } else if (line.rfind("=> ", 0) == 0) {
      next.answer = line.substr(3);
      out.push_back(next);
      next = Example{};
    } else {
      next.expression += line;
    }
  }
  return out;
}

// Whether `got` reads as `want`: the same text, numbers equal to a part in
// 10^9 (the reference prints 15 significant digits; "1.0" is "1").
bool SameAnswer(const std::string& want, const std::string& got) {
  static const std::regex number(R"(-?\d+(\.\d+)?([eE][-+]?\d+)?)");
  auto split = [](const std::string& s, std::vector<double>* numbers) {
    std::string text;
    size_t at = 0;
    for (std::sregex_iterator it(s.begin(), s.end(), number), end; it != end; ++it) {
      text += s.substr(at, it->position() - at) + "#";
      numbers->push_back(std::stod(it->str()));
      at = it->position() + it->length();
    }
    return text + s.substr(at);
  };
  std::vector<double> a, b;
  if (split(want, &a) != split(got, &b) || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > 1e-9 * std::max(1.0, std::abs(a[i]))) return false;
  }
  return true;
}

// Where lbt's answer is not the reference's, and why. The test fails when
// one of these starts to match, so that the list stays true.
const std::map<std::string, std::string> kDiffers = {
    {"ARRAY_TRANSFORM(ST_INTERIORRINGS(ST_GEOGFROMTEXT('fullglobe')), g -> ST_ASTEXT(g))",
     "lbt has no full-globe GEOGRAPHY: 'fullglobe' is not WKT it reads (README, sql-geography)"},
};

class GeographyTest : public ::testing::Test {
 protected:
  void SetUp() override { bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{}); }

  Result<std::vector<std::string>> Lines(const std::string& query) {
    LBT_ASSIGN_OR_RETURN(testing::QueryResult r, testing::RunQuery(bigtable_.get(), query));
    return r.lines;
  }

  std::string Eval(const std::string& expression) {
    Result<std::vector<std::string>> r = Lines("SELECT " + expression + " AS v");
    if (!r.ok()) return "ERROR: " + r.status().message();
    return r->size() == 1 ? (*r)[0] : "<rows>";
  }

  // The error of a GEOGRAPHY expression, returned as its WKT.
  std::string GeoError(const std::string& expression) { return Error("ST_ASTEXT(" + expression + ")"); }

  std::string Error(const std::string& expression) {
    Result<std::vector<std::string>> r = Lines("SELECT " + expression + " AS v");
    EXPECT_FALSE(r.ok()) << expression;
    return r.ok() ? "" : r.status().message();
  }

  // Runs an aggregate example over a table of its rows, `g` the geography
  // each row's cell holds (a row without one is NULL).
  std::string EvalOverRows(const Example& e, int table) {
    const std::string name = "t" + std::to_string(table);
    EXPECT_OK(bigtable_->CreateTable(name, {{"f", GcRule::Never(), ValueType::kBytes}}, {}, false));
    std::stringstream rows(e.rows);
    int i = 0;
    for (std::string wkt; std::getline(rows, wkt, '|'); ++i) {
      wkt = std::regex_replace(wkt, std::regex("^ +| +$"), "");
      const std::string key = fmt::format("r{:02}", i);
      std::vector<Mutation> cells = {Mutation::SetCell("f", "id", std::to_string(i), 1000)};
      if (wkt != "NULL") cells.push_back(Mutation::SetCell("f", "g", wkt, 1000));
      EXPECT_OK(bigtable_->MutateRow(name, key, cells));
    }
    const std::string g = "ST_GEOGFROMTEXT(CAST(f['g'] AS STRING))";
    const std::string expression = std::regex_replace(e.expression, std::regex(R"(\bg\b)"), g);
    Result<std::vector<std::string>> r = Lines(fmt::format("SELECT {} AS v FROM {}", expression, name));
    if (!r.ok()) return "ERROR: " + r.status().message();
    if (r->size() == 1) return (*r)[0];
    std::string joined = "[";
    for (size_t k = 0; k < r->size(); ++k) joined += (k ? ", " : "") + (*r)[k];
    return joined + "]";
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
};

TEST_F(GeographyTest, EveryReferenceExample) {
  const std::vector<Example> examples = ReadExamples();
  ASSERT_GT(examples.size(), 150u);
  int table = 0;
  std::string wrong, stale;
  for (const Example& e : examples) {
    const std::string got = e.rows.empty() ? Eval(e.expression) : EvalOverRows(e, table++);
    const bool same = e.answer == "ERROR" ? got.rfind("ERROR", 0) == 0 : SameAnswer(e.answer, got);
    const bool listed = kDiffers.contains(e.expression);
    if (!same && !listed)
      wrong += fmt::format("\n  {}\n    {}\n    want {}\n    got  {}", e.title, e.expression, e.answer, got);
    if (same && listed) stale += "\n  " + e.expression;
  }
  EXPECT_EQ(wrong, "") << "examples whose answer differs";
  EXPECT_EQ(stale, "") << "examples in kDiffers that now match";
}

// The flow of Bigtable's geospatial guide: WKT and GeoJSON text in cells,
// read with ST_GEOGFROM, filtered and measured.
TEST_F(GeographyTest, PlacesStoredAsTextInCells) {
  ASSERT_OK(bigtable_->CreateTable("poi", {{"poi_data", GcRule::Never(), ValueType::kBytes}}, {}, false));
  auto put = [this](const std::string& key, const std::string& name, const std::string& location) {
    ASSERT_OK(bigtable_->MutateRow("poi", key,
                                   {Mutation::SetCell("poi_data", "name", name, 1000),
                                    Mutation::SetCell("poi_data", "location", location, 1000)}));
  };
  put("p1", "Eiffel Tower", "POINT(2.2945 48.8584)");
  put("p2", "Louvre Museum", R"({"type": "Point", "coordinates": [2.3376, 48.8611]})");
  put("p3", "Place Charles de Gaulle",
      "POLYGON((2.2941 48.8733, 2.2941 48.8742, 2.2957 48.8742, 2.2958 48.8732, 2.2941 48.8733))");
  put("p4", "Notre-Dame", "not a shape");
  const std::string where = "SAFE.ST_GEOGFROM(CAST(poi_data['location'] AS STRING))";
  Result<std::vector<std::string>> near =
      Lines(fmt::format("SELECT _key, CAST(poi_data['name'] AS STRING) AS name FROM poi "
                        "WHERE ST_DWITHIN({}, ST_GEOGPOINT(2.2945, 48.8584), 2000)",
                        where));
  ASSERT_OK(near.status());
  EXPECT_EQ(*near, (std::vector<std::string>{"p1|Eiffel Tower", "p3|Place Charles de Gaulle"}));
  // p3's area: about 12,750 m² by the shoelace formula on a local plane.
  Result<std::vector<std::string>> kinds =
      Lines(fmt::format("SELECT _key, ST_GEOMETRYTYPE({0}) AS kind, ROUND(ST_AREA({0})) AS area FROM poi", where));
  ASSERT_OK(kinds.status());
  EXPECT_EQ(*kinds,
            (std::vector<std::string>{"p1|ST_Point|0", "p2|ST_Point|0", "p3|ST_Polygon|12727", "p4|NULL|NULL"}));
  // Without SAFE., text that is no shape fails the query, naming the fault.
  Result<std::vector<std::string>> strict =
      Lines("SELECT ST_GEOGFROM(CAST(poi_data['location'] AS STRING)) IS NULL AS v FROM poi");
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("Invalid WKT"), std::string::npos) << strict.status().ToString();
}

TEST_F(GeographyTest, NullsEmptiesAndErrors) {
  EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGPOINT(NULL, 1))"), "NULL");
  EXPECT_EQ(Eval("ST_DISTANCE(ST_GEOGPOINT(0, 0), NULL)"), "NULL");
  EXPECT_EQ(Eval("ST_DISTANCE(ST_GEOGPOINT(0, 0), ST_GEOGFROMTEXT('POINT EMPTY'))"), "NULL");
  EXPECT_EQ(Eval("ST_INTERSECTS(ST_GEOGPOINT(0, 0), ST_GEOGFROMTEXT('GEOMETRYCOLLECTION EMPTY'))"), "false");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGPOINT(190, 10))"), "POINT(-170 10)");  // longitudes wrap
  EXPECT_NE(GeoError("ST_GEOGPOINT(0, 91)").find("Latitude must be between -90 and 90"), std::string::npos);
  EXPECT_NE(Error("ST_X(ST_GEOGFROMTEXT('LINESTRING(0 0, 1 1)'))").find("ST_X needs a single point, got a linestring"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POLYGON((0 0, 1 0, 1 1))')").find("must be closed"), std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POLYGON((0 0, 2 2, 2 0, 0 2, 0 0))')").find("Invalid polygon"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POINT Z (1 2 3)')").find("no Z or M"), std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMGEOJSON('{\"type\": \"Feature\"}')").find("not a Feature"), std::string::npos);
  EXPECT_NE(Error("ST_AREA(ST_GEOGPOINT(0, 0), use_spheroid => TRUE)").find("only use_spheroid => FALSE"),
            std::string::npos);
  EXPECT_EQ(Eval("ST_ASTEXT(SAFE.ST_GEOGFROMTEXT('POINT(1)'))"), "NULL");
}

TEST_F(GeographyTest, NamedArguments) {
  EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROMTEXT('POLYGON((0 0, 0 2, 2 2, 2 0, 0 0))', oriented => TRUE))"),
            "POLYGON((0 0, 0 2, 2 2, 2 0, 0 0))");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROMTEXT('POLYGON((0 0, 0 2, 2 2, 2 0, 0 0))', TRUE))"),
            "POLYGON((0 0, 0 2, 2 2, 2 0, 0 0))");
  // A later name, the ones between taking their defaults.
  EXPECT_EQ(Eval("ARRAY_LENGTH(S2_COVERINGCELLIDS(ST_GEOGPOINT(1, 2), max_cells => 1, min_level => 3))"), "1");
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POINT(1 2)', sideways => TRUE)")
                .find("Named argument sideways does not exist in signature of function ST_GEOGFROMTEXT"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POINT(1 2)', oriented => TRUE, oriented => FALSE)").find("given twice"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT(make_valid => TRUE, 'POINT(1 2)')").find("positional argument cannot follow"),
            std::string::npos);
  EXPECT_NE(Error("ABS(x => 1)").find("ABS takes no named arguments"), std::string::npos);
}

TEST_F(GeographyTest, FormatsRoundTrip) {
  const std::string shapes[] = {"POINT(1 2)",
                                "MULTIPOINT(1 2, 3 4)",
                                "LINESTRING(1 2, 3 4, 5 7)",
                                "MULTILINESTRING((1 2, 3 4), (5 6, 7 8))",
                                "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (8 6, 6 2, 4 2, 8 6))",
                                "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
                                "GEOMETRYCOLLECTION(POINT(1 2), LINESTRING(3 4, 5 6))",
                                "GEOMETRYCOLLECTION EMPTY"};
  for (const std::string& wkt : shapes) {
    const std::string g = "ST_GEOGFROMTEXT('" + wkt + "')";
    EXPECT_EQ(Eval("ST_ASTEXT(" + g + ")"), wkt);
    EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROMWKB(ST_ASBINARY(" + g + ")))"), wkt);
    EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROMGEOJSON(ST_ASGEOJSON(" + g + ")))"), wkt) << Eval("ST_ASGEOJSON(" + g + ")");
    if (wkt != "GEOMETRYCOLLECTION EMPTY") {
      EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROMKML(ST_ASKML(" + g + ")))"), wkt) << Eval("ST_ASKML(" + g + ")");
    }
    EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGFROM(TO_HEX(ST_ASBINARY(" + g + "))))"), wkt);
  }
  EXPECT_EQ(Eval("ST_ASGEOJSON(ST_GEOGPOINT(-122.35, 47.62))"),
            R"({ "type": "Point", "coordinates": [-122.35, 47.62] })");
  EXPECT_EQ(Eval("ST_ASKML(ST_GEOGFROMTEXT('LINESTRING(1 2, 3 4)'))"),
            "<LineString><coordinates>1,2 3,4</coordinates></LineString>");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_GEOGPOINTFROMGEOHASH(ST_GEOHASH(ST_GEOGPOINT(-122.35, 47.62), 20)))"),
            "POINT(-122.35 47.62)");
}

// A query cannot return a GEOGRAPHY: Bigtable's result types have none.
// Grouping and ordering by one are refused, as GoogleSQL refuses them.
TEST_F(GeographyTest, WhereAGeographyCannotGo) {
  EXPECT_NE(Error("ST_GEOGPOINT(1, 2)").find("Column v is a GEOGRAPHY, which a query cannot return"),
            std::string::npos);
  EXPECT_NE(Error("ST_DUMP(ST_GEOGPOINT(1, 2))").find("ARRAY<GEOGRAPHY>"), std::string::npos);
  // Inside a query, and between pipe stages, it may go anywhere.
  EXPECT_EQ(Eval("ST_ASTEXT(STRUCT(ST_GEOGPOINT(1, 2) AS g).g)"), "POINT(1 2)");
  Result<std::vector<std::string>> piped =
      Lines("SELECT 1 AS x |> EXTEND ST_GEOGPOINT(x, 2) AS g |> SELECT ST_ASTEXT(g) AS t");
  ASSERT_OK(piped.status());
  EXPECT_EQ(*piped, std::vector<std::string>{"POINT(1 2)"});
  ASSERT_OK(bigtable_->CreateTable("t", {{"f", GcRule::Never(), ValueType::kBytes}}, {}, false));
  Result<std::vector<std::string>> grouped = Lines("SELECT COUNT(*) AS n FROM t GROUP BY ST_GEOGPOINT(1, 2)");
  ASSERT_FALSE(grouped.ok());
  EXPECT_NE(grouped.status().message().find("Grouping by expressions of type GEOGRAPHY"), std::string::npos);
  // Nor can a materialized view keep one.
  Result<std::unique_ptr<MaterializedViewPlan>> view = MaterializedViewPlan::Make(
      bigtable_.get(), "SELECT _key, ANY_VALUE(ST_GEOGPOINT(1, 2)) AS g FROM t GROUP BY _key");
  ASSERT_FALSE(view.ok());
  EXPECT_NE(view.status().message().find("Column g is a GEOGRAPHY"), std::string::npos);
  Result<std::vector<std::string>> ordered = Lines("SELECT _key FROM t ORDER BY ST_GEOGPOINT(1, 2)");
  ASSERT_FALSE(ordered.ok());
  EXPECT_NE(ordered.status().message().find("ORDER BY does not support expressions of type GEOGRAPHY"),
            std::string::npos);
}

TEST_F(GeographyTest, HostileShapes) {
  // Deep nesting is refused, not recursed into without end.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "GEOMETRYCOLLECTION(";
  deep += "POINT(1 2)" + std::string(100, ')');
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('" + deep + "')").find("nest too deeply"), std::string::npos);
  // A WKB that claims more vertices than it holds.
  EXPECT_NE(GeoError("ST_GEOGFROMWKB(FROM_HEX('0102000000ffffff7f'))").find("Invalid WKB"), std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMWKB(FROM_HEX('01'))").find("Invalid WKB"), std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('LINESTRING(0 0, 180 0)')").find("antipodal"), std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMKML('<Point><coordinates>1</coordinates></Point>')").find("Invalid KML"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGPOINTFROMGEOHASH('abc!')").find("not a geohash character"), std::string::npos);
}

// What S2 would abort on, or could not bound, is a one-line error.
TEST_F(GeographyTest, LimitsAreErrorsNotAborts) {
  EXPECT_NE(GeoError("ST_BUFFER(ST_GEOGPOINT(0, 0), 100, num_seg_quarter_circle => 400)").find("at most 392.5"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_BUFFER(ST_GEOGPOINT(0, 0), CAST('nan' AS FLOAT64))").find("finite"), std::string::npos);
  EXPECT_EQ(Eval("ST_NUMPOINTS(ST_BUFFERWITHTOLERANCE(ST_GEOGPOINT(0, 0), 100, 1e-6))"), "1571");  // S2's most
  EXPECT_NE(GeoError("ST_SIMPLIFY(ST_GEOGFROMTEXT('LINESTRING(0 0, 1 0.001, 2 0)'), 7900000)").find("7,800 km"),
            std::string::npos);
  EXPECT_NE(Error("ST_INTERSECTSBOX(ST_GEOGPOINT(0, 0), CAST('nan' AS FLOAT64), 0, 1, 1)").find("finite"),
            std::string::npos);
  EXPECT_EQ(Eval("ST_INTERSECTSBOX(ST_GEOGPOINT(-175, 0), -190, -10, -170, 10)"), "true");
  EXPECT_NE(Error("S2_COVERINGCELLIDS(ST_GEOGFROMTEXT('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))'), min_level => 20)")
                .find("more than the 1000000 lbt allows"),
            std::string::npos);
  EXPECT_NE(Error("S2_COVERINGCELLIDS(ST_GEOGPOINT(0, 0), max_cells => 1000000000)").find("from 1 to 1000000"),
            std::string::npos);
}

// The semantics GoogleSQL's reference states beyond its examples.
TEST_F(GeographyTest, DocumentedRules) {
  // Shapes are closed sets: lines that cross meet at a point, squares
  // that share an edge meet along it.
  EXPECT_EQ(Eval("ST_ASTEXT(ST_INTERSECTION(ST_GEOGFROMTEXT('LINESTRING(0 0, 2 2)'), "
                 "ST_GEOGFROMTEXT('LINESTRING(0 2, 2 0)')))"),
            "POINT(1 1.00045705372412)");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_INTERSECTION(ST_GEOGFROMTEXT('POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))'), "
                 "ST_GEOGFROMTEXT('POLYGON((2 0, 4 0, 4 2, 2 2, 2 0))')))"),
            "LINESTRING(2 0, 2 2)");
  // Lines overlapping along a stretch share it.
  EXPECT_EQ(Eval("ST_ASTEXT(ST_INTERSECTION(ST_GEOGFROMTEXT('LINESTRING(0 0, 2 0)'), "
                 "ST_GEOGFROMTEXT('LINESTRING(1 0, 3 0)')))"),
            "LINESTRING(1 0, 2 0)");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_DIFFERENCE(ST_GEOGFROMTEXT('LINESTRING(0 0, 2 0)'), "
                 "ST_GEOGFROMTEXT('LINESTRING(1 0, 3 0)')))"),
            "LINESTRING(0 0, 1 0)");
  // Overlapping polygons are refused, or merged by make_valid.
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('MULTIPOLYGON(((0 0, 2 0, 2 2, 0 2, 0 0)), ((1 1, 3 1, 3 3, 1 3, 1 1)))')")
                .find("overlap"),
            std::string::npos);
  EXPECT_EQ(Eval("ST_NUMGEOMETRIES(ST_GEOGFROMTEXT('MULTIPOLYGON(((0 0, 2 0, 2 2, 0 2, 0 0)), "
                 "((1 1, 3 1, 3 3, 1 3, 1 1)))', make_valid => TRUE))"),
            "1");
  EXPECT_EQ(Eval("ST_ISCLOSED(ST_GEOGFROMTEXT('POLYGON((0 0, 1 0, 1 1, 0 0))'))"), "false");
  EXPECT_NE(GeoError("ST_POINTN(ST_GEOGFROMTEXT('LINESTRING(1 1, 2 2)'), 3)").find("no vertex at index 3"),
            std::string::npos);
  EXPECT_EQ(Eval("ST_GEOHASH(ST_GEOGPOINT(-122.35, 47.62), 0)"), Eval("ST_GEOHASH(ST_GEOGPOINT(-122.35, 47.62))"));
  EXPECT_EQ(Eval("ARRAY_LENGTH(ST_DUMP(ST_GEOGFROMTEXT('GEOMETRYCOLLECTION(POINT(0 0), LINESTRING(1 2, 2 1))'), -1))"),
            "2");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_UNION([ST_GEOGPOINT(1, 1), NULL]))"), "POINT(1 1)");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_MAKEPOLYGONORIENTED([ST_GEOGFROMTEXT('LINESTRING(0 0, 1 0, 1 1, 0 0)'), NULL]))"),
            "NULL");
  EXPECT_EQ(Eval("ST_ASTEXT(ST_LINEINTERPOLATEPOINT(ST_GEOGFROMTEXT('LINESTRING EMPTY'), 0.5))"),
            "GEOMETRYCOLLECTION EMPTY");
  EXPECT_EQ(Eval("ST_NUMPOINTS(ST_BUFFERWITHTOLERANCE(ST_GEOGPOINT(0, 0), 100, tolerance_meters => 25))"), "6");
  EXPECT_NE(GeoError("ST_BUFFERWITHTOLERANCE(ST_GEOGPOINT(0, 0), 100, endcap => 'FLAT')")
                .find("needs argument tolerance_meters"),
            std::string::npos);
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('POINT(1 2)', oriented => TRUE, planar => TRUE)").find("cannot be combined"),
            std::string::npos);
  EXPECT_EQ(Eval("ST_ASTEXT(ST_SNAPTOGRID(ST_GEOGFROMTEXT('LINESTRING(0.123456 0.654321, 1.98765 2.34567)'), 0.03))"),
            "LINESTRING(0.12 0.65, 1.99 2.35)");  // the grid rounded to 0.01
  EXPECT_EQ(Eval("ST_ASTEXT(ST_BOUNDARY(ST_GEOGFROMTEXT('MULTILINESTRING((0 0, 1 0), (1 0, 2 0))')))"),
            "MULTIPOINT(0 0, 2 0)");
  EXPECT_EQ(Eval("ST_X(ST_GEOGFROMKML(ST_ASKML(ST_GEOGPOINT(1.0 / 3, 0.1)))) = 1.0 / 3"), "true");
  EXPECT_NE(GeoError("ST_GEOGFROMTEXT('fullglobe')").find("no full-globe geography"), std::string::npos);
}

// ST_EXTENT's span of 180 degrees or more is the whole range; an empty
// geography is noise to ST_CLUSTERDBSCAN even when no minimum applies.
TEST_F(GeographyTest, AggregateRules) {
  EXPECT_EQ(EvalOverRows({"", "POINT(0 0) | POINT(120 1) | POINT(-120 2)", "ST_EXTENT(g)", ""}, 100),
            "{xmin: -180, ymin: 0, xmax: 180, ymax: 2}");
  EXPECT_EQ(EvalOverRows(
                {"", "POINT(0 0) | POINT EMPTY | NULL | POINT(0 1)", "ST_CLUSTERDBSCAN(g, 1e6, 0) OVER ()", ""}, 101),
            "[0, NULL, NULL, 0]");
}

}  // namespace
}  // namespace lbt::sql
