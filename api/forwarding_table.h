// ForwardingTable: a Table that passes every operation to the Table it
// owns. Decorators (an authorized view's restriction, explain's recorder)
// override the few operations they watch or change; having only Table's
// methods, they cannot pass an admin call through.
//
// Threading: as the target's.

#ifndef LBT_API_FORWARDING_TABLE_H_
#define LBT_API_FORWARDING_TABLE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/table.h"

namespace lbt {

class ForwardingTable : public Table {
 public:
  explicit ForwardingTable(std::unique_ptr<Table> target) : target_(std::move(target)) {}

  const TableRef& ref() const override { return target_->ref(); }
  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    return target_->ReadRows(request);
  }
  Result<std::vector<std::optional<Row>>> LookupRows(const std::vector<std::string>& keys,
                                                     const ReadRequest& request) override {
    return target_->LookupRows(keys, request);
  }
  Result<int64_t> CountRows(const RowRange& range) override { return target_->CountRows(range); }
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override { return target_->SampleRowKeys(range); }
  Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) override {
    return target_->MutateRow(row_key, mutations);
  }
  // A decorator that overrides MutateRow overrides this too.
  void MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) override {
    target_->MutateRowAsync(std::move(row_key), std::move(mutations), std::move(done));
  }
  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) override {
    return target_->MutateRows(rows);
  }
  Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                 const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override {
    return target_->CheckAndMutateRow(row_key, predicate, true_mutations, false_mutations);
  }
  Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) override {
    return target_->ReadModifyWriteRow(row_key, rules);
  }
  Result<std::vector<RowRange>> ChangeStreamPartitions() override { return target_->ChangeStreamPartitions(); }
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest& request) override {
    return target_->ReadChangeStream(request);
  }

 protected:
  Table* target() const { return target_.get(); }

 private:
  std::unique_ptr<Table> target_;
};

}  // namespace lbt

#endif  // LBT_API_FORWARDING_TABLE_H_
