// The filter compiler: a `Filter` value to a tree of nodes (nodes.h),
// validated as Bigtable validates it. Internal to filter/: compile.cc
// compiles Bigtable's filters and CompileFilter (row_filter.h) wraps the
// tree, hbase_extensions.cc compiles the HBase shell's.

#ifndef LBT_FILTER_COMPILE_H_
#define LBT_FILTER_COMPILE_H_

#include <re2/re2.h>

#include <memory>
#include <string>

#include "api/filter.h"
#include "api/status.h"
#include "filter/nodes.h"

namespace lbt::filter_internal {

// A regex over raw bytes ('.' stops at a newline), as Bigtable's filters
// match; check ok() before use.
std::unique_ptr<RE2> NewLatin1Regex(const std::string& pattern);

// INVALID_ARGUMENT "<path>: <what> must be positive, got <n>" unless n > 0.
Status CheckPositive(int64_t n, const std::string& path, const char* what);

// Compiles one filter; `path` names it in error messages, `depth` is its
// nesting level (1 at the root) and `in_condition` whether it lies inside
// a condition, where sinks are refused.
class Compiler {
 public:
  Result<NodePtr> Compile(const Filter& f, const std::string& path, int depth, bool in_condition);

 private:
  // Chains and interleaves.
  Result<NodePtr> CompileBranches(const Filter& f, const std::string& path, int depth, bool in_condition);
  Result<NodePtr> CompileCondition(const Filter& f, const std::string& path, int depth);
  // HBase's filters, which Bigtable's API does not have (hbase_extensions.cc).
  Result<NodePtr> CompileExtension(const Filter& f, const std::string& path, int depth, bool in_condition);
  // Keeps the cells whose `field` (family, qualifier or value) the regex matches whole.
  Result<NodePtr> CellRegexNode(const std::string& pattern, const std::string& path, std::string Cell::*field);
  Result<std::shared_ptr<RE2>> Regex(const std::string& pattern, const std::string& path);
  static bool HasLabel(const Filter& f);
};

}  // namespace lbt::filter_internal

#endif  // LBT_FILTER_COMPILE_H_
