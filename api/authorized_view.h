// Authorized views: a named subset of one table (row key prefixes, and per
// family the qualifiers and qualifier prefixes it covers), granted apart
// from the table. Reads through a view see only what it covers, and its
// samples and read stats describe only that; a write through it that
// touches anything else fails with PermissionDenied and changes nothing,
// in production's words, "Cannot mutate from <view name> because the
// mutation contains cells outside the Authorized View." (googleapis/
// java-bigtable's MutateRowIT, CheckAndMutateIT and ReadModifyWriteIT,
// recorded against production; nodejs-bigtable's system test asserts the
// message verbatim).

#ifndef LBT_API_AUTHORIZED_VIEW_H_
#define LBT_API_AUTHORIZED_VIEW_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/filter.h"
#include "api/ids.h"
#include "api/mutation.h"
#include "api/row_set.h"
#include "api/status.h"

namespace lbt {

class Table;  // api/table.h

// The columns of one family a view covers: these qualifiers, and every
// qualifier that starts with one of the prefixes ("" covers the family).
struct FamilySubset {
  std::vector<std::string> qualifiers;
  std::vector<std::string> qualifier_prefixes;

  bool Covers(std::string_view qualifier) const;
  // True when every qualifier is covered (a "" prefix).
  bool CoversAll() const;
  friend bool operator==(const FamilySubset& a, const FamilySubset& b) {
    return a.qualifiers == b.qualifiers && a.qualifier_prefixes == b.qualifier_prefixes;
  }
};

// Bigtable's SubsetView. A view with no row prefixes covers no rows; a ""
// prefix covers them all.
struct SubsetView {
  std::vector<std::string> row_prefixes;
  std::map<std::string, FamilySubset> family_subsets;  // by family

  bool CoversRow(std::string_view row_key) const;
  bool CoversColumn(std::string_view family, std::string_view qualifier) const;
  // The rows of `rows` that the view covers; nullopt when it covers none
  // of them (an empty RowSet would mean every row).
  std::optional<RowSet> Restrict(const RowSet& rows) const;
  // A filter that keeps only the cells of covered columns.
  Filter ColumnFilter() const;
  // True when the view covers every cell `m` can change in `row_key`. A
  // DeleteFromRow is never covered: it would delete cells of families the
  // view leaves out, and families added later.
  bool CoversMutation(std::string_view row_key, const Mutation& m) const;
  bool CoversRule(std::string_view row_key, const ReadModifyWriteRule& rule) const;
  friend bool operator==(const SubsetView& a, const SubsetView& b) {
    return a.row_prefixes == b.row_prefixes && a.family_subsets == b.family_subsets;
  }
};

struct AuthorizedViewSpec {
  std::string id;
  SubsetView subset;
  // While on, neither the view nor its table (nor the table's instance)
  // can be deleted.
  bool deletion_protection = false;
  // Changes with every update; an update or delete naming another etag
  // fails with Aborted.
  std::string etag;
};

// What UpdateAuthorizedView replaces (its update mask).
struct AuthorizedViewUpdate {
  bool subset = false;
  bool deletion_protection = false;
};

// Each family subset names a valid family and at least one qualifier or
// prefix. The families need not exist yet: a view may cover a family the
// table gets later.
Status ValidateSubsetView(const SubsetView& subset, std::string_view field);

// The reads and writes of `base`'s table through `view`: a read sees only
// the cells the view covers, a write outside it is PermissionDenied. Used
// where the service itself does not know the view (a local database).
// `view_name` names the view in the errors of writes outside it: its full
// name (projects/P/instances/I/tables/T/authorizedViews/V) where known.
std::unique_ptr<Table> RestrictToView(std::unique_ptr<Table> base, AuthorizedViewSpec view, std::string view_name);

}  // namespace lbt

#endif  // LBT_API_AUTHORIZED_VIEW_H_
