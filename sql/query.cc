#include "sql/query.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "sql/binder.h"
#include "sql/evaluator.h"
#include "sql/key_ranges.h"
#include "sql/parser.h"
#include "sql/read_planner.h"

namespace lbt::sql {

namespace {

// Reads the table and turns each row into the input row the query's
// expressions see: `_key`, then each family (then `_timestamp` for UNPACK).
class Source {
 public:
  Source(const BoundQuery& q, const ReadPlan& read, std::unique_ptr<RowStream> rows)
      : q_(q), read_(read), rows_(std::move(rows)), one_family_(OnlyFamilyRead(q, read)) {}

  // Next input row, or false at the end (status() says whether that was an error).
  bool Next(Values* out) {
    if (!q_.unpack) {
      // One input row per table row, built in place.
      if (!rows_->Next(&row_)) return false;
      ++examined_;
      Flatten(out);
      return true;
    }
    while (pending_.empty() || next_pending_ == pending_.size()) {
      pending_.clear();
      next_pending_ = 0;
      if (!rows_->Next(&row_)) return false;
      ++examined_;
      Expand();
    }
    *out = std::move(pending_[next_pending_++]);
    return true;
  }
  Status status() const { return rows_->status(); }
  int64_t examined() const { return examined_; }

 private:
  // The cells of `family` in row_ as the family's column: qualifier to
  // latest value, or to its history (newest first); only cells at
  // `timestamp` when it is set (UNPACK).
  Value FamilyValue(const BoundFamily& f, const FamilyRead& read, std::optional<int64_t> timestamp) const {
    MapEntries entries;
    for (size_t i = 0; i < row_.cells.size();) {
      const Cell& c = row_.cells[i];
      size_t end = i;
      while (end < row_.cells.size() && row_.cells[end].family == c.family && row_.cells[end].qualifier == c.qualifier) ++end;
      if (c.family == f.name && (read.only_columns.empty() || read.only_columns.count(c.qualifier) != 0)) {
        Values history;
        for (size_t k = i; k < end; ++k) {
          if (timestamp && row_.cells[k].timestamp != *timestamp) continue;
          Value v = CellValue(f, row_.cells[k].value);
          if (!f.with_history) {
            history.push_back(std::move(v));
            break;
          }
          history.push_back(Value::Struct(f.type->value->element, {Value::Timestamp(row_.cells[k].timestamp), std::move(v)}));
        }
        if (!history.empty()) {
          Value column = f.with_history ? Value::Array(f.type->value, std::move(history)) : std::move(history[0]);
          entries.emplace_back(Value::Bytes(c.qualifier), std::move(column));
        }
      }
      i = end;
    }
    return Value::Map(f.type, std::move(entries));
  }

  static Value CellValue(const BoundFamily& f, const std::string& bytes) {
    if (f.aggregate) {
      int64_t n = 0;
      if (DecodeInt64(bytes, &n)) return Value::Int64(n);
      return Value::Null(Type::Int64());
    }
    return f.string ? Value::String(bytes) : Value::Bytes(bytes);
  }

  // The row as [_key, families..., cell columns...]; what the query does
  // not read is NULL. *out keeps its shape from row to row, so that only
  // what the query reads is written, in place.
  void Flatten(Values* out) {
    if (out->size() != Width()) Shape(out);
    if (read_.key_used) (*out)[0].set_str(row_.key);
    for (size_t i = 0; i < q_.families.size(); ++i) {
      if (read_.families[i].as_map) (*out)[1 + i] = FamilyValue(q_.families[i], read_.families[i], std::nullopt);
    }
    if (read_.cell_columns.empty()) return;
    const size_t first = 1 + q_.families.size();
    if (read_.cell_columns.size() == 1) return FlattenOneColumn(&(*out)[first]);
    // Cells come grouped by column, newest first: each column's first cell
    // is its latest value, and later ones are passed over as found. The
    // search stops once every column is found; a slot is written only once
    // its cell is found or known absent, so that a string slot keeps its
    // buffer from row to row.
    std::fill(found_.begin(), found_.end(), 0);
    size_t found = 0;
    for (size_t i = 0; i < row_.cells.size() && found < read_.cell_columns.size(); ++i) {
      const Cell& cell = row_.cells[i];
      for (size_t j = 0; j < read_.cell_columns.size(); ++j) {
        const CellColumn& c = read_.cell_columns[j];
        const BoundFamily& f = q_.families[c.family];
        if (!found_[j] && cell.qualifier == c.qualifier && (one_family_ || cell.family == f.name)) {
          SetCellValue(f, cell.value, &(*out)[first + j]);
          found_[j] = 1;
          ++found;
          break;
        }
      }
    }
    for (size_t j = 0; j < read_.cell_columns.size(); ++j) {
      if (!found_[j]) (*out)[first + j].set_null();
    }
  }

  // Flatten's search for a query that names one column, the common case,
  // without its bookkeeping: the column's first cell is its latest value.
  void FlattenOneColumn(Value* slot) const {
    const CellColumn& c = read_.cell_columns[0];
    const BoundFamily& f = q_.families[c.family];
    for (const Cell& cell : row_.cells) {
      if (cell.qualifier == c.qualifier && (one_family_ || cell.family == f.name)) {
        SetCellValue(f, cell.value, slot);
        return;
      }
    }
    slot->set_null();
  }

  size_t Width() const { return 1 + q_.families.size() + read_.cell_columns.size(); }

  // Whether the table has one family and the query reads it: every cell
  // read is then of that family, and Flatten need not compare family names.
  static bool OnlyFamilyRead(const BoundQuery& q, const ReadPlan& read) {
    return q.families.size() == 1 && read.families[0].read;
  }

  // Typed NULLs in every slot of an input row.
  void Shape(Values* out) {
    out->clear();
    out->reserve(Width());
    out->push_back(Value::Null(Type::Bytes()));
    for (const BoundFamily& f : q_.families) out->push_back(Value::Null(f.type));
    for (const CellColumn& c : read_.cell_columns) out->push_back(Value::Null(c.type));
    found_.assign(read_.cell_columns.size(), 0);
  }

  // CellValue, written into a slot of the cell column's type.
  static void SetCellValue(const BoundFamily& f, const std::string& bytes, Value* slot) {
    if (!f.aggregate) {
      slot->set_str(bytes);
      return;
    }
    int64_t n = 0;
    if (DecodeInt64(bytes, &n)) {
      slot->set_int64(n);
    } else {
      slot->set_null();
    }
  }

  // UNPACK: one row per timestamp, newest first.
  void Expand() {
    std::vector<int64_t> stamps;
    for (const Cell& c : row_.cells) {
      for (const BoundFamily& f : q_.families) {
        if (f.name == c.family) stamps.push_back(c.timestamp);
      }
    }
    std::sort(stamps.rbegin(), stamps.rend());
    stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
    for (int64_t t : stamps) {
      Values v;
      v.push_back(Value::Bytes(row_.key));
      for (size_t i = 0; i < q_.families.size(); ++i) v.push_back(FamilyValue(q_.families[i], read_.families[i], t));
      v.push_back(Value::Timestamp(t));
      pending_.push_back(std::move(v));
    }
  }

  const BoundQuery& q_;
  const ReadPlan& read_;
  std::unique_ptr<RowStream> rows_;
  Row row_;
  std::vector<Values> pending_;
  size_t next_pending_ = 0;
  std::vector<char> found_;  // Flatten's cell columns found in the row (0 or 1)
  const bool one_family_;
  int64_t examined_ = 0;
};

struct GroupKeyHash {
  size_t operator()(const Values& key) const {
    size_t h = key.size();
    for (const Value& v : key) h = h * 31 + Hash(v);
    return h;
  }
};
struct GroupKeyEqual {
  bool operator()(const Values& a, const Values& b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!GroupEqual(a[i], b[i])) return false;
    }
    return true;
  }
};

using Accumulators = std::vector<std::unique_ptr<Accumulator>>;

class QueryStream final : public ResultStream {
 public:
  // `limit` and `offset`: the query's, with any parameter resolved.
  QueryStream(const BoundQuery& q, const ReadPlan& read, std::unique_ptr<RowStream> rows, Params params,
              std::string ranges, int64_t limit, int64_t offset)
      : q_(q),
        source_(q, read, std::move(rows)),
        eval_(std::move(params)),
        ranges_(std::move(ranges)),
        limit_(limit),
        offset_(offset) {}

  bool Next(Values* row) override {
    if (!status_.ok()) return false;
    if (buffered_mode()) {
      if (!buffered_) {
        Status s = q_.aggregate ? Aggregate() : Collect();
        buffered_ = true;
        if (s.ok()) s = Sort();
        if (!s.ok()) return Fail(s);
      }
      while (next_ < results_.size()) {
        Values& r = results_[next_++];
        if (!Window()) continue;
        r.resize(q_.columns.size());
        *row = std::move(r);
        ++returned_;
        return true;
      }
      return false;
    }
    // Streaming: WHERE, project, OFFSET/LIMIT.
    if (limit_ >= 0 && emitted_ >= limit_) return false;
    while (source_.Next(&input_)) {
      Result<bool> keep = Where(input_);
      if (!keep.ok()) return Fail(keep.status());
      if (!*keep) continue;
      if (skipped_ < offset_) {
        ++skipped_;
        continue;
      }
      Result<Values> out = Project(input_, q_.select);
      if (!out.ok()) return Fail(out.status());
      *row = std::move(*out);
      ++emitted_;
      ++returned_;
      return true;
    }
    if (!source_.status().ok()) return Fail(source_.status());
    return false;
  }

  Status status() const override { return status_; }
  QueryStats stats() const override {
    return QueryStats{q_.table, ranges_, source_.examined(), returned_};
  }

 private:
  bool buffered_mode() const { return q_.aggregate || !q_.order_by.empty(); }
  bool Fail(Status s) {
    status_ = std::move(s);
    return false;
  }
  // OFFSET and LIMIT over buffered results.
  bool Window() {
    if (skipped_ < offset_) {
      ++skipped_;
      return false;
    }
    if (limit_ >= 0 && emitted_ >= limit_) {
      next_ = results_.size();
      return false;
    }
    ++emitted_;
    return true;
  }

  Result<bool> Where(const Values& input) {
    if (q_.where == nullptr) return true;
    LBT_ASSIGN_OR_RETURN(Value v, eval_.Eval(*q_.where, input));
    return !v.is_null() && v.boolean();
  }

  // The select list, then the ORDER BY keys, as one row.
  Result<Values> Project(const Values& row, const std::vector<const Expr*>& exprs) {
    Values out;
    out.reserve(exprs.size() + q_.order_by.size());
    for (const Expr* e : exprs) {
      LBT_ASSIGN_OR_RETURN(Value v, eval_.Eval(*e, row));
      out.push_back(std::move(v));
    }
    for (const BoundOrder& o : q_.order_by) {
      LBT_ASSIGN_OR_RETURN(Value v, eval_.Eval(*o.expr, row));
      out.push_back(std::move(v));
    }
    return out;
  }

  size_t SortCap() const {
    if (limit_ >= 0 && offset_ + limit_ < static_cast<int64_t>(kMaxSortedRows)) {
      return static_cast<size_t>(offset_ + limit_);
    }
    return kMaxSortedRows;
  }

  Status Keep(Values row) {
    results_.push_back(std::move(row));
    // With a LIMIT, keep only the rows that can still make it: sort and
    // cut whenever the buffer doubles.
    const size_t cap = SortCap();
    if (cap < kMaxSortedRows && results_.size() >= 2 * cap + 1024) {
      LBT_RETURN_IF_ERROR(Sort());
      results_.resize(cap);
    } else if (results_.size() > kMaxSortedRows) {
      return Status::ResourceExhausted(fmt::format(
          "ORDER BY holds at most {} rows in memory; add a LIMIT or narrow the WHERE clause", kMaxSortedRows));
    }
    return Status::OK();
  }

  Status Collect() {
    Values input;
    while (source_.Next(&input)) {
      LBT_ASSIGN_OR_RETURN(bool keep, Where(input));
      if (!keep) continue;
      LBT_ASSIGN_OR_RETURN(Values out, Project(input, q_.select));
      LBT_RETURN_IF_ERROR(Keep(std::move(out)));
    }
    return source_.status();
  }

  Status Aggregate() {
    if (q_.group_by.empty()) return AggregateAll();
    std::unordered_map<Values, Accumulators, GroupKeyHash, GroupKeyEqual> groups;
    std::vector<Values> order;  // groups in first-seen order
    Values input;
    while (source_.Next(&input)) {
      LBT_ASSIGN_OR_RETURN(bool keep, Where(input));
      if (!keep) continue;
      Values key;
      for (const Expr* g : q_.group_by) {
        LBT_ASSIGN_OR_RETURN(Value v, eval_.Eval(*g, input));
        key.push_back(std::move(v));
      }
      auto it = groups.find(key);
      if (it == groups.end()) {
        if (groups.size() >= kMaxGroups) {
          return Status::ResourceExhausted(fmt::format("GROUP BY holds at most {} groups in memory", kMaxGroups));
        }
        order.push_back(key);
        it = groups.emplace(std::move(key), NewAccumulators()).first;
      }
      LBT_RETURN_IF_ERROR(Accumulate(input, &it->second));
    }
    LBT_RETURN_IF_ERROR(source_.status());
    for (const Values& key : order) LBT_RETURN_IF_ERROR(EmitGroup(key, groups.at(key)));
    return Status::OK();
  }

  // An aggregate without GROUP BY: one group, which exists even over no
  // input, and no hashing per row.
  Status AggregateAll() {
    Accumulators accs = NewAccumulators();
    Values input;
    while (source_.Next(&input)) {
      if (q_.where != nullptr) {
        LBT_ASSIGN_OR_RETURN(bool keep, Where(input));
        if (!keep) continue;
      }
      LBT_RETURN_IF_ERROR(Accumulate(input, &accs));
    }
    LBT_RETURN_IF_ERROR(source_.status());
    return EmitGroup(Values{}, accs);
  }

  Accumulators NewAccumulators() const {
    Accumulators accs;
    for (const BoundAggregate& a : q_.aggregates) accs.push_back(a.function->create(a.type, a.arg_types));
    return accs;
  }

  // Adds one input row to each aggregate of its group.
  Status Accumulate(const Values& input, Accumulators* accs) {
    if (args_.size() != q_.aggregates.size()) {
      args_.resize(q_.aggregates.size());
      for (size_t i = 0; i < q_.aggregates.size(); ++i) args_[i].resize(q_.aggregates[i].args.size());
    }
    for (size_t i = 0; i < q_.aggregates.size(); ++i) {
      const std::vector<const Expr*>& exprs = q_.aggregates[i].args;
      Values& args = args_[i];
      for (size_t k = 0; k < exprs.size(); ++k) LBT_RETURN_IF_ERROR(eval_.EvalTo(*exprs[k], input, &args[k]));
      LBT_RETURN_IF_ERROR((*accs)[i]->Add(args));
    }
    return Status::OK();
  }

  // A finished group as [keys..., aggregates...], through HAVING and the
  // select list.
  Status EmitGroup(const Values& key, const Accumulators& accs) {
    Values grouped = key;
    for (const auto& acc : accs) grouped.push_back(acc->Finish());
    if (q_.having != nullptr) {
      LBT_ASSIGN_OR_RETURN(Value h, eval_.Eval(*q_.having, grouped));
      if (h.is_null() || !h.boolean()) return Status::OK();
    }
    LBT_ASSIGN_OR_RETURN(Values out, Project(grouped, q_.select));
    return Keep(std::move(out));
  }

  Status Sort() {
    if (q_.order_by.empty()) return Status::OK();
    const size_t base = q_.columns.size();
    std::stable_sort(results_.begin(), results_.end(), [&](const Values& a, const Values& b) {
      for (size_t i = 0; i < q_.order_by.size(); ++i) {
        const BoundOrder& o = q_.order_by[i];
        const Value& x = a[base + i];
        const Value& y = b[base + i];
        if (x.is_null() != y.is_null()) return x.is_null() == o.nulls_first;
        int c = Compare(x, y);
        if (c != 0) return o.descending ? c > 0 : c < 0;
      }
      return false;
    });
    return Status::OK();
  }

  const BoundQuery& q_;
  Source source_;
  Evaluator eval_;
  std::string ranges_;
  Status status_;
  const int64_t limit_;
  const int64_t offset_;
  std::vector<Values> results_;
  Values input_;  // the input row of the streaming path, reused row to row
  std::vector<Values> args_;  // each aggregate's arguments, evaluated in place row after row
  size_t next_ = 0;
  bool buffered_ = false;
  int64_t skipped_ = 0, emitted_ = 0, returned_ = 0;
};

// LIMIT's or OFFSET's value: the literal, or the parameter's value.
Result<int64_t> Resolve(int64_t literal, const std::string& param, const Params& params, const char* what) {
  if (param.empty()) return literal;
  const Value& v = params.find(param)->second;  // present: checked before
  if (v.is_null() || v.int64() < 0) {
    return Status::InvalidArgument(fmt::format("{} expects a non-negative value, but @{} is {}", what, param, v.ToText()));
  }
  return v.int64();
}

class Prepared final : public PreparedQuery {
 public:
  Prepared(Bigtable* bigtable, std::unique_ptr<BoundQuery> q)
      : bigtable_(bigtable), q_(std::move(q)), read_(PlanRead(q_.get())) {}
  const std::vector<ResultColumn>& columns() const override { return q_->columns; }
  const ParamTypes& parameters() const override { return q_->parameters; }

  Result<std::unique_ptr<ResultStream>> Execute(const Params& params) const override {
    for (const auto& [name, type] : q_->parameters) {
      auto it = params.find(name);
      if (it == params.end()) return Status::InvalidArgument(fmt::format("No value for query parameter @{}", name));
      if (!SameType(it->second.type(), type)) {
        return Status::InvalidArgument(fmt::format("Query parameter @{} is {}, but the query was prepared with {}", name,
                                                   it->second.type()->ToString(), type->ToString()));
      }
    }
    Evaluator constants(params);
    LBT_ASSIGN_OR_RETURN(KeyRangeSet ranges, PlanRowRanges(*q_, constants));
    std::unique_ptr<RowStream> rows;
    if (ranges.empty()) {
      rows = std::make_unique<EmptyRowStream>();
    } else {
      LBT_ASSIGN_OR_RETURN(rows, bigtable_->ReadRows(q_->table, RequestFor(read_, ranges)));
    }
    LBT_ASSIGN_OR_RETURN(int64_t limit, Resolve(q_->limit, q_->limit_param, params, "LIMIT"));
    LBT_ASSIGN_OR_RETURN(int64_t offset, Resolve(q_->offset, q_->offset_param, params, "OFFSET"));
    return std::unique_ptr<ResultStream>(
        std::make_unique<QueryStream>(*q_, read_, std::move(rows), params, ranges.ToString(), limit, offset));
  }

 private:
  class EmptyRowStream final : public RowStream {
   public:
    bool Next(Row*) override { return false; }
    Status status() const override { return Status::OK(); }
    ReadStats stats() const override { return {}; }
  };
  Bigtable* bigtable_;
  std::unique_ptr<BoundQuery> q_;
  const ReadPlan read_;
};

}  // namespace

Result<std::unique_ptr<PreparedQuery>> Prepare(Bigtable* bigtable, std::string_view sql, const ParamTypes& params) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Select> select, Parse(sql));
  const TableRef& from = select->from.unpack ? select->from.unpack->from : select->from;
  Result<TableSpec> table = bigtable->GetTable(from.table);
  if (table.status().IsNotFound()) {
    return Status::NotFound(fmt::format("Table not found: {} {}", from.table, Location(sql, from.pos)));
  }
  LBT_RETURN_IF_ERROR(table.status());
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BoundQuery> bound, Bind(std::move(select), *table, params, sql));
  return std::unique_ptr<PreparedQuery>(std::make_unique<Prepared>(bigtable, std::move(bound)));
}

}  // namespace lbt::sql
