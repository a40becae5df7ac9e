#include "remote/remote_read_write.h"

#include "proto/convert.h"
#include "remote/filter_plan.h"
#include "remote/remote_mutations.h"

namespace lbt::remote {

namespace v2 = ::google::bigtable::v2;

Result<bool> CheckAndMutateRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                               const std::optional<Filter>& predicate, const std::vector<Mutation>& true_mutations,
                               const std::vector<Mutation>& false_mutations) {
  v2::CheckAndMutateRowRequest request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&request, table));
  request.set_app_profile_id(calls->app_profile());
  request.set_row_key(std::string(row_key));
  if (predicate) {
    if (!ServiceCanRun(*predicate)) {
      return Status::InvalidArgument(
          "this predicate uses HBase-only filters, which a remote Bigtable cannot evaluate atomically");
    }
    LBT_ASSIGN_OR_RETURN(*request.mutable_predicate_filter(), proto::ToProto(*predicate));
  }
  AddMutations(true_mutations, request.mutable_true_mutations());
  AddMutations(false_mutations, request.mutable_false_mutations());
  v2::CheckAndMutateRowResponse response;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->data(), &RemoteCalls::DataStub::CheckAndMutateRow,
                                   RemoteCalls::TargetKey(request), RemoteCalls::TargetOf(request), request,
                                   &response));
  return response.predicate_matched();
}

Result<Row> ReadModifyWriteRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                               const std::vector<ReadModifyWriteRule>& rules) {
  v2::ReadModifyWriteRowRequest request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&request, table));
  request.set_app_profile_id(calls->app_profile());
  request.set_row_key(std::string(row_key));
  for (const ReadModifyWriteRule& rule : rules) *request.add_rules() = proto::ToProto(rule);
  v2::ReadModifyWriteRowResponse response;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->data(), &RemoteCalls::DataStub::ReadModifyWriteRow,
                                   RemoteCalls::TargetKey(request), RemoteCalls::TargetOf(request), request,
                                   &response));
  return proto::FromProto(response.row());
}

}  // namespace lbt::remote
