#include "sql/materialized_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "api/instance_admin.h"
#include "api/limits.h"
#include "sql/functions.h"
#include "sql/operators/aggregate.h"
#include "sql/operators/table_scan.h"
#include "sql/parser.h"
#include "util/bytes.h"

namespace lbt::sql {

namespace {

// ---- production's rules ----
//
// The messages below are production's as observed (an emulator's tests
// recorded them against it); Bigtable's documentation lists the rules
// without the words. "ORDER BY by" is production's own.
constexpr const char* kNeedsGroupOrOrder = "queries must contain a GROUP BY or ORDER BY clause";
constexpr const char* kGroupAndOrder = "ORDER BY is not supported with GROUP BY in materialized views.";
constexpr const char* kDescending = "Only ascending order in ORDER BY by is supported in materialized views.";
constexpr const char* kLimit = "Limit and offset are not supported in materialized views.";
constexpr const char* kIndexNeedsKey =
    "queries must select and order by the unmodified _key column from the source table";
constexpr const char* kOrderNotSelected = "every ORDER BY column must be selected in the final query";
constexpr const char* kGroupNotSelected = "every GROUP BY column must be selected in the final query";
constexpr const char* kKeyHint =
    "queries that provide a _key hint must only group by _key (and optionally _timestamp). Use a different column "
    "name if you want to create a composite key.";

// The aggregates production keeps up to date (HLL_COUNT's are not in
// lbt's GoogleSQL at all).
const std::set<std::string, std::less<>>& MaintainableAggregates() {
  static const std::set<std::string, std::less<>> names = {"COUNT",     "SUM",     "MIN",    "MAX",    "AVG",
                                                           "ANY_VALUE", "BIT_AND", "BIT_OR", "BIT_XOR"};
  return names;
}

// Functions whose value is not the row's alone.
const std::set<std::string, std::less<>>& NonDeterministic() {
  static const std::set<std::string, std::less<>> names = {
      "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_DATETIME", "RAND", "GENERATE_UUID", "NOW"};
  return names;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

Status CheckFunctions(const Expr& e) {
  if (e.kind == ExprKind::kCall) {
    const std::string name = Upper(e.name);
    if (e.window != nullptr) {
      return Status::InvalidArgument(fmt::format(
          "{}(...) OVER (...) cannot be kept up to date as rows change: a materialized view's query takes no window "
          "functions",
          name));
    }
    if (e.distinct) {
      return Status::InvalidArgument(fmt::format(
          "{}(DISTINCT ...) cannot be kept up to date as rows change: a materialized view's aggregates take no "
          "DISTINCT",
          name));
    }
    if (NonDeterministic().contains(name)) {
      return Status::InvalidArgument(fmt::format(
          "Only immutable functions are supported in materialized views (GoogleSQL:{} is not immutable)", Lower(name)));
    }
    if (FindAggregate(name) != nullptr && !MaintainableAggregates().contains(name)) {
      return Status::InvalidArgument(fmt::format(
          "Only stable functions are supported in materialized views (GoogleSQL:{} is not stable)", Lower(name)));
    }
  }
  for (const ExprPtr& arg : e.args) {
    if (arg) LBT_RETURN_IF_ERROR(CheckFunctions(*arg));
  }
  return Status::OK();
}

// The select item an ORDER BY or GROUP BY item names: by position, alias
// or the same expression. -1 when none.
int SelectedAs(const Expr& e, const Select& s) {
  if (e.kind == ExprKind::kLiteral && !e.literal.is_null() && e.literal.kind() == TypeKind::kInt64) {
    const int64_t n = e.literal.int64();
    if (n >= 1 && n <= static_cast<int64_t>(s.items.size())) return static_cast<int>(n - 1);
  }
  if (e.kind == ExprKind::kColumn) {
    for (size_t i = 0; i < s.items.size(); ++i) {
      if (s.items[i].alias == e.name) return static_cast<int>(i);
    }
  }
  const std::string text = Unparse(e);
  for (size_t i = 0; i < s.items.size(); ++i) {
    if (s.items[i].expr && Unparse(*s.items[i].expr) == text) return static_cast<int>(i);
  }
  return -1;
}

bool IsSourceKey(const SelectItem& item) {
  return item.expr && item.expr->kind == ExprKind::kColumn && item.expr->name == "_key";
}

std::string OutputName(const SelectItem& item) {
  if (!item.alias.empty()) return item.alias;
  return item.expr && item.expr->kind == ExprKind::kColumn ? item.expr->name : "";
}

// ---- encodings ----

// A double as bytes that sort as the numbers do; -0 is 0 and every NaN
// one NaN, as GROUP BY takes them.
uint64_t OrderedDouble(double d) {
  if (d == 0) d = 0;
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  return (bits & (1ULL << 63)) ? ~bits : bits | (1ULL << 63);
}

double FromOrderedDouble(uint64_t v) { return std::bit_cast<double>((v & (1ULL << 63)) ? v & ~(1ULL << 63) : ~v); }

// One key part, before escaping: bytes that sort as the values do.
std::string OrderedBytes(const Value& v) {
  std::string out;
  switch (v.kind()) {
    case TypeKind::kBytes:
    case TypeKind::kString: return v.str();
    case TypeKind::kInt64:
    case TypeKind::kTimestamp:
    case TypeKind::kDate: AppendBigEndian(&out, static_cast<uint64_t>(v.int64()) ^ (1ULL << 63), 8); return out;
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: AppendBigEndian(&out, OrderedDouble(v.float64()), 8); return out;
    case TypeKind::kBool: return std::string(1, v.boolean() ? '\1' : '\0');
    default: return out;  // not a key type: refused by CheckColumns
  }
}

Value FromOrderedBytes(std::string_view bytes, TypeKind kind) {
  // A number's eight bytes (what a number's part holds).
  const uint64_t word = DecodeBigEndian(bytes.substr(0, 8));
  const auto signed_word = static_cast<int64_t>(word ^ (1ULL << 63));
  switch (kind) {
    case TypeKind::kBytes: return Value::Bytes(std::string(bytes));
    case TypeKind::kString: return Value::String(std::string(bytes));
    case TypeKind::kInt64: return Value::Int64(signed_word);
    case TypeKind::kTimestamp: return Value::Timestamp(signed_word);
    case TypeKind::kDate: return Value::Date(signed_word);
    case TypeKind::kFloat32: return Value::Float32(static_cast<float>(FromOrderedDouble(word)));
    case TypeKind::kFloat64: return Value::Float64(FromOrderedDouble(word));
    case TypeKind::kBool: return Value::Bool(!bytes.empty() && bytes[0] != 0);
    default: return Value();
  }
}

// Key parts are escaped (0x00 as 0x00 0xff) and joined by 0x00 0x01, so
// that a shorter part sorts before a longer one it begins.
void AppendKeyPart(std::string_view part, std::string* key) {
  for (char c : part) {
    key->push_back(c);
    if (c == '\0') key->push_back('\xff');
  }
}

std::vector<std::string> SplitKey(std::string_view key) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i] == '\0' && i + 1 < key.size()) {
      if (key[i + 1] == '\x01') {
        parts.emplace_back();
      } else {
        parts.back().push_back('\0');
      }
      ++i;
      continue;
    }
    parts.back().push_back(key[i]);
  }
  return parts;
}

// A column's cell value, as production encodes it for ReadRows.
std::string CellBytes(const Value& v) {
  std::string out;
  switch (v.kind()) {
    case TypeKind::kInt64:
    case TypeKind::kTimestamp:
    case TypeKind::kDate: AppendBigEndian(&out, static_cast<uint64_t>(v.int64()), 8); return out;
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: AppendBigEndian(&out, std::bit_cast<uint64_t>(v.float64()), 8); return out;
    case TypeKind::kBool: return std::string(1, v.boolean() ? '\1' : '\0');
    default: return v.str();
  }
}

Result<Value> FromCellBytes(std::string_view bytes, TypeKind kind) {
  switch (kind) {
    case TypeKind::kBytes: return Value::Bytes(std::string(bytes));
    case TypeKind::kString: return Value::String(std::string(bytes));
    case TypeKind::kBool:
      if (bytes.size() != 1) break;
      return Value::Bool(bytes[0] != 0);
    default:
      if (bytes.size() != 8) break;
      const uint64_t word = DecodeBigEndian(bytes);
      if (kind == TypeKind::kFloat64) return Value::Float64(std::bit_cast<double>(word));
      if (kind == TypeKind::kFloat32) return Value::Float32(static_cast<float>(std::bit_cast<double>(word)));
      if (kind == TypeKind::kTimestamp) return Value::Timestamp(static_cast<int64_t>(word));
      if (kind == TypeKind::kDate) return Value::Date(static_cast<int64_t>(word));
      return Value::Int64(static_cast<int64_t>(word));
  }
  return Status::Corruption(
      fmt::format("a materialized view's cell of {} bytes is not a {}", bytes.size(), ScalarType(kind)->ToString()));
}

}  // namespace

// ---- the state codec ----

std::string EncodeValues(const Values& values) {
  std::string out;
  for (const Value& v : values) {
    out.push_back(static_cast<char>(v.kind()));
    out.push_back(v.is_null() ? '\0' : '\1');
    if (v.is_null()) continue;
    if (v.kind() == TypeKind::kBytes || v.kind() == TypeKind::kString) {
      AppendBigEndian(&out, v.str().size(), 8);
      out += v.str();
    } else {
      out += CellBytes(v);
    }
  }
  return out;
}

Result<Values> DecodeValues(std::string_view bytes) {
  Values out;
  auto corrupt = [] { return Status::Corruption("a materialized view's state holds malformed values"); };
  while (!bytes.empty()) {
    if (bytes.size() < 2) return corrupt();
    const auto kind = static_cast<TypeKind>(bytes[0]);
    const bool present = bytes[1] != 0;
    bytes.remove_prefix(2);
    if (!present) {
      out.push_back(Value::Null(ScalarType(kind)));
      continue;
    }
    size_t size = kind == TypeKind::kBool ? 1 : 8;
    if (kind == TypeKind::kBytes || kind == TypeKind::kString) {
      if (bytes.size() < 8) return corrupt();
      size = DecodeBigEndian(bytes.substr(0, 8));
      bytes.remove_prefix(8);
    }
    if (bytes.size() < size) return corrupt();
    LBT_ASSIGN_OR_RETURN(Value v, FromCellBytes(bytes.substr(0, size), kind));
    out.push_back(std::move(v));
    bytes.remove_prefix(size);
  }
  return out;
}

// ---- the plan ----

Result<std::unique_ptr<MaterializedViewPlan>> MaterializedViewPlan::Make(Bigtable* bigtable, std::string_view query) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> parsed, Parse(query));
  if (parsed->from.pipe_input) {
    return Status::InvalidArgument(
        "lbt keeps materialized views of queries in standard syntax: write this one without |> (SELECT ... FROM "
        "... GROUP BY ...)");
  }
  if (!parsed->from.unpack && bigtable->local() != nullptr &&
      bigtable->GetTable(parsed->from.table).status().IsNotFound()) {
    const std::string& from = parsed->from.table;
    if (GetLogicalViewOf(bigtable, from).ok() || GetMaterializedViewOf(bigtable, from).ok()) {
      return Status::InvalidArgument(fmt::format(
          "a materialized view reads a table; '{}' is a view (a view cannot be built on another view)", from));
    }
  }
  auto plan = std::unique_ptr<MaterializedViewPlan>(new MaterializedViewPlan());
  LBT_RETURN_IF_ERROR(plan->Check(*parsed));
  // Bound on a second parse: binding takes the tree apart.
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> select, Parse(query));
  const FromClause& from = select->from.unpack ? select->from.unpack->from : select->from;
  Result<TableSpec> table = bigtable->GetTable(from.table);
  if (!table.ok()) {
    if (!table.status().IsNotFound()) return table.status();
    return Status::NotFound(fmt::format("Table not found: {} {}", from.table, Location(query, from.pos)));
  }
  LBT_ASSIGN_OR_RETURN(plan->q_, Bind(std::move(select), *table, {}, query));
  LBT_RETURN_IF_ERROR(CheckResultTypes(plan->q_->columns));
  plan->read_ = PlanRead(plan->q_.get());
  plan->read_.key_used = true;  // each input row names its source row
  plan->eval_ = std::make_unique<Evaluator>(Params{});
  LBT_RETURN_IF_ERROR(plan->CheckColumns());
  return plan;
}

Status MaterializedViewPlan::Check(const Select& s) {
  for (const SelectItem& item : s.items) {
    if (!item.expr) return Status::InvalidArgument("SELECT * is not supported in materialized views");
    LBT_RETURN_IF_ERROR(CheckFunctions(*item.expr));
  }
  if (s.where) LBT_RETURN_IF_ERROR(CheckFunctions(*s.where));
  if (s.limit || s.offset) return Status::InvalidArgument(kLimit);
  if (s.group_by.empty() && s.order_by.empty()) return Status::InvalidArgument(kNeedsGroupOrOrder);
  if (!s.group_by.empty() && !s.order_by.empty()) return Status::InvalidArgument(kGroupAndOrder);
  if (s.having) return Status::InvalidArgument("HAVING is not supported in materialized views");
  for (const SelectItem& item : s.items) {
    if (OutputName(item) == "_timestamp") {
      return Status::InvalidArgument(
          "lbt does not keep a _timestamp column in materialized views; group by a TIMESTAMP column of another name");
    }
  }
  return s.group_by.empty() ? CheckIndexKeys(s) : CheckAggregateKeys(s);
}

Status MaterializedViewPlan::CheckAggregateKeys(const Select& s) {
  for (const ExprPtr& g : s.group_by) {
    const int item = SelectedAs(*g, s);
    if (item < 0) return Status::InvalidArgument(kGroupNotSelected);
    key_columns_.push_back(static_cast<size_t>(item));
  }
  // An output column named _key is the view's row key itself: the only
  // group key.
  for (size_t i = 0; i < s.items.size(); ++i) {
    if (OutputName(s.items[i]) != "_key") continue;
    if (key_columns_.size() != 1 || key_columns_[0] != i) return Status::InvalidArgument(kKeyHint);
    raw_key_ = true;
  }
  return Status::OK();
}

Status MaterializedViewPlan::CheckIndexKeys(const Select& s) {
  bool has_source_key = false;
  for (const OrderItem& o : s.order_by) {
    if (o.descending) return Status::InvalidArgument(kDescending);
    const int item = SelectedAs(*o.expr, s);
    if (item < 0) return Status::InvalidArgument(kOrderNotSelected);
    key_columns_.push_back(static_cast<size_t>(item));
    has_source_key |= IsSourceKey(s.items[static_cast<size_t>(item)]);
  }
  if (!has_source_key) return Status::InvalidArgument(kIndexNeedsKey);
  raw_key_ = key_columns_.size() == 1 && OutputName(s.items[key_columns_[0]]) == "_key";
  return Status::OK();
}

// What the view's columns may be: scalars ReadRows can show, no DATE.
Status MaterializedViewPlan::CheckColumns() const {
  if (!q_->view.empty()) return Status::InvalidArgument("a materialized view reads a table, not a view");
  std::set<std::string> names;
  for (const ResultColumn& c : q_->columns) {
    if (!names.insert(c.name).second) {
      return Status::InvalidArgument(
          fmt::format("the view has two columns named {}: a column's name is its qualifier", c.name));
    }
    const TypeKind kind = c.type->kind;
    if (kind == TypeKind::kDate) {
      return Status::InvalidArgument(fmt::format(
          "column {} is a DATE: DATE and DATETIME are not supported as output columns of materialized views (use "
          "TIMESTAMP, or store a string)",
          c.name));
    }
    if (kind == TypeKind::kArray || kind == TypeKind::kStruct || kind == TypeKind::kMap) {
      return Status::InvalidArgument(fmt::format(
          "column {} is a {}: materialized views keep no ARRAY, STRUCT or map columns", c.name, c.type->ToString()));
    }
    if (c.name.empty() || c.name.starts_with("$col")) {
      return Status::InvalidArgument(
          "every column of a materialized view needs a name: give each expression an alias (AS name)");
    }
  }
  // Production takes a string literal as a _key (its own example is
  // `'*' AS _key`): its UTF-8 bytes are the row key.
  if (raw_key_ && q_->columns[key_columns_[0]].type->kind != TypeKind::kBytes &&
      q_->columns[key_columns_[0]].type->kind != TypeKind::kString) {
    return Status::InvalidArgument("the _key column of a materialized view must be of type BYTES");
  }
  for (const BoundAggregate& a : q_->aggregates) {
    for (const TypePtr& t : a.arg_types) {
      if (t->kind == TypeKind::kArray || t->kind == TypeKind::kStruct || t->kind == TypeKind::kMap) {
        return Status::InvalidArgument(fmt::format("lbt's materialized views aggregate scalars only, not {} ({})",
                                                   t->ToString(), a.function->name));
      }
    }
  }
  return Status::OK();
}

std::string MaterializedViewPlan::KeyOf(const Values& key_values) const {
  if (raw_key_) return key_values[0].str();
  std::string key;
  for (size_t i = 0; i < key_values.size(); ++i) {
    if (i > 0) key.append("\0\x01", 2);
    AppendKeyPart(OrderedBytes(key_values[i]), &key);
  }
  return key;
}

// A row the query cannot keep (an error evaluating it over the row, a
// view key Bigtable cannot hold) is left out of the view, as production
// leaves such rows out (it counts them in a metric lbt does not have).
Status MaterializedViewPlan::Evaluate(const Values& input, std::vector<Contribution>* parts) const {
  Result<std::optional<Contribution>> part = EvaluateRow(input);
  if (part.ok() && part->has_value()) parts->push_back(std::move(**part));
  return Status::OK();
}

Result<std::optional<MaterializedViewPlan::Contribution>> MaterializedViewPlan::EvaluateRow(const Values& input) const {
  const std::optional<Contribution> none;
  if (q_->where != nullptr) {
    LBT_ASSIGN_OR_RETURN(Value keep, eval_->Eval(*q_->where, input));
    if (keep.is_null() || !keep.boolean()) return none;
  }
  Contribution part;
  if (q_->aggregate) {
    for (const Expr* g : q_->group_by) {
      LBT_ASSIGN_OR_RETURN(Value v, eval_->Eval(*g, input));
      if (v.is_null()) return none;  // left out, as production leaves it
      part.key_values.push_back(std::move(v));
    }
    for (const BoundAggregate& a : q_->aggregates) {
      for (const Expr* arg : a.args) {
        LBT_ASSIGN_OR_RETURN(Value v, eval_->Eval(*arg, input));
        part.payload.push_back(std::move(v));
      }
    }
  } else {
    for (const Expr* e : q_->select) {
      LBT_ASSIGN_OR_RETURN(Value v, eval_->Eval(*e, input));
      part.payload.push_back(std::move(v));
    }
    for (size_t k : key_columns_) {
      if (part.payload[k].is_null()) return none;
      part.key_values.push_back(part.payload[k]);
    }
  }
  part.view_key = KeyOf(part.key_values);
  if (part.view_key.empty() || part.view_key.size() > kMaxRowKeyBytes) return none;
  return std::optional<Contribution>(std::move(part));
}

Status MaterializedViewPlan::Drain(TableScan* scan,
                                   const std::function<Status(const std::string&, const Values&)>& row) const {
  Values input;
  while (scan->Next(&input)) LBT_RETURN_IF_ERROR(row(input[0].str(), input));
  return scan->status();
}

Result<std::map<std::string, std::vector<MaterializedViewPlan::Contribution>>> MaterializedViewPlan::Contributions(
    Bigtable* source, const std::vector<std::string>& keys) const {
  std::map<std::string, std::vector<Contribution>> out;
  std::vector<KeyRangeSet::Range> ranges;
  for (const std::string& key : keys) {
    out[key];
    ranges.push_back({key, key + '\0'});
  }
  if (ranges.empty()) return out;
  TableScan scan(*q_, read_, KeyRangeSet::FromUnsorted(std::move(ranges)));
  LBT_RETURN_IF_ERROR(scan.Open(source));
  LBT_RETURN_IF_ERROR(
      Drain(&scan, [&](const std::string& key, const Values& input) { return Evaluate(input, &out[key]); }));
  return out;
}

Status MaterializedViewPlan::ScanContributions(
    Bigtable* source,
    const std::function<Status(const std::string& source_key, std::vector<Contribution> parts)>& sink) const {
  TableScan scan(*q_, read_, KeyRangeSet::All());
  LBT_RETURN_IF_ERROR(scan.Open(source));
  std::string current;
  std::vector<Contribution> parts;
  bool any = false;
  LBT_RETURN_IF_ERROR(Drain(&scan, [&](const std::string& key, const Values& input) -> Status {
    if (any && key != current) LBT_RETURN_IF_ERROR(sink(current, std::move(parts)));
    if (!any || key != current) {
      parts.clear();
      current = key;
      any = true;
    }
    return Evaluate(input, &parts);
  }));
  return any ? sink(current, std::move(parts)) : Status::OK();
}

Result<std::optional<Values>> MaterializedViewPlan::FinishGroup(const Values& key_values,
                                                                const std::vector<Values>& payloads) const {
  Accumulators group;
  for (const BoundAggregate& a : q_->aggregates) group.push_back(NewAccumulator(a));
  for (const Values& payload : payloads) {
    size_t next = 0;
    for (size_t i = 0; i < q_->aggregates.size(); ++i) {
      const size_t n = q_->aggregates[i].args.size();
      if (next + n > payload.size()) return Status::Corruption("a materialized view's state holds a short row");
      Values args(payload.begin() + static_cast<ptrdiff_t>(next), payload.begin() + static_cast<ptrdiff_t>(next + n));
      LBT_RETURN_IF_ERROR(group[i]->Add(args));
      next += n;
    }
  }
  Values grouped = key_values;
  for (const auto& accumulator : group) grouped.push_back(accumulator->Finish());
  Values output;
  bool any = false;
  for (size_t i = 0; i < q_->select.size(); ++i) {
    LBT_ASSIGN_OR_RETURN(Value v, eval_->Eval(*q_->select[i], grouped));
    const bool key = std::find(key_columns_.begin(), key_columns_.end(), i) != key_columns_.end();
    any |= !key && !v.is_null();
    output.push_back(std::move(v));
  }
  if (!any) return std::optional<Values>();
  return std::optional<Values>(std::move(output));
}

std::vector<Mutation> MaterializedViewPlan::RowMutations(const Values& output) const {
  std::vector<Mutation> mutations = {Mutation::DeleteFromRow()};
  for (size_t i = 0; i < output.size(); ++i) {
    const bool key = std::find(key_columns_.begin(), key_columns_.end(), i) != key_columns_.end();
    // An aggregate view's keys are in its row key alone; an index view
    // keeps them as cells too (production's layout).
    if (output[i].is_null() || (key && (q_->aggregate || raw_key_))) continue;
    mutations.push_back(Mutation::SetCell(kViewFamily, q_->columns[i].name, CellBytes(output[i]), 0));
  }
  return mutations;
}

Result<Values> MaterializedViewPlan::DecodeRow(const Row& row) const {
  Values out;
  for (const ResultColumn& c : q_->columns) out.push_back(Value::Null(c.type));
  if (raw_key_) {
    const bool text = q_->columns[key_columns_[0]].type->kind == TypeKind::kString;
    out[key_columns_[0]] = text ? Value::String(row.key) : Value::Bytes(row.key);
  } else if (q_->aggregate) {
    const std::vector<std::string> parts = SplitKey(row.key);
    if (parts.size() != key_columns_.size()) {
      return Status::Corruption("a materialized view's row key does not have the view's key columns");
    }
    for (size_t k = 0; k < parts.size(); ++k) {
      out[key_columns_[k]] = FromOrderedBytes(parts[k], q_->columns[key_columns_[k]].type->kind);
    }
  }
  for (const Cell& cell : row.cells) {
    if (cell.family != kViewFamily) continue;
    for (size_t i = 0; i < q_->columns.size(); ++i) {
      if (q_->columns[i].name != cell.qualifier) continue;
      LBT_ASSIGN_OR_RETURN(out[i], FromCellBytes(cell.value, q_->columns[i].type->kind));
      break;
    }
  }
  return out;
}

std::optional<RowRange> MaterializedViewPlan::KeyRange(const std::map<size_t, Value>& equal) const {
  std::string prefix;
  size_t fixed = 0;
  for (size_t k : key_columns_) {
    auto it = equal.find(k);
    if (it == equal.end() || it->second.is_null() || it->second.kind() != q_->columns[k].type->kind) break;
    if (raw_key_) return RowRange::Closed(it->second.str(), it->second.str());
    if (fixed++ > 0) prefix.append("\0\x01", 2);
    AppendKeyPart(OrderedBytes(it->second), &prefix);
  }
  if (fixed == 0) return std::nullopt;
  if (fixed == key_columns_.size()) return RowRange::Closed(prefix, prefix);
  return RowRange::Prefix(prefix.append("\0\x01", 2));
}

Result<std::string> CheckMaterializedViewQuery(Bigtable* bigtable, std::string_view query) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<MaterializedViewPlan> plan, MaterializedViewPlan::Make(bigtable, query));
  return plan->source_table();
}

}  // namespace lbt::sql
