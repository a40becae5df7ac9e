#include "remote/remote_sample_keys.h"

#include "proto/convert.h"

namespace lbt::remote {

namespace v2 = ::google::bigtable::v2;

Result<std::vector<KeySample>> SampleRowKeys(RemoteCalls* calls, const TableRef& table, const RowRange& range) {
  v2::SampleRowKeysRequest request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&request, table));
  request.set_app_profile_id(calls->app_profile());
  const bool whole_table =
      range.start.kind == RowBound::Kind::kUnbounded && range.end.kind == RowBound::Kind::kUnbounded;
  if (!whole_table) *request.mutable_row_range() = proto::ToProto(RowSet{{}, {range}}).row_ranges(0);
  Call call(calls,
            calls->NewContext(RemoteCalls::TargetKey(request), RemoteCalls::TargetOf(request), calls->Deadline()));
  auto reader = calls->data()->SampleRowKeys(call.get(), request);
  std::vector<KeySample> samples;
  for (v2::SampleRowKeysResponse response; reader->Read(&response);) {
    samples.push_back({response.row_key(), response.offset_bytes()});
  }
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(reader->Finish()));
  return samples;
}

}  // namespace lbt::remote
