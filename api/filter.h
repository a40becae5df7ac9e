// Bigtable's RowFilter model (google.bigtable.v2.RowFilter), with the HBase
// filter language's extensions, as a plain value tree. Requests carry
// filters as values; filter/row_filter.h compiles one for evaluation.

#ifndef LBT_API_FILTER_H_
#define LBT_API_FILTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/row_set.h"
#include "api/status.h"

namespace lbt {

using ByteBound = Bound;  // an end of a qualifier or value range

struct Filter {
  enum class Kind {
    kPassAll,
    kBlockAll,
    kSink,
    kChain,                // children, in order
    kInterleave,           // children, outputs merged in storage order
    kCondition,            // children[0] predicate; true/false branches below
    kRowKeyRegex,          // pattern
    kRowSample,            // probability
    kFamilyNameRegex,      // pattern
    kQualifierRegex,       // pattern
    kColumnRange,          // family, low, high (qualifiers)
    kTimestampRange,       // start_micros, end_micros (0: unbounded)
    kValueRegex,           // pattern
    kValueRange,           // low, high
    kCellsPerRowOffset,    // count
    kCellsPerRowLimit,     // count
    kCellsPerColumnLimit,  // count
    kStripValue,
    kApplyLabel,    // pattern holds the label
    kValueBitmask,  // pattern holds the mask: (value & mask) == mask, equal lengths
    // Beyond Bigtable's model, for the HBase filter language:
    kUnion,            // children; a cell any child keeps, once (HBase OR)
    kSkip,             // children[0]; drops a row if it drops any of its cells
    kWhile,            // children[0]; ends the scan at the first such row
    kCompare,          // target, op, comparator, pattern (HBase CompareFilter)
    kQualifierRange,   // low, high over qualifiers of any family
    kColumnValue,      // family, pattern (qualifier), op, comparator, flags
    kTimestamps,       // timestamps (exact, in microseconds)
    kPage,             // count: rows to return in the whole scan
    kColumnCount,      // count: cells of the first N columns of a row
    kColumnPage,       // count columns starting at offset
    kDependentColumn,  // family, pattern (qualifier), exclude_column, and a value test if compare_values
  };

  // What a kCompare filter looks at.
  enum class Target { kRowKey, kFamily, kQualifier, kValue };
  enum class CompareOp { kLess, kLessOrEqual, kEqual, kNotEqual, kGreaterOrEqual, kGreater };
  // How the comparand is matched: bytes order, bytes order on the target's
  // prefix, an unanchored regex search, a case-insensitive substring.
  enum class Comparator { kBinary, kBinaryPrefix, kRegex, kSubstring };

  Kind kind = Kind::kPassAll;
  std::vector<Filter> children;
  // kCondition: the branches; a missing branch yields no cells.
  std::shared_ptr<const Filter> true_filter;
  std::shared_ptr<const Filter> false_filter;
  std::string pattern;
  std::string family;
  ByteBound low, high;
  int64_t count = 0;
  int64_t start_micros = 0;
  int64_t end_micros = 0;
  double probability = 0;
  // HBase extensions.
  Target target = Target::kRowKey;
  CompareOp op = CompareOp::kEqual;
  Comparator comparator = Comparator::kBinary;
  std::string comparand;
  bool filter_if_missing = false;   // kColumnValue
  bool latest_version_only = true;  // kColumnValue
  bool exclude_column = false;      // kColumnValue: SingleColumnValueExcludeFilter
  int64_t offset = 0;               // kColumnPage
  bool compare_values = false;      // kDependentColumn: op, comparator, comparand test the column's values
  std::vector<int64_t> timestamps;  // kTimestamps

  static Filter PassAll();
  static Filter BlockAll();
  static Filter Sink();
  static Filter Chain(std::vector<Filter> filters);
  static Filter Interleave(std::vector<Filter> filters);
  static Filter Condition(Filter predicate, std::optional<Filter> true_filter, std::optional<Filter> false_filter);
  static Filter RowKeyRegex(std::string regex);
  static Filter RowSample(double probability);
  static Filter FamilyNameRegex(std::string regex);
  static Filter QualifierRegex(std::string regex);
  static Filter ColumnRange(std::string family, ByteBound low, ByteBound high);
  static Filter TimestampRange(int64_t start_micros, int64_t end_micros);
  static Filter ValueRegex(std::string regex);
  static Filter ValueRange(ByteBound low, ByteBound high);
  static Filter CellsPerRowOffset(int64_t n);
  static Filter CellsPerRowLimit(int64_t n);
  static Filter CellsPerColumnLimit(int64_t n);
  static Filter StripValue();
  static Filter ApplyLabel(std::string label);
  static Filter ValueBitmask(std::string mask);

  static Filter Union(std::vector<Filter> filters);
  static Filter Skip(Filter filter);
  static Filter While(Filter filter);
  static Filter Compare(Target target, CompareOp op, Comparator comparator, std::string comparand);
  static Filter QualifierRange(ByteBound low, ByteBound high);
  static Filter ColumnValue(std::string family, std::string qualifier, CompareOp op, Comparator comparator,
                            std::string comparand, bool filter_if_missing, bool latest_version_only,
                            bool exclude_column);
  static Filter Timestamps(std::vector<int64_t> micros);
  static Filter Page(int64_t rows);
  static Filter ColumnCount(int64_t columns);
  static Filter ColumnPage(int64_t limit, int64_t offset);
  // HBase's DependentColumnFilter: keeps the cells whose timestamp one of
  // the reference column's cells has (those passing the value test, if
  // given); a row without such a cell is dropped. `drop_column` leaves the
  // reference column's own cells out.
  static Filter DependentColumn(std::string family, std::string qualifier, bool drop_column);
  static Filter DependentColumn(std::string family, std::string qualifier, bool drop_column, CompareOp op,
                                Comparator comparator, std::string comparand);
};

}  // namespace lbt

#endif  // LBT_API_FILTER_H_
