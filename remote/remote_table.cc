#include "remote/remote_table.h"

#include <string>
#include <utility>
#include <vector>

#include "remote/remote_change_streams.h"
#include "remote/remote_mutations.h"
#include "remote/remote_read_write.h"
#include "remote/remote_reads.h"
#include "remote/remote_sample_keys.h"

namespace lbt::remote {

namespace {

class RemoteTable final : public Table {
 public:
  RemoteTable(RemoteCalls* calls, TableRef ref) : calls_(calls), ref_(std::move(ref)) {}

  const TableRef& ref() const override { return ref_; }
  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    return remote::ReadRows(calls_, ref_, request);
  }
  Result<int64_t> CountRows(const RowRange& range) override { return remote::CountRows(calls_, ref_, range); }
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override {
    return remote::SampleRowKeys(calls_, ref_, range);
  }
  Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) override {
    return remote::MutateRow(calls_, ref_, row_key, mutations);
  }
  // A remote write answers before returning: a remote table is a client's,
  // never served.
  void MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) override {
    done(MutateRow(row_key, mutations));
  }
  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) override {
    return remote::MutateRows(calls_, ref_, rows);
  }
  Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                 const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override {
    return remote::CheckAndMutateRow(calls_, ref_, row_key, predicate, true_mutations, false_mutations);
  }
  Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) override {
    return remote::ReadModifyWriteRow(calls_, ref_, row_key, rules);
  }
  // Bigtable reads change streams of tables only.
  Result<std::vector<RowRange>> ChangeStreamPartitions() override {
    LBT_RETURN_IF_ERROR(TableOnly());
    return remote::ChangeStreamPartitions(calls_, ref_.table);
  }
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest& request) override {
    LBT_RETURN_IF_ERROR(TableOnly());
    return remote::ReadChangeStream(calls_, ref_.table, request);
  }

 private:
  Status TableOnly() const {
    if (ref_.is_authorized_view()) return ChangeStreamsOfTablesOnly("through an authorized view");
    if (ref_.is_materialized_view()) return ChangeStreamsOfTablesOnly("from a materialized view");
    return Status::OK();
  }

  RemoteCalls* const calls_;
  const TableRef ref_;
};

}  // namespace

std::unique_ptr<Table> OpenRemoteTable(RemoteCalls* calls, const TableRef& ref) {
  return std::make_unique<RemoteTable>(calls, ref);
}

}  // namespace lbt::remote
