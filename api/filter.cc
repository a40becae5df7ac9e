#include "api/filter.h"

#include <utility>

namespace lbt {

// ---- construction ----

Filter Filter::PassAll() { return Filter{}; }

namespace {
Filter Make(Filter::Kind kind) {
  Filter f;
  f.kind = kind;
  return f;
}
}  // namespace

Filter Filter::BlockAll() { return Make(Kind::kBlockAll); }
Filter Filter::Sink() { return Make(Kind::kSink); }
Filter Filter::StripValue() { return Make(Kind::kStripValue); }

Filter Filter::Chain(std::vector<Filter> filters) {
  Filter f = Make(Kind::kChain);
  f.children = std::move(filters);
  return f;
}

Filter Filter::Interleave(std::vector<Filter> filters) {
  Filter f = Make(Kind::kInterleave);
  f.children = std::move(filters);
  return f;
}

Filter Filter::Condition(Filter predicate, std::optional<Filter> true_filter, std::optional<Filter> false_filter) {
  Filter f = Make(Kind::kCondition);
  f.children.push_back(std::move(predicate));
  if (true_filter) f.true_filter = std::make_shared<const Filter>(std::move(*true_filter));
  if (false_filter) f.false_filter = std::make_shared<const Filter>(std::move(*false_filter));
  return f;
}

Filter Filter::RowKeyRegex(std::string regex) {
  Filter f = Make(Kind::kRowKeyRegex);
  f.pattern = std::move(regex);
  return f;
}

Filter Filter::RowSample(double probability) {
  Filter f = Make(Kind::kRowSample);
  f.probability = probability;
  return f;
}

Filter Filter::FamilyNameRegex(std::string regex) {
  Filter f = Make(Kind::kFamilyNameRegex);
  f.pattern = std::move(regex);
  return f;
}

Filter Filter::QualifierRegex(std::string regex) {
  Filter f = Make(Kind::kQualifierRegex);
  f.pattern = std::move(regex);
  return f;
}

Filter Filter::ColumnRange(std::string family, ByteBound low, ByteBound high) {
  Filter f = Make(Kind::kColumnRange);
  f.family = std::move(family);
  f.low = std::move(low);
  f.high = std::move(high);
  return f;
}

Filter Filter::TimestampRange(int64_t start_micros, int64_t end_micros) {
  Filter f = Make(Kind::kTimestampRange);
  f.start_micros = start_micros;
  f.end_micros = end_micros;
  return f;
}

Filter Filter::ValueRegex(std::string regex) {
  Filter f = Make(Kind::kValueRegex);
  f.pattern = std::move(regex);
  return f;
}

Filter Filter::ValueBitmask(std::string mask) {
  Filter f = Make(Kind::kValueBitmask);
  f.pattern = std::move(mask);
  return f;
}

Filter Filter::ValueRange(ByteBound low, ByteBound high) {
  Filter f = Make(Kind::kValueRange);
  f.low = std::move(low);
  f.high = std::move(high);
  return f;
}

Filter Filter::CellsPerRowOffset(int64_t n) {
  Filter f = Make(Kind::kCellsPerRowOffset);
  f.count = n;
  return f;
}

Filter Filter::CellsPerRowLimit(int64_t n) {
  Filter f = Make(Kind::kCellsPerRowLimit);
  f.count = n;
  return f;
}

Filter Filter::CellsPerColumnLimit(int64_t n) {
  Filter f = Make(Kind::kCellsPerColumnLimit);
  f.count = n;
  return f;
}

Filter Filter::ApplyLabel(std::string label) {
  Filter f = Make(Kind::kApplyLabel);
  f.pattern = std::move(label);
  return f;
}

Filter Filter::Union(std::vector<Filter> filters) {
  Filter f = Make(Kind::kUnion);
  f.children = std::move(filters);
  return f;
}

Filter Filter::Skip(Filter filter) {
  Filter f = Make(Kind::kSkip);
  f.children.push_back(std::move(filter));
  return f;
}

Filter Filter::While(Filter filter) {
  Filter f = Make(Kind::kWhile);
  f.children.push_back(std::move(filter));
  return f;
}

Filter Filter::Compare(Target target, CompareOp op, Comparator comparator, std::string comparand) {
  Filter f = Make(Kind::kCompare);
  f.target = target;
  f.op = op;
  f.comparator = comparator;
  f.comparand = std::move(comparand);
  return f;
}

Filter Filter::QualifierRange(ByteBound low, ByteBound high) {
  Filter f = Make(Kind::kQualifierRange);
  f.low = std::move(low);
  f.high = std::move(high);
  return f;
}

Filter Filter::ColumnValue(std::string family, std::string qualifier, CompareOp op, Comparator comparator,
                           std::string comparand, bool filter_if_missing, bool latest_version_only,
                           bool exclude_column) {
  Filter f = Make(Kind::kColumnValue);
  f.family = std::move(family);
  f.pattern = std::move(qualifier);
  f.op = op;
  f.comparator = comparator;
  f.comparand = std::move(comparand);
  f.filter_if_missing = filter_if_missing;
  f.latest_version_only = latest_version_only;
  f.exclude_column = exclude_column;
  return f;
}

Filter Filter::Timestamps(std::vector<int64_t> micros) {
  Filter f = Make(Kind::kTimestamps);
  f.timestamps = std::move(micros);
  return f;
}

Filter Filter::Page(int64_t rows) {
  Filter f = Make(Kind::kPage);
  f.count = rows;
  return f;
}

Filter Filter::ColumnCount(int64_t columns) {
  Filter f = Make(Kind::kColumnCount);
  f.count = columns;
  return f;
}

Filter Filter::ColumnPage(int64_t limit, int64_t offset) {
  Filter f = Make(Kind::kColumnPage);
  f.count = limit;
  f.offset = offset;
  return f;
}

Filter Filter::DependentColumn(std::string family, std::string qualifier, bool drop_column) {
  Filter f = Make(Kind::kDependentColumn);
  f.family = std::move(family);
  f.pattern = std::move(qualifier);
  f.exclude_column = drop_column;
  return f;
}

Filter Filter::DependentColumn(std::string family, std::string qualifier, bool drop_column, CompareOp op,
                               Comparator comparator, std::string comparand) {
  Filter f = DependentColumn(std::move(family), std::move(qualifier), drop_column);
  f.compare_values = true;
  f.op = op;
  f.comparator = comparator;
  f.comparand = std::move(comparand);
  return f;
}

}  // namespace lbt
