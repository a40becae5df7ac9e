#include "api/authorized_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "api/ids.h"
#include "api/table.h"

namespace lbt {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The prefixes with every one that another covers left out, in order:
// their ranges are then disjoint.
std::vector<std::string> DisjointPrefixes(std::vector<std::string> prefixes) {
  std::sort(prefixes.begin(), prefixes.end());
  std::vector<std::string> out;
  for (std::string& p : prefixes) {
    if (out.empty() || !StartsWith(p, out.back())) out.push_back(std::move(p));
  }
  return out;
}

// How production refuses a write through a view that touches anything the
// view does not cover, whatever it is (nodejs-bigtable's system test
// asserts these words).
Status Outside(std::string_view view_name) {
  return Status::PermissionDenied(
      fmt::format("Cannot mutate from {} because the mutation contains cells outside the Authorized View.", view_name));
}

// A view reads through a chain of its own, whose second link is the
// request's filter: an error about that filter names the request's field
// (`field`), as it would without the view.
Status AsRequested(const Status& status, std::string_view field) {
  const std::string wrapped = fmt::format("{}.chain.filters[1]", field);
  if (status.ok() || status.message().rfind(wrapped, 0) != 0) return status;
  return Status::FromCode(status.code(), std::string(field) + status.message().substr(wrapped.size()));
}

// The first key after every row of `rows` ("": the end of the table).
std::string EndOf(const RowSet& rows) {
  std::string end;
  for (const std::string& key : rows.row_keys) end = std::max(end, key + std::string(1, '\0'));
  for (const RowRange& range : rows.row_ranges) {
    switch (range.end.kind) {
      case RowBound::Kind::kUnbounded: return "";
      case RowBound::Kind::kOpen: end = std::max(end, range.end.value); break;
      case RowBound::Kind::kClosed: end = std::max(end, range.end.value + std::string(1, '\0')); break;
    }
  }
  return end;
}

}  // namespace

bool FamilySubset::Covers(std::string_view qualifier) const {
  if (std::find(qualifiers.begin(), qualifiers.end(), qualifier) != qualifiers.end()) return true;
  return std::any_of(qualifier_prefixes.begin(), qualifier_prefixes.end(),
                     [&](const std::string& p) { return StartsWith(qualifier, p); });
}

bool FamilySubset::CoversAll() const {
  return std::find(qualifier_prefixes.begin(), qualifier_prefixes.end(), "") != qualifier_prefixes.end();
}

bool SubsetView::CoversRow(std::string_view row_key) const {
  return std::any_of(row_prefixes.begin(), row_prefixes.end(),
                     [&](const std::string& p) { return StartsWith(row_key, p); });
}

bool SubsetView::CoversColumn(std::string_view family, std::string_view qualifier) const {
  auto it = family_subsets.find(std::string(family));
  return it != family_subsets.end() && it->second.Covers(qualifier);
}

std::optional<RowSet> SubsetView::Restrict(const RowSet& rows) const {
  const std::vector<std::string> prefixes = DisjointPrefixes(row_prefixes);
  if (!prefixes.empty() && prefixes.front().empty()) return rows;
  RowSet out;
  if (rows.IsAll()) {
    for (const std::string& p : prefixes) out.row_ranges.push_back(RowRange::Prefix(p));
  } else {
    for (const std::string& key : rows.row_keys) {
      if (CoversRow(key)) out.row_keys.push_back(key);
    }
    for (const RowRange& range : rows.row_ranges) {
      for (const std::string& p : prefixes) {
        const RowRange covered = RowRange::Prefix(p);
        RowRange both{TighterLow(range.start, covered.start), TighterHigh(range.end, covered.end)};
        if (!both.IsEmpty()) out.row_ranges.push_back(std::move(both));
      }
    }
  }
  if (out.IsAll()) return std::nullopt;  // nothing left
  return out;
}

Filter SubsetView::ColumnFilter() const {
  std::vector<Filter> columns;
  for (const auto& [family, subset] : family_subsets) {
    for (const std::string& q : subset.qualifiers) {
      columns.push_back(Filter::ColumnRange(family, Bound::Closed(q), Bound::Closed(q)));
    }
    for (const std::string& p : subset.qualifier_prefixes) {
      const std::string end = PrefixSuccessor(p);
      columns.push_back(Filter::ColumnRange(family, p.empty() ? Bound::Unbounded() : Bound::Closed(p),
                                            end.empty() ? Bound::Unbounded() : Bound::Open(end)));
    }
  }
  if (columns.empty()) return Filter::BlockAll();
  if (columns.size() == 1) return std::move(columns.front());
  return Filter::Union(std::move(columns));
}

bool SubsetView::CoversMutation(std::string_view row_key, const Mutation& m) const {
  if (!CoversRow(row_key)) return false;
  switch (m.kind) {
    case Mutation::Kind::kDeleteFromRow: return false;
    case Mutation::Kind::kDeleteFromFamily: {
      auto it = family_subsets.find(m.family);
      return it != family_subsets.end() && it->second.CoversAll();
    }
    default: return CoversColumn(m.family, m.qualifier);
  }
}

bool SubsetView::CoversRule(std::string_view row_key, const ReadModifyWriteRule& rule) const {
  return CoversRow(row_key) && CoversColumn(rule.family, rule.qualifier);
}

Status ValidateSubsetView(const SubsetView& subset, std::string_view field) {
  for (const auto& [family, columns] : subset.family_subsets) {
    if (Status s = ValidateFamilyName(family); !s.ok()) {
      return Status::InvalidArgument(fmt::format("{}.family_subsets: {}", field, s.message()));
    }
    if (columns.qualifiers.empty() && columns.qualifier_prefixes.empty()) {
      return Status::InvalidArgument(fmt::format(
          "{}.family_subsets['{}']: name at least one qualifier or qualifier prefix ('' for the whole family)", field,
          family));
    }
  }
  return Status::OK();
}

namespace {

// Reads and writes of one table through a view; see RestrictToView. It is
// a Table, not a ForwardingTable, so that a data operation added to Table
// must say here how a view restricts it before anything compiles.
class ViewTable final : public Table {
 public:
  ViewTable(std::unique_ptr<Table> base, AuthorizedViewSpec view, std::string view_name)
      : base_(std::move(base)),
        view_(std::move(view)),
        covered_(std::make_shared<const SubsetView>(view_.subset)),
        view_name_(std::move(view_name)) {}

  const TableRef& ref() const override { return base_->ref(); }

  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    std::optional<RowSet> rows = subset().Restrict(request.rows);
    if (!rows.has_value()) return NoRows();
    ReadRequest restricted = request;
    restricted.rows = std::move(*rows);
    restricted.filter = Restricted(request.filter);
    restricted.within_view = covered_;
    Result<std::unique_ptr<RowStream>> stream = target()->ReadRows(restricted);
    if (!stream.ok()) return AsRequested(stream.status(), "filter");
    return stream;
  }

  // Samples of the view alone: keys of rows it covers, offsets counting
  // only the cells it covers, and last the end of its rows with their
  // total. Nothing outside the view shows, not even as an offset.
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override {
    RowSet within;
    if (!(range.start.kind == RowBound::Kind::kUnbounded && range.end.kind == RowBound::Kind::kUnbounded)) {
      within.row_ranges.push_back(range);
    }
    std::optional<RowSet> rows = subset().Restrict(within);
    if (!rows.has_value()) return std::vector<KeySample>{{"", 0}};
    ReadRequest request;
    request.rows = *rows;
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(request));
    return SampleRowsAsRead(stream.get(), EndOf(*rows));
  }

  // A view's rows are not a partition of the table's change stream:
  // Bigtable reads change streams of tables only.
  Result<std::vector<RowRange>> ChangeStreamPartitions() override {
    return ChangeStreamsOfTablesOnly("through an authorized view");
  }
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest&) override {
    return ChangeStreamsOfTablesOnly("through an authorized view");
  }

  Result<int64_t> CountRows(const RowRange& range) override {
    return CountRowsByReading(range, [this](const ReadRequest& request) { return ReadRows(request); });
  }

  Result<std::vector<std::optional<Row>>> LookupRows(const std::vector<std::string>& keys,
                                                     const ReadRequest& request) override {
    std::vector<std::string> covered;
    for (const std::string& key : keys) {
      if (subset().CoversRow(key)) covered.push_back(key);
    }
    ReadRequest restricted = request;
    restricted.filter = Restricted(request.filter);
    std::vector<std::optional<Row>> found;
    if (!covered.empty()) {
      Result<std::vector<std::optional<Row>>> looked_up = target()->LookupRows(covered, restricted);
      if (!looked_up.ok()) return AsRequested(looked_up.status(), "filter");
      found = std::move(*looked_up);
    }
    std::vector<std::optional<Row>> out(keys.size());
    for (size_t i = 0, j = 0; i < keys.size(); ++i) {
      if (subset().CoversRow(keys[i])) out[i] = std::move(found[j++]);
    }
    return out;
  }

  Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) override {
    LBT_RETURN_IF_ERROR(CheckMutations(row_key, mutations));
    return target()->MutateRow(row_key, mutations);
  }
  void MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) override {
    if (Status s = CheckMutations(row_key, mutations); !s.ok()) return done(s);
    target()->MutateRowAsync(std::move(row_key), std::move(mutations), std::move(done));
  }

  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) override {
    // Entries outside the view fail on their own; the rest are applied.
    std::vector<Status> statuses(rows.size());
    std::vector<RowMutation> inside;
    std::vector<size_t> places;
    for (size_t i = 0; i < rows.size(); ++i) {
      statuses[i] = CheckMutations(rows[i].row_key, rows[i].mutations);
      if (statuses[i].ok()) {
        inside.push_back(rows[i]);
        places.push_back(i);
      }
    }
    if (inside.empty()) return statuses;
    LBT_ASSIGN_OR_RETURN(std::vector<Status> applied, target()->MutateRows(inside));
    for (size_t j = 0; j < places.size(); ++j) statuses[places[j]] = std::move(applied[j]);
    return statuses;
  }

  Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                 const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override {
    if (!subset().CoversRow(row_key)) return Outside(view_name_);
    LBT_RETURN_IF_ERROR(CheckMutations(row_key, true_mutations));
    LBT_RETURN_IF_ERROR(CheckMutations(row_key, false_mutations));
    // The predicate sees only the view's cells: "the row has any cell" too.
    Result<bool> matched = target()->CheckAndMutateRow(row_key, Restricted(predicate), true_mutations, false_mutations);
    if (!matched.ok()) return AsRequested(matched.status(), "predicate_filter");
    return matched;
  }

  Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) override {
    for (const ReadModifyWriteRule& rule : rules) {
      if (!subset().CoversRule(row_key, rule)) return Outside(view_name_);
    }
    return target()->ReadModifyWriteRow(row_key, rules);
  }

 private:
  Table* target() const { return base_.get(); }
  const SubsetView& subset() const { return view_.subset; }

  Filter Restricted(const std::optional<Filter>& filter) const {
    if (!filter.has_value()) return subset().ColumnFilter();
    return Filter::Chain({subset().ColumnFilter(), *filter});
  }

  Status CheckMutations(std::string_view row_key, const std::vector<Mutation>& mutations) const {
    if (!subset().CoversRow(row_key)) return Outside(view_name_);
    for (const Mutation& m : mutations) {
      if (!subset().CoversMutation(row_key, m)) return Outside(view_name_);
    }
    return Status::OK();
  }

  const std::unique_ptr<Table> base_;
  const AuthorizedViewSpec view_;
  // What reads through the view may see (ReadRequest::within_view).
  const std::shared_ptr<const SubsetView> covered_;
  const std::string view_name_;
};

}  // namespace

std::unique_ptr<Table> RestrictToView(std::unique_ptr<Table> base, AuthorizedViewSpec view, std::string view_name) {
  return std::make_unique<ViewTable>(std::move(base), std::move(view), std::move(view_name));
}

}  // namespace lbt
