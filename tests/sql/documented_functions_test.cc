// Every function GoogleSQL for Bigtable documents (tests/sql/
// bigtable_functions.txt, geography_function_names.txt) is one lbt's SQL
// can call: a scalar function, an
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

// The names of Bigtable's functions-all page and the category pages it
// links, and of its geography page (with the accessors, predicates and
// measures its category table shares with GoogleSQL's other products).
std::set<std::string> DocumentedNames() {
  std::set<std::string> names;
  for (const char* file : {"/tests/sql/bigtable_functions.txt", "/tests/sql/geography_function_names.txt"}) {
    std::ifstream in(std::string(LBT_SOURCE_DIR) + file);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line[0] != '#') names.insert(line);
    }
  }
  return names;
}

bool Callable(const std::string& name) {
  return kForms.contains(name) || FindFunction(name) != nullptr || FindAggregate(name) != nullptr ||
         FindWindowFunction(name) != nullptr;
}

TEST(DocumentedFunctionsTest, EveryDocumentedFunctionIsCallable) {
  const std::set<std::string> names = DocumentedNames();
  ASSERT_GT(names.size(), 280u);
  std::string missing;
  for (const std::string& name : names) {
    if (!Callable(name)) missing += " " + name;
  }
  EXPECT_EQ(missing, "") << "documented functions lbt lacks";
}

TEST(DocumentedFunctionsTest, TheRegistryNamesEveryFunction) {
  const std::vector<std::string> names = FunctionRegistry::Builtins().Names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const std::string& name : names) EXPECT_TRUE(Callable(name)) << name;
}

}  // namespace
}  // namespace lbt::sql
