// Every function GoogleSQL for Bigtable documents (tests/sql/
// bigtable_functions.txt) is one lbt's SQL can call: a scalar function, an
// aggregate, a window function, or a form the parser knows (CAST, IF, ...).

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "sql/functions.h"
#include "sql/functions/registry.h"

namespace lbt::sql {
namespace {

// Functions the parser and binder handle as forms of their own.
const std::set<std::string> kForms = {"CAST", "SAFE_CAST", "IF",      "IFNULL",      "NULLIF",       "COALESCE",
                                      "CASE", "IFERROR",   "ISERROR", "NULLIFERROR", "ARRAY_FILTER", "ARRAY_TRANSFORM"};

// Documented functions lbt does not have yet, each to be taken off as it
// comes: the test fails on a missing name not listed here, and on a
// listed one that exists.
const std::set<std::string> kNotYet = {"S2_CELLIDFROMPOINT",
                                       "S2_COVERINGCELLIDS",
                                       "ST_ACCUM",
                                       "ST_AREA",
                                       "ST_ASBINARY",
                                       "ST_ASGEOJSON",
                                       "ST_ASKML",
                                       "ST_ASTEXT",
                                       "ST_BOUNDARY",
                                       "ST_BUFFER",
                                       "ST_BUFFERWITHTOLERANCE",
                                       "ST_CENTROID",
                                       "ST_CENTROID_AGG",
                                       "ST_CLOSESTPOINT",
                                       "ST_CONVEXHULL",
                                       "ST_DIFFERENCE",
                                       "ST_DISTANCE",
                                       "ST_EXTERIORRING",
                                       "ST_GEOGFROM",
                                       "ST_GEOGFROMGEOJSON",
                                       "ST_GEOGFROMKML",
                                       "ST_GEOGFROMTEXT",
                                       "ST_GEOGFROMWKB",
                                       "ST_GEOGPOINT",
                                       "ST_GEOGPOINTFROMGEOHASH",
                                       "ST_GEOHASH",
                                       "ST_INTERIORRINGS",
                                       "ST_INTERSECTION",
                                       "ST_LINEINTERPOLATEPOINT",
                                       "ST_LINESUBSTRING",
                                       "ST_MAKELINE",
                                       "ST_MAKEPOLYGON",
                                       "ST_MAKEPOLYGONORIENTED",
                                       "ST_SIMPLIFY",
                                       "ST_SNAPTOGRID",
                                       "ST_UNION",
                                       "ST_UNION_AGG"};

std::set<std::string> DocumentedNames() {
  std::ifstream in(std::string(LBT_SOURCE_DIR) + "/tests/sql/bigtable_functions.txt");
  std::set<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') names.insert(line);
  }
  return names;
}

bool Callable(const std::string& name) {
  return kForms.contains(name) || FindFunction(name) != nullptr || FindAggregate(name) != nullptr ||
         FindWindowFunction(name) != nullptr;
}

TEST(DocumentedFunctionsTest, EveryDocumentedFunctionIsCallable) {
  const std::set<std::string> names = DocumentedNames();
  ASSERT_GT(names.size(), 200u);
  std::string missing, present;
  for (const std::string& name : names) {
    if (!Callable(name) && !kNotYet.contains(name)) missing += " " + name;
    if (Callable(name) && kNotYet.contains(name)) present += " " + name;
  }
  EXPECT_EQ(missing, "") << "documented functions lbt lacks";
  EXPECT_EQ(present, "") << "functions lbt has now: take them off kNotYet";
}

TEST(DocumentedFunctionsTest, TheRegistryNamesEveryFunction) {
  const std::vector<std::string> names = FunctionRegistry::Builtins().Names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const std::string& name : names) EXPECT_TRUE(Callable(name)) << name;
}

}  // namespace
}  // namespace lbt::sql
