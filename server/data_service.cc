#include "server/data_service.h"

#include <fmt/format.h>
#include <google/protobuf/stubs/strutil.h>

#include <chrono>
#include <memory>

#include "google/bigtable/v2/feature_flags.pb.h"
#include "proto/chunk_writer.h"
#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "proto/query_convert.h"
#include "api/forwarding_bigtable.h"
#include "server/query_requests.h"
#include "server/request_limits.h"
#include "server/rpc_gate.h"
#include "server/unimplemented.h"

namespace lbt::server {

namespace {

using proto::ToGrpcStatus;

// A streamed response is sent once its rows hold about this many bytes
// (ReadRows' and ExecuteQuery's), and a longer value is split over chunks.
constexpr size_t kResponseBytes = 1 << 20;

// The table a data request names; it must name one.
Result<std::string> TableOf(const std::string& table_name, const std::string& authorized_view) {
  if (!authorized_view.empty()) {
    return Status::InvalidArgument("authorized_view_name: lbt has no authorized views; name the table");
  }
  LBT_ASSIGN_OR_RETURN(proto::TableName name, proto::ParseTableName(table_name, "table_name"));
  return name.table;
}

Status ValidateRowKey(const std::string& key) {
  if (key.empty()) return Status::InvalidArgument("row_key: must not be empty");
  return Status::OK();
}

// Sends one response of a stream, under the stall watch: a client that
// does not take it in time has its call ended. False if the client went
// away or the call was ended.
template <typename Response>
bool WriteWatched(grpc::ServerWriter<Response>* writer, const Response& response, grpc::ServerContext* context,
                  StallWatch* stalls, grpc::WriteOptions options = {}) {
  StallWatch::Guard guard(stalls, context);
  return writer->Write(response, options);
}

v2::RequestStats FullStats(const ReadStats& stats, std::chrono::steady_clock::duration elapsed) {
  v2::RequestStats out;
  auto* view = out.mutable_full_read_stats_view();
  auto* iteration = view->mutable_read_iteration_stats();
  iteration->set_rows_seen_count(stats.rows_seen);
  iteration->set_rows_returned_count(stats.rows_returned);
  iteration->set_cells_seen_count(stats.cells_seen);
  iteration->set_cells_returned_count(stats.cells_returned);
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  auto* latency = view->mutable_request_latency_stats()->mutable_frontend_server_latency();
  latency->set_seconds(nanos / 1000000000);
  latency->set_nanos(static_cast<int32_t>(nanos % 1000000000));
  return out;
}

// The features a client announces in the bigtable-features header: a
// FeatureFlags message in web-safe base64.
v2::FeatureFlags ClientFeatures(const grpc::ServerContext& context) {
  v2::FeatureFlags flags;
  auto it = context.client_metadata().find("bigtable-features");
  if (it == context.client_metadata().end()) return flags;
  std::string bytes;
  if (google::protobuf::WebSafeBase64Unescape(std::string(it->second.data(), it->second.size()), &bytes)) {
    flags.ParseFromString(bytes);
  }
  return flags;
}

// The request's filter, checked against Bigtable's size limit and
// converted; nullopt when the request sets none.
Result<std::optional<Filter>> FilterIfSet(bool set, const v2::RowFilter& filter, std::string_view field) {
  if (!set) return std::optional<Filter>();
  if (const size_t bytes = filter.ByteSizeLong(); bytes > kMaxFilterBytes) {
    return Status::InvalidArgument(fmt::format("{}: the filter is {} bytes; Bigtable allows at most {} bytes",
                                               field, bytes, kMaxFilterBytes));
  }
  LBT_ASSIGN_OR_RETURN(Filter parsed, proto::FromProto(filter, field));
  return std::optional<Filter>(std::move(parsed));
}

Result<ReadRequest> ReadRequestOf(const v2::ReadRowsRequest& request) {
  ReadRequest read;
  LBT_ASSIGN_OR_RETURN(read.rows, proto::FromProto(request.rows(), "rows"));
  if (request.rows_limit() < 0) {
    return Status::InvalidArgument(fmt::format("rows_limit: must not be negative, got {}", request.rows_limit()));
  }
  read.rows_limit = request.rows_limit();
  read.reversed = request.reversed();
  LBT_ASSIGN_OR_RETURN(read.filter, FilterIfSet(request.has_filter(), request.filter(), "filter"));
  return read;
}

}  // namespace

grpc::Status DataService::ReadRows(grpc::ServerContext* context, const v2::ReadRowsRequest* request,
                                   grpc::ServerWriter<v2::ReadRowsResponse>* writer) {
  LBT_ADMIT(gate_);
  const auto started = std::chrono::steady_clock::now();
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  if (!request->materialized_view_name().empty()) {
    return ToGrpcStatus(Status::InvalidArgument("materialized_view_name: lbt has no materialized views"));
  }
  Result<ReadRequest> read = ReadRequestOf(*request);
  if (!read.ok()) return ToGrpcStatus(read.status());
  // Long scans renew their snapshot, and stop once the client cancels or
  // the deadline passes, also while the filter skips every row.
  read->max_snapshot_age = kReadSnapshotAge;
  read->interrupted = [context] { return context->IsCancelled(); };
  Result<std::unique_ptr<RowStream>> rows = bigtable_->ReadRows(*table, *read);
  if (!rows.ok()) return ToGrpcStatus(rows.status());
  RowStream& stream = **rows;

  auto send = [&](const v2::ReadRowsResponse& response, bool last) {
    // The client may be slow to take the response: let go of the snapshot.
    stream.ReleaseSnapshot();
    grpc::WriteOptions options;
    // The last response goes out with the call's status, in one write.
    if (last) options.set_last_message();
    return WriteWatched(writer, response, context, stalls_, options);
  };
  proto::ChunkWriter chunks(send, kResponseBytes);
  Row row;
  while (stream.Next(&row)) {
    if (context->IsCancelled() || !chunks.AddRow(row)) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the read");
    }
  }
  if (!stream.status().ok()) return ToGrpcStatus(stream.status());
  v2::RequestStats stats;
  const bool full = request->request_stats_view() == v2::ReadRowsRequest::REQUEST_STATS_FULL;
  if (full) stats = FullStats(stream.stats(), std::chrono::steady_clock::now() - started);
  const bool report_scanned = ClientFeatures(*context).last_scanned_row_responses();
  chunks.Finish(full ? &stats : nullptr, report_scanned ? stream.LastScannedKey() : std::string());
  return grpc::Status::OK;
}

grpc::Status DataService::SampleRowKeys(grpc::ServerContext* context, const v2::SampleRowKeysRequest* request,
                                        grpc::ServerWriter<v2::SampleRowKeysResponse>* writer) {
  LBT_ADMIT(gate_);
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  // An optional row_range limits the samples to it.
  RowRange range = RowRange::All();
  if (request->has_row_range()) {
    v2::RowSet rows;
    *rows.add_row_ranges() = request->row_range();
    Result<RowSet> converted = proto::FromProto(rows, "row_range");
    if (!converted.ok()) return ToGrpcStatus(converted.status());
    range = converted->row_ranges.front();
  }
  Result<std::vector<KeySample>> samples = bigtable_->SampleRowKeys(*table, range);
  if (!samples.ok()) return ToGrpcStatus(samples.status());
  for (const KeySample& sample : *samples) {
    v2::SampleRowKeysResponse response;
    response.set_row_key(sample.row_key);
    response.set_offset_bytes(sample.offset_bytes);
    if (!WriteWatched(writer, response, context, stalls_)) break;
  }
  return grpc::Status::OK;
}

grpc::Status DataService::MutateRow(grpc::ServerContext*, const v2::MutateRowRequest* request,
                                    v2::MutateRowResponse*) {
  LBT_ADMIT(gate_);
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  if (Status s = ValidateRowKey(request->row_key()); !s.ok()) return ToGrpcStatus(s);
  Result<std::vector<Mutation>> mutations = proto::FromProto(request->mutations(), "mutations");
  if (!mutations.ok()) return ToGrpcStatus(mutations.status());
  return ToGrpcStatus(bigtable_->MutateRow(*table, request->row_key(), *mutations));
}

namespace {

// Converts the entries; an entry that does not convert gets its own status
// and an empty mutation list, which MutateRows is never shown.
Status EntriesFromProto(const v2::MutateRowsRequest& request, std::vector<RowMutation>* rows,
                        std::vector<Status>* invalid) {
  if (request.entries().empty()) return Status::InvalidArgument("entries: at least one entry is required");
  int64_t total = 0;
  for (const auto& entry : request.entries()) total += entry.mutations_size();
  if (total > proto::kMaxMutationsPerRequest) {
    return Status::InvalidArgument(fmt::format("entries: {} mutations in all; Bigtable allows at most {} in one request",
                                               total, proto::kMaxMutationsPerRequest));
  }
  for (int i = 0; i < request.entries_size(); ++i) {
    const auto& entry = request.entries(i);
    Status s = ValidateRowKey(entry.row_key());
    Result<std::vector<Mutation>> mutations =
        proto::FromProto(entry.mutations(), fmt::format("entries[{}].mutations", i));
    if (s.ok() && !mutations.ok()) s = mutations.status();
    invalid->push_back(s);
    rows->push_back({entry.row_key(), s.ok() ? std::move(mutations).value() : std::vector<Mutation>{}});
  }
  return Status::OK();
}

}  // namespace

grpc::Status DataService::MutateRows(grpc::ServerContext* context, const v2::MutateRowsRequest* request,
                                     grpc::ServerWriter<v2::MutateRowsResponse>* writer) {
  LBT_ADMIT(gate_);
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  std::vector<RowMutation> rows;
  std::vector<Status> statuses;
  if (Status s = EntriesFromProto(*request, &rows, &statuses); !s.ok()) return ToGrpcStatus(s);
  // Only the entries that converted reach the engine.
  std::vector<RowMutation> valid;
  std::vector<size_t> index_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!statuses[i].ok()) continue;
    valid.push_back(std::move(rows[i]));
    index_of.push_back(i);
  }
  Result<std::vector<Status>> applied = bigtable_->MutateRows(*table, valid);
  if (!applied.ok()) return ToGrpcStatus(applied.status());
  for (size_t j = 0; j < index_of.size(); ++j) statuses[index_of[j]] = (*applied)[j];

  v2::MutateRowsResponse response;
  for (size_t i = 0; i < statuses.size(); ++i) {
    auto* entry = response.add_entries();
    entry->set_index(static_cast<int64_t>(i));
    grpc::Status g = ToGrpcStatus(statuses[i]);
    entry->mutable_status()->set_code(g.error_code());
    entry->mutable_status()->set_message(g.error_message());
  }
  WriteWatched(writer, response, context, stalls_);
  return grpc::Status::OK;
}

grpc::Status DataService::CheckAndMutateRow(grpc::ServerContext*, const v2::CheckAndMutateRowRequest* request,
                                            v2::CheckAndMutateRowResponse* response) {
  LBT_ADMIT(gate_);
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  if (Status s = ValidateRowKey(request->row_key()); !s.ok()) return ToGrpcStatus(s);
  std::vector<Mutation> on_true, on_false;
  // Either list may be empty, but not both, and together they obey the limit.
  if (request->true_mutations().empty() && request->false_mutations().empty()) {
    return ToGrpcStatus(Status::InvalidArgument("true_mutations, false_mutations: at least one mutation is required"));
  }
  if (request->true_mutations_size() + request->false_mutations_size() > proto::kMaxMutationsPerRequest) {
    return ToGrpcStatus(Status::InvalidArgument(
        fmt::format("true_mutations, false_mutations: Bigtable allows at most {} mutations in one request",
                    proto::kMaxMutationsPerRequest)));
  }
  for (auto [list, out, field] : {std::tuple{&request->true_mutations(), &on_true, "true_mutations"},
                                  std::tuple{&request->false_mutations(), &on_false, "false_mutations"}}) {
    if (list->empty()) continue;
    Result<std::vector<Mutation>> converted = proto::FromProto(*list, field);
    if (!converted.ok()) return ToGrpcStatus(converted.status());
    *out = std::move(converted).value();
  }
  Result<std::optional<Filter>> predicate =
      FilterIfSet(request->has_predicate_filter(), request->predicate_filter(), "predicate_filter");
  if (!predicate.ok()) return ToGrpcStatus(predicate.status());
  Result<bool> matched = bigtable_->CheckAndMutateRow(*table, request->row_key(), *predicate, on_true, on_false);
  if (!matched.ok()) return ToGrpcStatus(matched.status());
  response->set_predicate_matched(*matched);
  return grpc::Status::OK;
}

grpc::Status DataService::PingAndWarm(grpc::ServerContext*, const v2::PingAndWarmRequest* request,
                                      v2::PingAndWarmResponse*) {
  LBT_ADMIT(gate_);
  return ToGrpcStatus(proto::ValidateInstanceName(request->name(), "name"));
}

grpc::Status DataService::ReadModifyWriteRow(grpc::ServerContext*, const v2::ReadModifyWriteRowRequest* request,
                                             v2::ReadModifyWriteRowResponse* response) {
  LBT_ADMIT(gate_);
  Result<std::string> table = TableOf(request->table_name(), request->authorized_view_name());
  if (!table.ok()) return ToGrpcStatus(table.status());
  if (Status s = ValidateRowKey(request->row_key()); !s.ok()) return ToGrpcStatus(s);
  if (request->rules().empty()) return ToGrpcStatus(Status::InvalidArgument("rules: at least one rule is required"));
  if (request->rules_size() > kMaxReadModifyWriteRules) {
    return ToGrpcStatus(Status::InvalidArgument(fmt::format(
        "rules: {} rules; Bigtable allows at most {} in one request", request->rules_size(), kMaxReadModifyWriteRules)));
  }
  std::vector<ReadModifyWriteRule> rules;
  for (int i = 0; i < request->rules_size(); ++i) {
    Result<ReadModifyWriteRule> rule = proto::FromProto(request->rules(i), fmt::format("rules[{}]", i));
    if (!rule.ok()) return ToGrpcStatus(rule.status());
    rules.push_back(std::move(rule).value());
  }
  Result<Row> row = bigtable_->ReadModifyWriteRow(*table, request->row_key(), rules);
  if (!row.ok()) return ToGrpcStatus(row.status());
  *response->mutable_row() = proto::ToProto(*row);
  return grpc::Status::OK;
}

// ---- GoogleSQL ----

grpc::Status DataService::PrepareQuery(grpc::ServerContext*, const v2::PrepareQueryRequest* request,
                                       v2::PrepareQueryResponse* response) {
  LBT_ADMIT(gate_);
  Status valid = proto::ValidateInstanceName(request->instance_name(), "instance_name");
  if (!valid.ok()) return ToGrpcStatus(valid);
  if (request->query().empty()) return ToGrpcStatus(Status::InvalidArgument("query: must not be empty"));
  Result<sql::ParamTypes> types = ParamTypesFromProto(request->param_types());
  if (!types.ok()) return ToGrpcStatus(types.status());
  Result<std::unique_ptr<sql::PreparedQuery>> query = sql::Prepare(bigtable_, request->query(), *types);
  if (!query.ok()) return ToGrpcStatus(query.status());
  *response->mutable_metadata() = proto::ToProto((*query)->columns());
  response->set_prepared_query(EncodePreparedQuery(*request));
  // The bytes never expire here; an hour asks clients to refresh the plan
  // now and then, as production's would.
  const auto valid_until = std::chrono::system_clock::now() + std::chrono::hours(1);
  response->mutable_valid_until()->set_seconds(
      std::chrono::duration_cast<std::chrono::seconds>(valid_until.time_since_epoch()).count());
  return grpc::Status::OK;
}

namespace {

// ExecuteQuery's `query` and `proto_format`: deprecated in favour of
// prepared_query, and still served for the clients that send them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
const std::string& QueryText(const v2::ExecuteQueryRequest& request) { return request.query(); }
bool HasDataFormat(const v2::ExecuteQueryRequest& request) { return request.has_proto_format(); }
#pragma GCC diagnostic pop

// The query and parameter values an ExecuteQuery request runs: from its
// prepared_query, or from the deprecated query text.
struct QueryToRun {
  std::string text;
  sql::ParamTypes types;
  sql::Params params;
};

Result<QueryToRun> QueryOf(const v2::ExecuteQueryRequest& request) {
  LBT_RETURN_IF_ERROR(proto::ValidateInstanceName(request.instance_name(), "instance_name"));
  QueryToRun run;
  if (QueryText(request).empty() == request.prepared_query().empty()) {
    return Status::InvalidArgument("prepared_query: exactly one of query and prepared_query must be set");
  }
  if (QueryText(request).empty()) {
    if (HasDataFormat(request)) {
      return Status::InvalidArgument("proto_format: must be empty with prepared_query");
    }
    LBT_ASSIGN_OR_RETURN(v2::PrepareQueryRequest prepared, DecodePreparedQuery(request.prepared_query()));
    run.text = prepared.query();
    LBT_ASSIGN_OR_RETURN(run.types, ParamTypesFromProto(prepared.param_types()));
    LBT_ASSIGN_OR_RETURN(run.params, ParamsFromProto(request.params(), &run.types));
  } else {
    run.text = QueryText(request);
    LBT_ASSIGN_OR_RETURN(run.params, ParamsFromProto(request.params(), nullptr));
    for (const auto& [name, value] : run.params) run.types[name] = value.type();
  }
  return run;
}

// The Bigtable a query reads through during one call: its reads stop once
// the call is cancelled or its deadline passes, so that a query the client
// gave up on stops working too.
class CallBigtable final : public ForwardingBigtable {
 public:
  CallBigtable(Bigtable* target, grpc::ServerContext* context) : ForwardingBigtable(target), context_(context) {}

  Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request) override {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, ForwardingBigtable::ReadRows(table, request));
    return std::unique_ptr<RowStream>(std::make_unique<Stream>(std::move(rows), context_));
  }

 private:
  class Stream final : public RowStream {
   public:
    Stream(std::unique_ptr<RowStream> rows, grpc::ServerContext* context) : rows_(std::move(rows)), context_(context) {}
    bool Next(Row* row) override {
      if (!cancelled_.ok()) return false;
      // Asking costs a lock; every 64 rows is often enough.
      if ((++rows_read_ & 63) == 0 && context_->IsCancelled()) {
        cancelled_ = Status::Cancelled("the query was cancelled, or its deadline passed");
        return false;
      }
      return rows_->Next(row);
    }
    Status status() const override { return cancelled_.ok() ? rows_->status() : cancelled_; }
    ReadStats stats() const override { return rows_->stats(); }

   private:
    std::unique_ptr<RowStream> rows_;
    grpc::ServerContext* context_;
    int64_t rows_read_ = 0;
    Status cancelled_;
  };

  grpc::ServerContext* context_;
};

}  // namespace

grpc::Status DataService::ExecuteQuery(grpc::ServerContext* context, const v2::ExecuteQueryRequest* request,
                                       grpc::ServerWriter<v2::ExecuteQueryResponse>* writer) {
  LBT_ADMIT(gate_);
  Result<QueryToRun> run = QueryOf(*request);
  if (!run.ok()) return ToGrpcStatus(run.status());
  Result<int64_t> skip = request->resume_token().empty() ? 0 : RowsBeforeResumeToken(request->resume_token());
  if (!skip.ok()) return ToGrpcStatus(skip.status());
  CallBigtable call_tables(bigtable_, context);
  Result<std::unique_ptr<sql::PreparedQuery>> query = sql::Prepare(&call_tables, run->text, run->types);
  if (!query.ok()) return ToGrpcStatus(query.status());
  v2::ExecuteQueryResponse response;
  auto send = [&] { return WriteWatched(writer, response, context, stalls_); };
  const grpc::Status gone(grpc::StatusCode::CANCELLED, "the client went away");
  if (*skip < 0) {  // everything was delivered: say so again
    *response.mutable_results() = proto::ResultBatcher(0).Take(std::string(kFinalResumeToken));
    return send() ? grpc::Status::OK : gone;
  }
  // Only the deprecated form gets the metadata in the stream; a prepared
  // query's came with PrepareQuery, and clients refuse it here.
  if (!QueryText(*request).empty() && *skip == 0) {
    *response.mutable_metadata() = proto::ToProto((*query)->columns());
    if (!send()) return gone;
  }
  Result<std::unique_ptr<sql::ResultStream>> rows = (*query)->Execute(run->params);
  if (!rows.ok()) return ToGrpcStatus(rows.status());
  proto::ResultBatcher batcher(kResponseBytes);
  int64_t row_number = 0;
  for (sql::Values row; (*rows)->Next(&row);) {
    if (++row_number <= *skip) continue;
    const bool ready = batcher.Add(row);
    if (const size_t bytes = batcher.last_row_bytes(); bytes > kMaxResultRowBytes) {
      return ToGrpcStatus(Status::FailedPrecondition(
          fmt::format("result row {} is {} MiB; a result row may hold at most {} MiB", row_number, bytes >> 20,
                      kMaxResultRowBytes >> 20)));
    }
    if (!ready) continue;
    *response.mutable_results() = batcher.Take(ResumeToken(row_number));
    if (context->IsCancelled() || !send()) return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the query");
  }
  if (!(*rows)->status().ok()) return ToGrpcStatus((*rows)->status());
  *response.mutable_results() = batcher.Take(std::string(kFinalResumeToken));
  // A stream that could not send its last rows must not end OK.
  return send() ? grpc::Status::OK : gone;
}

// ---- not served ----

grpc::Status DataService::GenerateInitialChangeStreamPartitions(
    grpc::ServerContext*, const v2::GenerateInitialChangeStreamPartitionsRequest*,
    grpc::ServerWriter<v2::GenerateInitialChangeStreamPartitionsResponse>*) {
  LBT_ADMIT(gate_);
  return Unimplemented("GenerateInitialChangeStreamPartitions", "lbt has no change streams");
}

grpc::Status DataService::ReadChangeStream(grpc::ServerContext*, const v2::ReadChangeStreamRequest*,
                                           grpc::ServerWriter<v2::ReadChangeStreamResponse>*) {
  LBT_ADMIT(gate_);
  return Unimplemented("ReadChangeStream", "lbt has no change streams");
}

grpc::Status DataService::GetClientConfiguration(grpc::ServerContext*, const v2::GetClientConfigurationRequest*,
                                                 v2::ClientConfiguration*) {
  LBT_ADMIT(gate_);
  return Unimplemented("GetClientConfiguration", "clients use their defaults");
}

grpc::Status DataService::OpenTable(grpc::ServerContext*,
                                    grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>*) {
  LBT_ADMIT(gate_);
  return Unimplemented("OpenTable", "lbt has no sessions");
}

grpc::Status DataService::OpenAuthorizedView(grpc::ServerContext*,
                                             grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>*) {
  LBT_ADMIT(gate_);
  return Unimplemented("OpenAuthorizedView", "lbt has no sessions");
}

grpc::Status DataService::OpenMaterializedView(grpc::ServerContext*,
                                               grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>*) {
  LBT_ADMIT(gate_);
  return Unimplemented("OpenMaterializedView", "lbt has no sessions");
}

}  // namespace lbt::server
