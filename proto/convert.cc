#include "proto/convert.h"

#include <fmt/format.h>

#include <google/protobuf/util/time_util.h>
#include <algorithm>

#include "api/limits.h"

namespace lbt::proto {

namespace {

Status Invalid(std::string_view field, std::string_view what) {
  return Status::InvalidArgument(fmt::format("{}: {}", field, what));
}

}  // namespace

// ---- row sets ----

namespace {

// One end of a range whose closed and open forms are a proto oneof.
template <typename Case>
Bound BoundOf(Case which, Case closed_case, const std::string& closed, Case open_case, const std::string& open) {
  if (which == closed_case) return Bound::Closed(closed);
  if (which == open_case) return Bound::Open(open);
  return Bound::Unbounded();
}

Bound StartBound(const v2::RowRange& r) {
  return BoundOf(r.start_key_case(), v2::RowRange::kStartKeyClosed, r.start_key_closed(), v2::RowRange::kStartKeyOpen,
                 r.start_key_open());
}

Bound EndBound(const v2::RowRange& r) {
  return BoundOf(r.end_key_case(), v2::RowRange::kEndKeyClosed, r.end_key_closed(), v2::RowRange::kEndKeyOpen,
                 r.end_key_open());
}

}  // namespace

Result<RowSet> FromProto(const v2::RowSet& rows, std::string_view field) {
  RowSet out;
  for (int i = 0; i < rows.row_keys_size(); ++i) {
    if (rows.row_keys(i).empty()) {
      return Invalid(fmt::format("{}.row_keys[{}]", field, i), "a row key must not be empty");
    }
    out.row_keys.push_back(rows.row_keys(i));
  }
  for (int i = 0; i < rows.row_ranges_size(); ++i) {
    const v2::RowRange& r = rows.row_ranges(i);
    RowRange range{StartBound(r), EndBound(r)};
    // An empty end key means "no end", as an unset one does.
    if (range.end.value.empty()) range.end = Bound::Unbounded();
    if (range.IsInverted()) {
      return Invalid(fmt::format("{}.row_ranges[{}]", field, i), "start_key must be less than end_key");
    }
    out.row_ranges.push_back(std::move(range));
  }
  return out;
}

v2::RowSet ToProto(const RowSet& rows) {
  v2::RowSet out;
  for (const std::string& key : rows.row_keys) out.add_row_keys(key);
  for (const RowRange& range : rows.row_ranges) {
    v2::RowRange* r = out.add_row_ranges();
    if (range.start.kind == Bound::Kind::kClosed) r->set_start_key_closed(range.start.value);
    if (range.start.kind == Bound::Kind::kOpen) r->set_start_key_open(range.start.value);
    if (range.end.kind == Bound::Kind::kClosed) r->set_end_key_closed(range.end.value);
    if (range.end.kind == Bound::Kind::kOpen) r->set_end_key_open(range.end.value);
  }
  return out;
}

// ---- filters ----

namespace {

// Bigtable allows 20 levels of nesting; CompileFilter enforces that. This
// bound only keeps a hostile request from exhausting the stack first.
constexpr int kMaxConvertDepth = 64;

Result<Filter> FilterFromProto(const v2::RowFilter& f, const std::string& path, int depth);

Result<std::vector<Filter>> FilterList(const google::protobuf::RepeatedPtrField<v2::RowFilter>& list,
                                       const std::string& path, int depth) {
  std::vector<Filter> out;
  for (int i = 0; i < list.size(); ++i) {
    LBT_ASSIGN_OR_RETURN(Filter child, FilterFromProto(list[i], fmt::format("{}.filters[{}]", path, i), depth + 1));
    out.push_back(std::move(child));
  }
  return out;
}

Bound QualifierStart(const v2::ColumnRange& r) {
  return BoundOf(r.start_qualifier_case(), v2::ColumnRange::kStartQualifierClosed, r.start_qualifier_closed(),
                 v2::ColumnRange::kStartQualifierOpen, r.start_qualifier_open());
}

Bound QualifierEnd(const v2::ColumnRange& r) {
  return BoundOf(r.end_qualifier_case(), v2::ColumnRange::kEndQualifierClosed, r.end_qualifier_closed(),
                 v2::ColumnRange::kEndQualifierOpen, r.end_qualifier_open());
}

Bound ValueStart(const v2::ValueRange& r) {
  return BoundOf(r.start_value_case(), v2::ValueRange::kStartValueClosed, r.start_value_closed(),
                 v2::ValueRange::kStartValueOpen, r.start_value_open());
}

Bound ValueEnd(const v2::ValueRange& r) {
  return BoundOf(r.end_value_case(), v2::ValueRange::kEndValueClosed, r.end_value_closed(),
                 v2::ValueRange::kEndValueOpen, r.end_value_open());
}

Result<Filter> ConditionFromProto(const v2::RowFilter::Condition& c, const std::string& path, int depth) {
  if (!c.has_predicate_filter()) return Invalid(path, "a condition needs a predicateFilter");
  LBT_ASSIGN_OR_RETURN(Filter predicate, FilterFromProto(c.predicate_filter(), path + ".predicateFilter", depth + 1));
  std::optional<Filter> on_true, on_false;
  if (c.has_true_filter()) {
    LBT_ASSIGN_OR_RETURN(on_true, FilterFromProto(c.true_filter(), path + ".trueFilter", depth + 1));
  }
  if (c.has_false_filter()) {
    LBT_ASSIGN_OR_RETURN(on_false, FilterFromProto(c.false_filter(), path + ".falseFilter", depth + 1));
  }
  return Filter::Condition(std::move(predicate), std::move(on_true), std::move(on_false));
}

// A boolean filter field is meaningful only when true.
Result<Filter> IfTrue(bool set, Filter filter, const std::string& path) {
  if (!set) return Invalid(path, "expected true");
  return filter;
}

Result<Filter> FilterFromProto(const v2::RowFilter& f, const std::string& path, int depth) {
  if (depth > kMaxConvertDepth) return Invalid(path, "filters nest too deeply");
  using F = v2::RowFilter;
  switch (f.filter_case()) {
    case F::kChain: {
      LBT_ASSIGN_OR_RETURN(auto list, FilterList(f.chain().filters(), path + ".chain", depth));
      return Filter::Chain(std::move(list));
    }
    case F::kInterleave: {
      LBT_ASSIGN_OR_RETURN(auto list, FilterList(f.interleave().filters(), path + ".interleave", depth));
      return Filter::Interleave(std::move(list));
    }
    case F::kCondition: return ConditionFromProto(f.condition(), path + ".condition", depth);
    case F::kSink: return IfTrue(f.sink(), Filter::Sink(), path + ".sink");
    case F::kPassAllFilter: return IfTrue(f.pass_all_filter(), Filter::PassAll(), path + ".passAllFilter");
    case F::kBlockAllFilter: return IfTrue(f.block_all_filter(), Filter::BlockAll(), path + ".blockAllFilter");
    case F::kStripValueTransformer:
      return IfTrue(f.strip_value_transformer(), Filter::StripValue(), path + ".stripValueTransformer");
    case F::kRowKeyRegexFilter: return Filter::RowKeyRegex(f.row_key_regex_filter());
    case F::kRowSampleFilter: return Filter::RowSample(f.row_sample_filter());
    case F::kFamilyNameRegexFilter: return Filter::FamilyNameRegex(f.family_name_regex_filter());
    case F::kColumnQualifierRegexFilter: return Filter::QualifierRegex(f.column_qualifier_regex_filter());
    case F::kColumnRangeFilter: {
      const v2::ColumnRange& r = f.column_range_filter();
      return Filter::ColumnRange(r.family_name(), QualifierStart(r), QualifierEnd(r));
    }
    case F::kTimestampRangeFilter:
      return Filter::TimestampRange(f.timestamp_range_filter().start_timestamp_micros(),
                                    f.timestamp_range_filter().end_timestamp_micros());
    case F::kValueRegexFilter: return Filter::ValueRegex(f.value_regex_filter());
    case F::kValueRangeFilter:
      return Filter::ValueRange(ValueStart(f.value_range_filter()), ValueEnd(f.value_range_filter()));
    case F::kCellsPerRowOffsetFilter: return Filter::CellsPerRowOffset(f.cells_per_row_offset_filter());
    case F::kCellsPerRowLimitFilter: return Filter::CellsPerRowLimit(f.cells_per_row_limit_filter());
    case F::kCellsPerColumnLimitFilter: return Filter::CellsPerColumnLimit(f.cells_per_column_limit_filter());
    case F::kApplyLabelTransformer: return Filter::ApplyLabel(f.apply_label_transformer());
    case F::kValueBitmaskFilter: return Filter::ValueBitmask(f.value_bitmask_filter().mask());
    case F::FILTER_NOT_SET: break;
  }
  return Invalid(path, "a RowFilter holds exactly one filter; none is set");
}

}  // namespace

Result<Filter> FromProto(const v2::RowFilter& filter, std::string_view field) {
  return FilterFromProto(filter, std::string(field), 0);
}

namespace {

Status Inexpressible(const Filter& f) {
  return Status::InvalidArgument(fmt::format(
      "filter kind {} is not part of Bigtable's RowFilter and cannot be sent to Bigtable", static_cast<int>(f.kind)));
}

Status ChildrenToProto(const std::vector<Filter>& children, google::protobuf::RepeatedPtrField<v2::RowFilter>* out) {
  for (const Filter& child : children) {
    LBT_ASSIGN_OR_RETURN(*out->Add(), ToProto(child));
  }
  return Status::OK();
}

}  // namespace

Result<v2::RowFilter> ToProto(const Filter& f) {
  using K = Filter::Kind;
  v2::RowFilter out;
  switch (f.kind) {
    case K::kPassAll: out.set_pass_all_filter(true); break;
    case K::kBlockAll: out.set_block_all_filter(true); break;
    case K::kSink: out.set_sink(true); break;
    case K::kStripValue: out.set_strip_value_transformer(true); break;
    case K::kChain: LBT_RETURN_IF_ERROR(ChildrenToProto(f.children, out.mutable_chain()->mutable_filters())); break;
    case K::kInterleave:
      LBT_RETURN_IF_ERROR(ChildrenToProto(f.children, out.mutable_interleave()->mutable_filters()));
      break;
    case K::kCondition: {
      v2::RowFilter::Condition* c = out.mutable_condition();
      LBT_ASSIGN_OR_RETURN(*c->mutable_predicate_filter(), ToProto(f.children.at(0)));
      if (f.true_filter) {
        LBT_ASSIGN_OR_RETURN(*c->mutable_true_filter(), ToProto(*f.true_filter));
      }
      if (f.false_filter) {
        LBT_ASSIGN_OR_RETURN(*c->mutable_false_filter(), ToProto(*f.false_filter));
      }
      break;
    }
    case K::kRowKeyRegex: out.set_row_key_regex_filter(f.pattern); break;
    case K::kRowSample: out.set_row_sample_filter(f.probability); break;
    case K::kFamilyNameRegex: out.set_family_name_regex_filter(f.pattern); break;
    case K::kQualifierRegex: out.set_column_qualifier_regex_filter(f.pattern); break;
    case K::kColumnRange: {
      v2::ColumnRange* r = out.mutable_column_range_filter();
      r->set_family_name(f.family);
      if (f.low.kind == Bound::Kind::kClosed) r->set_start_qualifier_closed(f.low.value);
      if (f.low.kind == Bound::Kind::kOpen) r->set_start_qualifier_open(f.low.value);
      if (f.high.kind == Bound::Kind::kClosed) r->set_end_qualifier_closed(f.high.value);
      if (f.high.kind == Bound::Kind::kOpen) r->set_end_qualifier_open(f.high.value);
      break;
    }
    case K::kTimestampRange:
      out.mutable_timestamp_range_filter()->set_start_timestamp_micros(f.start_micros);
      out.mutable_timestamp_range_filter()->set_end_timestamp_micros(f.end_micros);
      break;
    case K::kValueRegex: out.set_value_regex_filter(f.pattern); break;
    case K::kValueRange: {
      v2::ValueRange* r = out.mutable_value_range_filter();
      if (f.low.kind == Bound::Kind::kClosed) r->set_start_value_closed(f.low.value);
      if (f.low.kind == Bound::Kind::kOpen) r->set_start_value_open(f.low.value);
      if (f.high.kind == Bound::Kind::kClosed) r->set_end_value_closed(f.high.value);
      if (f.high.kind == Bound::Kind::kOpen) r->set_end_value_open(f.high.value);
      break;
    }
    case K::kCellsPerRowOffset: out.set_cells_per_row_offset_filter(static_cast<int32_t>(f.count)); break;
    case K::kCellsPerRowLimit: out.set_cells_per_row_limit_filter(static_cast<int32_t>(f.count)); break;
    case K::kCellsPerColumnLimit: out.set_cells_per_column_limit_filter(static_cast<int32_t>(f.count)); break;
    case K::kApplyLabel: out.set_apply_label_transformer(f.pattern); break;
    case K::kValueBitmask: out.mutable_value_bitmask_filter()->set_mask(f.pattern); break;
    default: return Inexpressible(f);
  }
  return out;
}

// ---- mutations ----

namespace {

// AddToCell's qualifier and timestamp are typed Values; Bigtable accepts
// raw bytes (or a bytes value) for the qualifier and raw micros (or an
// int) for the timestamp.
Result<std::string> QualifierValue(const v2::Value& v, const std::string& path) {
  if (v.kind_case() == v2::Value::kRawValue) return v.raw_value();
  if (v.kind_case() == v2::Value::kBytesValue) return v.bytes_value();
  if (v.kind_case() == v2::Value::kStringValue) return v.string_value();
  return Invalid(path, "expected raw_value bytes");
}

Result<int64_t> TimestampValue(const v2::Value& v, const std::string& path) {
  if (v.kind_case() == v2::Value::kRawTimestampMicros) return v.raw_timestamp_micros();
  if (v.kind_case() == v2::Value::kIntValue) return v.int_value();
  if (v.kind_case() == v2::Value::KIND_NOT_SET) return kServerTime;
  return Invalid(path, "expected raw_timestamp_micros");
}

Result<int64_t> IntInput(const v2::Value& v, const std::string& path) {
  if (v.kind_case() == v2::Value::kIntValue) return v.int_value();
  if (v.kind_case() == v2::Value::kRawValue) {
    int64_t n = 0;
    if (DecodeInt64(v.raw_value(), &n)) return n;
    return Invalid(path, fmt::format("expected an 8-byte big-endian int64, got {} bytes", v.raw_value().size()));
  }
  return Invalid(path, "expected int_value");
}

// Whether a timestamp fits the table's granularity is the table's to say
// (storage/rows/row_writer.h); a negative one other than -1 fits none.
Status CheckTimestamp(int64_t micros, const std::string& path) {
  if (micros == kServerTime || micros >= 0) return Status::OK();
  return Invalid(path, fmt::format("timestamp {} is negative; -1 asks for the server's time", micros));
}

// A timestamp the client library made up (CLIENT_AUTO_GENERATED, as
// Java's stamps a SetCell without one, in microseconds) is cut to the
// table's granularity, as data.proto says production does; one the user
// gave, or one of unknown origin, must fit it.
Mutation Stamped(Mutation m, v2::Mutation::TimestampOrigin origin) {
  m.client_timestamp = origin == v2::Mutation::CLIENT_AUTO_GENERATED;
  return m;
}

template <typename AggregateMutation>
Result<Mutation> AggregateFromProto(const AggregateMutation& m, v2::Mutation::TimestampOrigin origin,
                                    const std::string& path, bool merge) {
  LBT_ASSIGN_OR_RETURN(std::string qualifier, QualifierValue(m.column_qualifier(), path + ".column_qualifier"));
  LBT_ASSIGN_OR_RETURN(int64_t ts, TimestampValue(m.timestamp(), path + ".timestamp"));
  LBT_RETURN_IF_ERROR(CheckTimestamp(ts, path + ".timestamp"));
  // Raw bytes are an HLL++ family's input or state, or an int64
  // aggregate's 8-byte integer: the family's type decides (storage).
  if (m.input().kind_case() == v2::Value::kRawValue) {
    Mutation out = Mutation::AddBytesToCell(m.family_name(), std::move(qualifier), m.input().raw_value(), ts, merge);
    DecodeInt64(m.input().raw_value(), &out.int_value);
    return Stamped(std::move(out), origin);
  }
  LBT_ASSIGN_OR_RETURN(int64_t input, IntInput(m.input(), path + ".input"));
  Mutation out = Mutation::AddToCell(m.family_name(), std::move(qualifier), input, ts);
  out.merge = merge;
  return Stamped(std::move(out), origin);
}

}  // namespace

Result<Mutation> FromProto(const v2::Mutation& m, std::string_view field) {
  const std::string path(field);
  switch (m.mutation_case()) {
    case v2::Mutation::kSetCell: {
      const auto& s = m.set_cell();
      LBT_RETURN_IF_ERROR(CheckTimestamp(s.timestamp_micros(), path + ".set_cell.timestamp_micros"));
      return Stamped(Mutation::SetCell(s.family_name(), s.column_qualifier(), s.value(), s.timestamp_micros()),
                     m.timestamp_origin());
    }
    case v2::Mutation::kAddToCell:
      return AggregateFromProto(m.add_to_cell(), m.timestamp_origin(), path + ".add_to_cell", false);
    // Merging an int64 aggregate's state is adding it as an input; an
    // HLL++ family merges a sketch.
    case v2::Mutation::kMergeToCell:
      return AggregateFromProto(m.merge_to_cell(), m.timestamp_origin(), path + ".merge_to_cell", true);
    case v2::Mutation::kDeleteFromColumn: {
      const auto& d = m.delete_from_column();
      TimestampRange range{d.time_range().start_timestamp_micros(), d.time_range().end_timestamp_micros()};
      return Mutation::DeleteFromColumn(d.family_name(), d.column_qualifier(), range);
    }
    case v2::Mutation::kDeleteFromFamily: return Mutation::DeleteFromFamily(m.delete_from_family().family_name());
    case v2::Mutation::kDeleteFromRow: return Mutation::DeleteFromRow();
    case v2::Mutation::MUTATION_NOT_SET: break;
  }
  return Invalid(path,
                 "a mutation must set one of set_cell, add_to_cell, merge_to_cell, "
                 "delete_from_column, delete_from_family or delete_from_row");
}

Result<std::vector<Mutation>> FromProto(const google::protobuf::RepeatedPtrField<v2::Mutation>& mutations,
                                        std::string_view field) {
  if (mutations.empty()) return Invalid(field, "at least one mutation is required");
  std::vector<Mutation> out;
  out.reserve(mutations.size());
  for (int i = 0; i < mutations.size(); ++i) {
    // The field's path is spelled out only for an error: formatting it
    // for every mutation cost a bulk write a tenth of its time.
    Result<Mutation> m = FromProto(mutations[i], field);
    if (!m.ok()) return FromProto(mutations[i], fmt::format("{}[{}]", field, i)).status();
    out.push_back(std::move(m).value());
  }
  return out;
}

Result<Idempotency> FromProto(const v2::Idempotency& idempotency, std::string_view field) {
  Idempotency out;
  out.token = idempotency.token();
  if (out.token.size() < 8 || out.token.size() > 1024) {
    return Invalid(
        std::string(field) + ".token",
        fmt::format("must be 8 to 1024 bytes (a token of at least 8, as data.proto asks), got {}", out.token.size()));
  }
  if (idempotency.has_start_time()) {
    LBT_ASSIGN_OR_RETURN(out.start_time_micros,
                         TimestampMicros(idempotency.start_time(), std::string(field) + ".start_time"));
  }
  return out;
}

v2::Idempotency ToProto(const Idempotency& idempotency) {
  v2::Idempotency out;
  out.set_token(idempotency.token);
  if (idempotency.start_time_micros != 0) {
    *out.mutable_start_time() =
        google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(idempotency.start_time_micros);
  }
  return out;
}

// An AddToCell or MergeToCell's fields, which the two messages share.
template <typename AggregateMutation>
void FillAggregate(const Mutation& m, AggregateMutation* a) {
  a->set_family_name(m.family);
  a->mutable_column_qualifier()->set_raw_value(m.qualifier);
  a->mutable_timestamp()->set_raw_timestamp_micros(m.timestamp);
  if (m.bytes_input) {
    a->mutable_input()->set_raw_value(m.value);
  } else {
    a->mutable_input()->set_int_value(m.int_value);
  }
}

v2::Mutation ToProto(const Mutation& m) {
  v2::Mutation out;
  switch (m.kind) {
    case Mutation::Kind::kSetCell: {
      auto* s = out.mutable_set_cell();
      s->set_family_name(m.family);
      s->set_column_qualifier(m.qualifier);
      s->set_timestamp_micros(m.timestamp);
      s->set_value(m.value);
      break;
    }
    case Mutation::Kind::kAddToCell:
      if (m.merge) {
        FillAggregate(m, out.mutable_merge_to_cell());
      } else {
        FillAggregate(m, out.mutable_add_to_cell());
      }
      break;
    case Mutation::Kind::kDeleteFromColumn: {
      auto* d = out.mutable_delete_from_column();
      d->set_family_name(m.family);
      d->set_column_qualifier(m.qualifier);
      if (m.range.start_micros != 0 || m.range.end_micros != 0) {
        d->mutable_time_range()->set_start_timestamp_micros(m.range.start_micros);
        d->mutable_time_range()->set_end_timestamp_micros(m.range.end_micros);
      }
      break;
    }
    case Mutation::Kind::kDeleteFromFamily: out.mutable_delete_from_family()->set_family_name(m.family); break;
    case Mutation::Kind::kDeleteFromRow: out.mutable_delete_from_row(); break;
  }
  if (m.client_timestamp) out.set_timestamp_origin(v2::Mutation::CLIENT_AUTO_GENERATED);
  return out;
}

Result<ReadModifyWriteRule> FromProto(const v2::ReadModifyWriteRule& rule, std::string_view field) {
  switch (rule.rule_case()) {
    case v2::ReadModifyWriteRule::kAppendValue:
      return ReadModifyWriteRule::Append(rule.family_name(), rule.column_qualifier(), rule.append_value());
    case v2::ReadModifyWriteRule::kIncrementAmount:
      return ReadModifyWriteRule::Increment(rule.family_name(), rule.column_qualifier(), rule.increment_amount());
    case v2::ReadModifyWriteRule::RULE_NOT_SET: break;
  }
  return Invalid(field, "a rule must set append_value or increment_amount");
}

v2::ReadModifyWriteRule ToProto(const ReadModifyWriteRule& rule) {
  v2::ReadModifyWriteRule out;
  out.set_family_name(rule.family);
  out.set_column_qualifier(rule.qualifier);
  if (rule.kind == ReadModifyWriteRule::Kind::kAppend) {
    out.set_append_value(rule.append_value);
  } else {
    out.set_increment_amount(rule.increment);
  }
  return out;
}

v2::Row ToProto(const Row& row) {
  v2::Row out;
  out.set_key(row.key);
  v2::Family* family = nullptr;
  v2::Column* column = nullptr;
  for (const Cell& cell : row.cells) {
    if (family == nullptr || family->name() != cell.family) {
      family = out.add_families();
      family->set_name(cell.family);
      column = nullptr;
    }
    if (column == nullptr || column->qualifier() != cell.qualifier) {
      column = family->add_columns();
      column->set_qualifier(cell.qualifier);
    }
    v2::Cell* c = column->add_cells();
    c->set_timestamp_micros(cell.timestamp);
    c->set_value(cell.value);
    for (const std::string& label : cell.labels) c->add_labels(label);
  }
  return out;
}

// ---- schema ----

Result<int64_t> DurationMicros(const google::protobuf::Duration& d, const std::string& field) {
  if (d.seconds() < -kMaxDurationSeconds || d.seconds() > kMaxDurationSeconds) {
    return Invalid(field + ".seconds", fmt::format("{} is out of range for a Duration (at most {} in magnitude)",
                                                   d.seconds(), kMaxDurationSeconds));
  }
  if (d.nanos() < -999'999'999 || d.nanos() > 999'999'999) {
    return Invalid(field + ".nanos",
                   fmt::format("{} is out of range for a Duration (at most 999999999 in magnitude)", d.nanos()));
  }
  if ((d.seconds() > 0 && d.nanos() < 0) || (d.seconds() < 0 && d.nanos() > 0)) {
    return Invalid(field + ".nanos", "must have the same sign as seconds");
  }
  // kMaxDurationSeconds is about 3.2e17 us, well inside int64.
  return d.seconds() * 1'000'000 + d.nanos() / 1000;
}

Result<int64_t> TimestampMicros(const google::protobuf::Timestamp& t, std::string_view field) {
  using google::protobuf::util::TimeUtil;
  if (t.seconds() < TimeUtil::kTimestampMinSeconds || t.seconds() > TimeUtil::kTimestampMaxSeconds || t.nanos() < 0 ||
      t.nanos() > 999'999'999) {
    return Status::InvalidArgument(fmt::format("{}: not a time between the years 1 and 9999", field));
  }
  return TimeUtil::TimestampToMicroseconds(t);
}

namespace {

// `strict`: judge the values as a request's (positive counts and ages);
// otherwise take a service's description as it is.
Result<GcRule> GcRuleFromProto(const admin::GcRule& rule, std::string_view field, bool strict) {
  const std::string path(field);
  switch (rule.rule_case()) {
    case admin::GcRule::kMaxNumVersions:
      if (strict && rule.max_num_versions() <= 0) {
        return Invalid(path + ".max_num_versions", fmt::format("must be positive, got {}", rule.max_num_versions()));
      }
      return GcRule::MaxVersions(rule.max_num_versions());
    case admin::GcRule::kMaxAge: {
      LBT_ASSIGN_OR_RETURN(int64_t micros, DurationMicros(rule.max_age(), path + ".max_age"));
      if (strict && micros <= 0) return Invalid(path + ".max_age", "must be a positive duration");
      return GcRule::MaxAge(micros);
    }
    case admin::GcRule::kIntersection:
    case admin::GcRule::kUnion: {
      const bool is_union = rule.rule_case() == admin::GcRule::kUnion;
      const auto& rules = is_union ? rule.union_().rules() : rule.intersection().rules();
      const std::string at = path + (is_union ? ".union.rules" : ".intersection.rules");
      std::vector<GcRule> children;
      for (int i = 0; i < rules.size(); ++i) {
        LBT_ASSIGN_OR_RETURN(GcRule child, GcRuleFromProto(rules[i], fmt::format("{}[{}]", at, i), strict));
        children.push_back(std::move(child));
      }
      if (strict && children.empty()) return Invalid(at, "needs at least one rule");
      return is_union ? GcRule::Union(std::move(children)) : GcRule::Intersection(std::move(children));
    }
    case admin::GcRule::RULE_NOT_SET: break;
  }
  return GcRule::Never();
}

}  // namespace

Result<GcRule> FromProto(const admin::GcRule& rule, std::string_view field) {
  return GcRuleFromProto(rule, field, /*strict=*/true);
}

admin::GcRule ToProto(const GcRule& rule) {
  admin::GcRule out;
  switch (rule.kind) {
    case GcRule::Kind::kNever: break;
    case GcRule::Kind::kMaxVersions: out.set_max_num_versions(static_cast<int32_t>(rule.max_versions)); break;
    case GcRule::Kind::kMaxAge:
      out.mutable_max_age()->set_seconds(rule.max_age_micros / 1000000);
      out.mutable_max_age()->set_nanos(static_cast<int32_t>(rule.max_age_micros % 1000000) * 1000);
      break;
    case GcRule::Kind::kIntersection:
      for (const GcRule& r : rule.rules) *out.mutable_intersection()->add_rules() = ToProto(r);
      break;
    case GcRule::Kind::kUnion:
      for (const GcRule& r : rule.rules) *out.mutable_union_()->add_rules() = ToProto(r);
      break;
  }
  return out;
}

Result<ValueType> ValueTypeFromProto(const admin::Type& type, std::string_view field) {
  switch (type.kind_case()) {
    case admin::Type::KIND_NOT_SET:
    case admin::Type::kBytesType: return ValueType::kBytes;
    case admin::Type::kStringType:
      // No encoding means the default, UTF-8 bytes.
      return type.string_type().encoding().encoding_case() == admin::Type::String::Encoding::kUtf8Raw
                 ? ValueType::kStringUtf8Raw
                 : ValueType::kString;
    case admin::Type::kAggregateType: {
      const auto& agg = type.aggregate_type();
      // types.proto: "Input: Any, or omit for Raw". lbt counts INT64
      // inputs and raw bytes.
      if (agg.aggregator_case() == admin::Type::Aggregate::kHllppUniqueCount) {
        switch (agg.input_type().kind_case()) {
          case admin::Type::kInt64Type: return ValueType::kHllInt64;
          case admin::Type::KIND_NOT_SET:
          case admin::Type::kBytesType: return ValueType::kHllBytes;
          default:
            return Invalid(std::string(field) + ".aggregate_type.input_type",
                           "lbt's hllpp_unique_count counts int64 inputs or raw bytes");
        }
      }
      if (agg.input_type().kind_case() != admin::Type::kInt64Type) {
        return Invalid(std::string(field) + ".aggregate_type.input_type", "lbt supports int64 aggregates only");
      }
      switch (agg.aggregator_case()) {
        case admin::Type::Aggregate::kSum: return ValueType::kIntSum;
        case admin::Type::Aggregate::kMin: return ValueType::kIntMin;
        case admin::Type::Aggregate::kMax: return ValueType::kIntMax;
        default:
          return Invalid(std::string(field) + ".aggregate_type",
                         "lbt supports the sum, min, max and hllpp_unique_count aggregators");
      }
    }
    default: break;
  }
  return Invalid(field,
                 "a family's value type must be bytes, string, an int64 aggregate (sum, min, max) or an "
                 "hllpp_unique_count aggregate");
}

admin::Type ToProto(ValueType type) {
  admin::Type out;
  if (type == ValueType::kString) out.mutable_string_type()->mutable_encoding()->mutable_utf8_bytes();
  if (type == ValueType::kStringUtf8Raw) {
    // Deprecated in the proto, but what cbt sends and the emulator keeps.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    out.mutable_string_type()->mutable_encoding()->mutable_utf8_raw();
#pragma GCC diagnostic pop
  }
  if (IsHll(type)) {
    admin::Type::Aggregate* agg = out.mutable_aggregate_type();
    if (type == ValueType::kHllInt64) {
      agg->mutable_input_type()->mutable_int64_type()->mutable_encoding()->mutable_big_endian_bytes();
    } else {
      agg->mutable_input_type()->mutable_bytes_type()->mutable_encoding()->mutable_raw();
    }
    agg->mutable_state_type()->mutable_bytes_type()->mutable_encoding()->mutable_raw();
    agg->mutable_hllpp_unique_count();
    return out;
  }
  if (!IsAggregate(type)) return out;
  admin::Type::Aggregate* agg = out.mutable_aggregate_type();
  agg->mutable_input_type()->mutable_int64_type()->mutable_encoding()->mutable_big_endian_bytes();
  agg->mutable_state_type()->mutable_int64_type()->mutable_encoding()->mutable_big_endian_bytes();
  if (type == ValueType::kIntSum) agg->mutable_sum();
  if (type == ValueType::kIntMin) agg->mutable_min();
  if (type == ValueType::kIntMax) agg->mutable_max();
  return out;
}

Result<FamilySpec> FromProto(std::string_view name, const admin::ColumnFamily& family, std::string_view field) {
  FamilySpec out;
  out.name = std::string(name);
  LBT_ASSIGN_OR_RETURN(out.gc_rule, FromProto(family.gc_rule(), std::string(field) + ".gc_rule"));
  if (!family.has_value_type()) return out;
  const admin::Type& type = family.value_type();
  // A schema bundle's type: the bundle is the table's, checked there.
  if (type.has_proto_type() || type.has_enum_type()) {
    const bool proto = type.has_proto_type();
    out.value_type = proto ? ValueType::kProto : ValueType::kEnum;
    out.schema_bundle_id = proto ? type.proto_type().schema_bundle_id() : type.enum_type().schema_bundle_id();
    out.type_name = proto ? type.proto_type().message_name() : type.enum_type().enum_name();
    if (out.schema_bundle_id.empty() || out.type_name.empty()) {
      return Invalid(std::string(field) + ".value_type",
                     "a proto or enum type names its schema_bundle_id and its type's full name");
    }
    return out;
  }
  LBT_ASSIGN_OR_RETURN(out.value_type, ValueTypeFromProto(type, std::string(field) + ".value_type"));
  return out;
}

admin::ColumnFamily ToProto(const FamilySpec& family) {
  admin::ColumnFamily out;
  *out.mutable_gc_rule() = ToProto(family.gc_rule);
  if (family.value_type == ValueType::kProto) {
    out.mutable_value_type()->mutable_proto_type()->set_schema_bundle_id(family.schema_bundle_id);
    out.mutable_value_type()->mutable_proto_type()->set_message_name(family.type_name);
  } else if (family.value_type == ValueType::kEnum) {
    out.mutable_value_type()->mutable_enum_type()->set_schema_bundle_id(family.schema_bundle_id);
    out.mutable_value_type()->mutable_enum_type()->set_enum_name(family.type_name);
  } else if (family.value_type != ValueType::kBytes) {
    *out.mutable_value_type() = ToProto(family.value_type);
  }
  return out;
}

namespace {

Result<std::optional<AutomatedBackupPolicy>> BackupPolicyFromProto(const admin::Table& table, std::string_view field) {
  if (!table.has_automated_backup_policy()) return std::optional<AutomatedBackupPolicy>();
  const std::string at = std::string(field) + ".automated_backup_policy";
  AutomatedBackupPolicy policy;
  LBT_ASSIGN_OR_RETURN(policy.retention_micros,
                       DurationMicros(table.automated_backup_policy().retention_period(), at + ".retention_period"));
  LBT_ASSIGN_OR_RETURN(policy.frequency_micros,
                       DurationMicros(table.automated_backup_policy().frequency(), at + ".frequency"));
  return std::optional<AutomatedBackupPolicy>(policy);
}

// A table's tiered storage rule: none without an infrequent_access rule.
Result<std::optional<TieredStorage>> TieredStorageFromProto(const admin::Table& table, std::string_view field) {
  if (!table.has_tiered_storage_config() || !table.tiered_storage_config().has_infrequent_access()) {
    return std::optional<TieredStorage>();
  }
  TieredStorage tiers;
  LBT_ASSIGN_OR_RETURN(
      tiers.infrequent_access_older_than_micros,
      DurationMicros(table.tiered_storage_config().infrequent_access().include_if_older_than(),
                     std::string(field) + ".tiered_storage_config.infrequent_access.include_if_older_than"));
  return std::optional<TieredStorage>(tiers);
}

void SetTieredStorage(const std::optional<TieredStorage>& tiers, admin::Table* table) {
  if (!tiers) return;
  *table->mutable_tiered_storage_config()->mutable_infrequent_access()->mutable_include_if_older_than() =
      google::protobuf::util::TimeUtil::MicrosecondsToDuration(tiers->infrequent_access_older_than_micros);
}

void SetBackupPolicy(const std::optional<AutomatedBackupPolicy>& policy, admin::Table* table) {
  if (!policy) return;
  using google::protobuf::util::TimeUtil;
  auto* out = table->mutable_automated_backup_policy();
  *out->mutable_retention_period() = TimeUtil::MicrosecondsToDuration(policy->retention_micros);
  *out->mutable_frequency() = TimeUtil::MicrosecondsToDuration(policy->frequency_micros);
}

}  // namespace

namespace {

// The settings CreateTable takes and GetTable shows, on a NewTable or a
// TableSpec alike (granularity, protection, automated backups, tiered
// storage, a row-key schema).
template <typename Spec>
Status SettingsFromProto(const admin::Table& table, std::string_view field, Spec* out) {
  out->deletion_protection = table.deletion_protection();
  LBT_ASSIGN_OR_RETURN(out->granularity,
                       GranularityFromProto(table.granularity(), std::string(field) + ".granularity"));
  LBT_ASSIGN_OR_RETURN(out->automated_backup_policy, BackupPolicyFromProto(table, field));
  LBT_ASSIGN_OR_RETURN(out->tiered_storage, TieredStorageFromProto(table, field));
  if (table.has_row_key_schema()) {
    LBT_ASSIGN_OR_RETURN(out->row_key_schema,
                         RowKeySchemaFromProto(table.row_key_schema(), std::string(field) + ".row_key_schema"));
  }
  return Status::OK();
}

// Those settings' optional messages back (granularity and protection are
// each side's own to set).
template <typename Spec>
void SetSettings(const Spec& spec, admin::Table* out) {
  SetBackupPolicy(spec.automated_backup_policy, out);
  SetTieredStorage(spec.tiered_storage, out);
  if (spec.row_key_schema) *out->mutable_row_key_schema() = ToProto(*spec.row_key_schema);
}

}  // namespace

admin::Table ToProto(const TableSpec& table, const InstanceName& instance, admin::Table::View view) {
  admin::Table out;
  out.set_name(FullTableName(instance, table.name));
  if (view == admin::Table::NAME_ONLY) return out;
  for (const auto& [name, family] : table.families) (*out.mutable_column_families())[name] = ToProto(family);
  out.set_granularity(ToProto(table.granularity));
  out.set_deletion_protection(table.deletion_protection);
  if (table.restored_from) {
    auto* info = out.mutable_restore_info();
    info->set_source_type(admin::RestoreSourceType::BACKUP);
    auto* backup = info->mutable_backup_info();
    backup->set_backup(table.restored_from->backup);
    backup->set_source_table(table.restored_from->source_table);
    using google::protobuf::util::TimeUtil;
    *backup->mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(table.restored_from->start_time_micros);
    *backup->mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(table.restored_from->end_time_micros);
  }
  SetSettings(table, &out);
  if (table.change_stream) {
    using google::protobuf::util::TimeUtil;
    *out.mutable_change_stream_config()->mutable_retention_period() =
        TimeUtil::MicrosecondsToDuration(table.change_stream->retention_micros);
  }
  return out;
}

namespace {

Result<RowKeyField::IntEncoding> IntEncodingFromProto(const admin::Type::Int64::Encoding& encoding,
                                                      const std::string& field) {
  switch (encoding.encoding_case()) {
    case admin::Type::Int64::Encoding::kBigEndianBytes: return RowKeyField::IntEncoding::kBigEndianBytes;
    case admin::Type::Int64::Encoding::kOrderedCodeBytes: return RowKeyField::IntEncoding::kOrderedCodeBytes;
    case admin::Type::Int64::Encoding::ENCODING_NOT_SET: break;
  }
  return Invalid(field, "a key field's integer needs an encoding: big_endian_bytes or ordered_code_bytes");
}

Result<RowKeyField> RowKeyFieldFromProto(const admin::Type::Struct::Field& f, const std::string& field) {
  RowKeyField out;
  out.name = f.field_name();
  const admin::Type& type = f.type();
  switch (type.kind_case()) {
    case admin::Type::kBytesType: out.type = RowKeyField::Type::kBytes; return out;
    case admin::Type::kStringType: out.type = RowKeyField::Type::kString; return out;
    case admin::Type::kInt64Type: {
      out.type = RowKeyField::Type::kInt64;
      LBT_ASSIGN_OR_RETURN(out.int_encoding,
                           IntEncodingFromProto(type.int64_type().encoding(), field + ".type.int64_type.encoding"));
      return out;
    }
    case admin::Type::kTimestampType: {
      out.type = RowKeyField::Type::kTimestamp;
      LBT_ASSIGN_OR_RETURN(out.int_encoding,
                           IntEncodingFromProto(type.timestamp_type().encoding().unix_micros_int64(),
                                                field + ".type.timestamp_type.encoding.unix_micros_int64"));
      return out;
    }
    default: break;
  }
  return Invalid(field + ".type", "a key field is bytes, string, int64 or timestamp, with an encoding");
}

}  // namespace

Result<RowKeySchema> RowKeySchemaFromProto(const admin::Type::Struct& schema, std::string_view field) {
  RowKeySchema out;
  for (int i = 0; i < schema.fields_size(); ++i) {
    LBT_ASSIGN_OR_RETURN(RowKeyField f, RowKeyFieldFromProto(schema.fields(i), fmt::format("{}.fields[{}]", field, i)));
    out.fields.push_back(std::move(f));
  }
  switch (schema.encoding().encoding_case()) {
    case admin::Type::Struct::Encoding::kSingleton: out.encoding = RowKeySchema::Encoding::kSingleton; break;
    case admin::Type::Struct::Encoding::kDelimitedBytes:
      out.encoding = RowKeySchema::Encoding::kDelimitedBytes;
      out.delimiter = schema.encoding().delimited_bytes().delimiter();
      break;
    case admin::Type::Struct::Encoding::kOrderedCodeBytes:
      out.encoding = RowKeySchema::Encoding::kOrderedCodeBytes;
      break;
    case admin::Type::Struct::Encoding::ENCODING_NOT_SET:
      return Invalid(std::string(field) + ".encoding",
                     "a row key schema needs an encoding: singleton, delimited_bytes or ordered_code_bytes");
  }
  return out;
}

admin::Type::Struct ToProto(const RowKeySchema& schema) {
  admin::Type::Struct out;
  for (const RowKeyField& f : schema.fields) {
    admin::Type::Struct::Field* field = out.add_fields();
    field->set_field_name(f.name);
    admin::Type* type = field->mutable_type();
    admin::Type::Int64::Encoding* integer = nullptr;
    switch (f.type) {
      case RowKeyField::Type::kBytes: type->mutable_bytes_type()->mutable_encoding()->mutable_raw(); break;
      case RowKeyField::Type::kString: type->mutable_string_type()->mutable_encoding()->mutable_utf8_bytes(); break;
      case RowKeyField::Type::kInt64: integer = type->mutable_int64_type()->mutable_encoding(); break;
      case RowKeyField::Type::kTimestamp:
        integer = type->mutable_timestamp_type()->mutable_encoding()->mutable_unix_micros_int64();
        break;
    }
    if (integer != nullptr && f.int_encoding == RowKeyField::IntEncoding::kOrderedCodeBytes) {
      integer->mutable_ordered_code_bytes();
    } else if (integer != nullptr) {
      integer->mutable_big_endian_bytes();
    }
  }
  switch (schema.encoding) {
    case RowKeySchema::Encoding::kSingleton: out.mutable_encoding()->mutable_singleton(); break;
    case RowKeySchema::Encoding::kDelimitedBytes:
      out.mutable_encoding()->mutable_delimited_bytes()->set_delimiter(schema.delimiter);
      break;
    case RowKeySchema::Encoding::kOrderedCodeBytes: out.mutable_encoding()->mutable_ordered_code_bytes(); break;
  }
  return out;
}

Result<TimestampGranularity> GranularityFromProto(int granularity, std::string_view field) {
  switch (granularity) {
    case admin::Table::TIMESTAMP_GRANULARITY_UNSPECIFIED:
    case admin::Table::MILLIS: return TimestampGranularity::kMillis;
    case admin::Table::MICROS: return TimestampGranularity::kMicros;
    default: break;
  }
  return Invalid(std::string(field), fmt::format("unknown granularity {}; expected MILLIS or MICROS", granularity));
}

admin::Table::TimestampGranularity ToProto(TimestampGranularity granularity) {
  return granularity == TimestampGranularity::kMicros ? admin::Table::MICROS : admin::Table::MILLIS;
}

Result<NewTable> NewTableFromProto(const admin::Table& table, std::string_view field) {
  NewTable out;
  for (const auto& [name, family] : table.column_families()) {
    LBT_ASSIGN_OR_RETURN(FamilySpec spec, FromProto(name, family, fmt::format("{}.column_families[{}]", field, name)));
    out.families.push_back(std::move(spec));
  }
  std::sort(out.families.begin(), out.families.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  LBT_RETURN_IF_ERROR(SettingsFromProto(table, field, &out));
  return out;
}

admin::Table ToProto(const NewTable& spec) {
  admin::Table out;
  for (const FamilySpec& f : spec.families) (*out.mutable_column_families())[f.name] = ToProto(f);
  out.set_deletion_protection(spec.deletion_protection);
  // A MILLIS table is asked for as every client asks: by leaving it unset.
  if (spec.granularity != TimestampGranularity::kMillis) out.set_granularity(ToProto(spec.granularity));
  SetSettings(spec, &out);
  return out;
}

Result<TableSpec> FromProto(const admin::Table& table, std::string_view field) {
  TableSpec out;
  LBT_ASSIGN_OR_RETURN(TableRef name, ParseTableName(table.name(), std::string(field) + ".name"));
  out.name = std::move(name.table);
  LBT_RETURN_IF_ERROR(SettingsFromProto(table, field, &out));
  if (table.has_change_stream_config()) {
    LBT_ASSIGN_OR_RETURN(int64_t retention,
                         DurationMicros(table.change_stream_config().retention_period(),
                                        std::string(field) + ".change_stream_config.retention_period"));
    out.change_stream = ChangeStreamConfig{retention, 0};
  }
  // What a service describes is shown as it is, even rules lbt would refuse.
  for (const auto& [family_name, family] : table.column_families()) {
    const std::string at = fmt::format("{}.column_families[{}]", field, family_name);
    FamilySpec spec;
    spec.name = family_name;
    LBT_ASSIGN_OR_RETURN(spec.gc_rule, GcRuleFromProto(family.gc_rule(), at + ".gc_rule", /*strict=*/false));
    if (family.has_value_type()) {
      LBT_ASSIGN_OR_RETURN(spec.value_type, ValueTypeFromProto(family.value_type(), at + ".value_type"));
    }
    out.families.emplace(family_name, std::move(spec));
  }
  return out;
}

Row FromProto(const v2::Row& row) {
  Row out;
  out.key = row.key();
  for (const v2::Family& family : row.families()) {
    for (const v2::Column& column : family.columns()) {
      for (const v2::Cell& cell : column.cells()) {
        Cell c;
        c.family = family.name();
        c.qualifier = column.qualifier();
        c.timestamp = cell.timestamp_micros();
        c.value = cell.value();
        c.labels.assign(cell.labels().begin(), cell.labels().end());
        out.cells.push_back(std::move(c));
      }
    }
  }
  return out;
}

}  // namespace lbt::proto
