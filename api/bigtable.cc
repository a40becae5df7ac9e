#include "api/bigtable.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "api/authorized_view.h"

namespace lbt {

// Each per-table call opens the table, calls it and lets the handle go:
// what it returns (a stream) may outlive the handle (api/table.h).
#define LBT_ON_TABLE(table, call)                                                                        \
  do {                                                                                                   \
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> opened, OpenTable(TableRef::Table(std::string(table)))); \
    return opened->call;                                                                                 \
  } while (false)

Result<std::unique_ptr<RowStream>> Bigtable::ReadRows(std::string_view table, const ReadRequest& request) {
  LBT_ON_TABLE(table, ReadRows(request));
}
Result<int64_t> Bigtable::CountRows(std::string_view table, const RowRange& range) {
  LBT_ON_TABLE(table, CountRows(range));
}
Status Bigtable::MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) {
  LBT_ON_TABLE(table, MutateRow(row_key, mutations));
}
Result<std::vector<Status>> Bigtable::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  LBT_ON_TABLE(table, MutateRows(rows));
}
Result<bool> Bigtable::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                         const std::optional<Filter>& predicate,
                                         const std::vector<Mutation>& true_mutations,
                                         const std::vector<Mutation>& false_mutations) {
  LBT_ON_TABLE(table, CheckAndMutateRow(row_key, predicate, true_mutations, false_mutations));
}
Result<Row> Bigtable::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                         const std::vector<ReadModifyWriteRule>& rules) {
  LBT_ON_TABLE(table, ReadModifyWriteRow(row_key, rules));
}
Result<std::vector<KeySample>> Bigtable::SampleRowKeys(std::string_view table, const RowRange& range) {
  LBT_ON_TABLE(table, SampleRowKeys(range));
}
Result<std::vector<std::optional<Row>>> Bigtable::LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadRequest& request) {
  LBT_ON_TABLE(table, LookupRows(keys, request));
}
Result<std::vector<RowRange>> Bigtable::ChangeStreamPartitions(std::string_view table) {
  LBT_ON_TABLE(table, ChangeStreamPartitions());
}
Result<std::unique_ptr<ChangeStream>> Bigtable::ReadChangeStream(std::string_view table,
                                                                 const ChangeStreamRequest& request) {
  LBT_ON_TABLE(table, ReadChangeStream(request));
}
Result<std::optional<Row>> Bigtable::ReadRow(std::string_view table, std::string_view row_key,
                                             std::optional<Filter> filter) {
  LBT_ON_TABLE(table, ReadRow(row_key, std::move(filter)));
}

#undef LBT_ON_TABLE

Result<std::unique_ptr<Table>> ThroughAuthorizedView(Bigtable* bigtable, std::unique_ptr<Table> table) {
  const TableRef& ref = table->ref();
  if (!ref.is_authorized_view()) return table;
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, bigtable->GetAuthorizedView(ref.table, ref.authorized_view));
  std::string name = ref.instance.project.empty() ? ref.RelativeName() : ref.FullName();
  return RestrictToView(std::move(table), std::move(view), std::move(name));
}

}  // namespace lbt
