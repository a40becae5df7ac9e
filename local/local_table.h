// LocalTable: the data operations of one table of a local instance, over
// the database that keeps it under its catalog name ("P/I/T"; "T" in the
// default instance). LocalBigtable::OpenTable opens it, and wraps it in
// the restriction of an authorized view when the ref names one.

#ifndef LBT_LOCAL_LOCAL_TABLE_H_
#define LBT_LOCAL_LOCAL_TABLE_H_

#include <memory>
#include <string>

#include "api/table.h"

namespace lbt {

class LazyDatabase;
class Database;

class LocalTable final : public Table {
 public:
  // `catalog_name` is how `db` catalogues `ref.table`.
  LocalTable(std::shared_ptr<LazyDatabase> db, TableRef ref, std::string catalog_name);

  const TableRef& ref() const override { return ref_; }
  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override;
  // From one snapshot with one cursor (Database::LookupRows).
  Result<std::vector<std::optional<Row>>> LookupRows(const std::vector<std::string>& keys,
                                                     const ReadRequest& request) override;
  Result<int64_t> CountRows(const RowRange& range) override;
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override;
  Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) override;
  // Answers once the write is durable, from the thread that synced it
  // (Database::MutateRowAsync).
  void MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) override;
  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) override;
  Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                 const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override;
  Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) override;
  // FailedPrecondition naming the table as its instance names it while
  // its change stream is off.
  Result<std::vector<RowRange>> ChangeStreamPartitions() override;
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest& request) override;

 private:
  // LazyDatabase::OpenForTable for this table.
  Result<Database*> For(bool write) const;
  Status RequireChangeStream(Database* db) const;

  const std::shared_ptr<LazyDatabase> db_;
  const TableRef ref_;
  const std::string catalog_name_;
};

}  // namespace lbt

#endif  // LBT_LOCAL_LOCAL_TABLE_H_
