#include "remote/remote_mutations.h"

#include <chrono>
#include <optional>

#include "api/limits.h"
#include "proto/convert.h"
#include "remote/retry_policy.h"

namespace lbt::remote {

namespace {

namespace v2 = ::google::bigtable::v2;

v2::Mutation MutationProto(const Mutation& m) {
  if (m.kind != Mutation::Kind::kAddToCell || m.timestamp != kServerTime) return proto::ToProto(m);
  Mutation timed = m;
  const int64_t now =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  timed.timestamp = now - now % kTimestampGranularityMicros;
  return proto::ToProto(timed);
}

// A row's mutations can be sent again without changing the result: an
// idempotency token says so (the service applies a replay once); else no
// AddToCell, and no cell whose timestamp the server picks.
bool Idempotent(const RowMutation& row) {
  if (!row.idempotency.token.empty()) return true;
  for (const Mutation& m : row.mutations) {
    if (m.kind == Mutation::Kind::kAddToCell) return false;
    if (m.kind == Mutation::Kind::kSetCell && m.timestamp == kServerTime) return false;
  }
  return true;
}

// One MutateRows call for the rows at `indexes`: (*answers)[j] is set to
// the service's answer for rows[indexes[j]], and stays unset for an entry
// the service did not answer. Returns the call's own status.
Status SendMutateRows(RemoteCalls* calls, const TableRef& table, const std::vector<RowMutation>& rows,
                      const std::vector<size_t>& indexes, RemoteCalls::Clock::time_point deadline,
                      std::vector<std::optional<Status>>* answers) {
  v2::MutateRowsRequest request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&request, table));
  request.set_app_profile_id(calls->app_profile());
  for (size_t i : indexes) {
    v2::MutateRowsRequest::Entry* entry = request.add_entries();
    entry->set_row_key(rows[i].row_key);
    AddMutations(rows[i].mutations, entry->mutable_mutations());
    if (!rows[i].idempotency.token.empty()) *entry->mutable_idempotency() = proto::ToProto(rows[i].idempotency);
  }
  answers->assign(indexes.size(), std::nullopt);
  Call call(calls, calls->NewContext(RemoteCalls::TargetKey(request), RemoteCalls::TargetOf(request), deadline));
  auto reader = calls->data()->MutateRows(call.get(), request);
  for (v2::MutateRowsResponse response; reader->Read(&response);) {
    for (const v2::MutateRowsResponse::Entry& e : response.entries()) {
      if (e.index() < 0 || static_cast<size_t>(e.index()) >= indexes.size()) continue;
      (*answers)[e.index()] = proto::FromRpcStatus(e.status());
    }
  }
  return proto::FromGrpcStatus(reader->Finish());
}

bool AnyAnswered(const std::vector<std::optional<Status>>& answers) {
  for (const auto& answer : answers) {
    if (answer.has_value()) return true;
  }
  return false;
}

}  // namespace

void AddMutations(const std::vector<Mutation>& mutations, google::protobuf::RepeatedPtrField<v2::Mutation>* out) {
  for (const Mutation& m : mutations) *out->Add() = MutationProto(m);
}

Status MutateRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                 const std::vector<Mutation>& mutations) {
  v2::MutateRowRequest request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&request, table));
  request.set_app_profile_id(calls->app_profile());
  request.set_row_key(std::string(row_key));
  AddMutations(mutations, request.mutable_mutations());
  v2::MutateRowResponse response;
  return calls->Unary(calls->data(), &RemoteCalls::DataStub::MutateRow, RemoteCalls::TargetKey(request),
                      RemoteCalls::TargetOf(request), request, &response);
}

Result<std::vector<Status>> MutateRows(RemoteCalls* calls, const TableRef& table,
                                       const std::vector<RowMutation>& rows) {
  std::vector<Status> statuses(rows.size());
  std::vector<size_t> pending(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) pending[i] = i;
  RetryPolicy retry(calls->Deadline());
  for (bool first = true;; first = false) {
    std::vector<std::optional<Status>> answers;
    const Status call = SendMutateRows(calls, table, rows, pending, retry.deadline(), &answers);
    // The first call failed before the service answered any entry:
    // nothing was applied, and the call's error is the answer.
    if (first && !call.ok() && !RetryPolicy::Retryable(call) && !AnyAnswered(answers)) return call;
    const Status unanswered = call.ok() ? Status::Unavailable("the service did not answer for this row") : call;
    std::vector<size_t> again;
    for (size_t j = 0; j < pending.size(); ++j) {
      const size_t i = pending[j];
      statuses[i] = answers[j].value_or(unanswered);
      if (RetryPolicy::Retryable(statuses[i]) && Idempotent(rows[i])) again.push_back(i);
    }
    if (again.empty() || !retry.WaitBeforeRetry()) return statuses;
    pending = std::move(again);
  }
}

}  // namespace lbt::remote
