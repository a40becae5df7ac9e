#include "server/data_service.h"

#include <fmt/format.h>
#include <google/protobuf/arena.h>
#include <google/protobuf/stubs/strutil.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "api/materialized_view.h"
#include "google/bigtable/v2/feature_flags.pb.h"
#include "proto/chunk_writer.h"
#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/request_limits.h"
#include "server/request_target.h"
#include "server/stream_reactor.h"

namespace lbt::server {

namespace {

Status ValidateRowKey(const std::string& key) {
  if (key.empty()) return Status::InvalidArgument("row_key: must not be empty");
  return Status::OK();
}

// Bigtable's limit on the mutations of one request, all its lists and
// entries together; `field` names them.
Status CheckMutationCount(int64_t count, std::string_view field) {
  if (count <= kMaxMutationsPerRequest) return Status::OK();
  return Status::InvalidArgument(fmt::format("{}: {} mutations in all; Bigtable allows at most {} in one request",
                                             field, count, kMaxMutationsPerRequest));
}

// The request's filter, checked against Bigtable's size limit and
// converted; nullopt when the request sets none.
Result<std::optional<Filter>> FilterIfSet(bool set, const v2::RowFilter& filter, std::string_view field) {
  if (!set) return std::optional<Filter>();
  if (const size_t bytes = filter.ByteSizeLong(); bytes > kMaxFilterBytes) {
    return Status::InvalidArgument(
        fmt::format("{}: the filter is {} bytes; Bigtable allows at most {} bytes", field, bytes, kMaxFilterBytes));
  }
  LBT_ASSIGN_OR_RETURN(Filter parsed, proto::FromProto(filter, field));
  return std::optional<Filter>(std::move(parsed));
}

// ---- reads ----

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
v2::FeatureFlags ClientFeatures(const grpc::CallbackServerContext& context) {
  v2::FeatureFlags flags;
  auto it = context.client_metadata().find("bigtable-features");
  if (it == context.client_metadata().end()) return flags;
  std::string bytes;
  if (google::protobuf::WebSafeBase64Unescape(std::string(it->second.data(), it->second.size()), &bytes)) {
    flags.ParseFromString(bytes);
  }
  return flags;
}

// A read of at most this many row keys and no range is a lookup: its
// first response is produced on the thread that took the call.
constexpr int kMaxInlineLookupKeys = 16;

bool IsLookup(const v2::ReadRowsRequest& request) {
  return request.rows().row_ranges_size() == 0 && request.rows().row_keys_size() > 0 &&
         request.rows().row_keys_size() <= kMaxInlineLookupKeys;
}

// One ReadRows call's responses: its rows as chunks, then the stats the
// request asked for and the last key scanned, if the client understands
// it. Each step reads on until a response is ready.
class ReadRowsSource final : public ResponseSource<v2::ReadRowsResponse> {
 public:
  // `cut`: a fault rule's after_rows (fault_rules.h): the stream fails
  // with its status once that many rows have gone out; a stream that ends
  // first gives the fault back to `faults`.
  ReadRowsSource(const InstanceRouter* router, const v2::ReadRowsRequest* request, grpc::CallbackServerContext* context,
                 std::optional<Fault> cut = std::nullopt, FaultInjector* faults = nullptr)
      : router_(router), request_(*request), context_(context), cut_(std::move(cut)), faults_(faults) {}

  Result<Produced> Next(v2::ReadRowsResponse* response, std::chrono::milliseconds*) override {
    if (rows_ == nullptr) LBT_RETURN_IF_ERROR(Open());
    while (ready_.empty() && !finished_) LBT_RETURN_IF_ERROR(ReadOn());
    if (ready_.empty()) return cut_reached_ ? Result<Produced>(FaultStatus(*cut_, "ReadRows")) : Produced::kEnd;
    // The client may be slow to take the response: let go of the snapshot.
    rows_->ReleaseSnapshot();
    *response = std::move(ready_.front().response);
    const bool last = ready_.front().last && !cut_reached_;
    ready_.pop_front();
    return last ? Produced::kLastResponse : Produced::kResponse;
  }

 private:
  struct Ready {
    v2::ReadRowsResponse response;
    bool last;
  };

  Status Open() {
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, request_));
    LBT_ASSIGN_OR_RETURN(ReadRequest read, ReadRequestOf(request_));
    // Long scans renew their snapshot, and stop once the client cancels or
    // the deadline passes, also while the filter skips every row.
    read.max_snapshot_age = kReadSnapshotAge;
    grpc::CallbackServerContext* context = context_;
    read.interrupted = [context] { return context->IsCancelled(); };
    LBT_ASSIGN_OR_RETURN(rows_, target.table->ReadRows(read));
    return Status::OK();
  }

  // Reads rows until a response is ready or the rows end.
  Status ReadOn() {
    for (Row row; ready_.empty();) {
      if (cut_ && rows_added_ == *cut_->after_rows) {
        // The rows so far go out, then the fault ends the stream.
        chunks_.Finish(nullptr, std::string());
        cut_reached_ = finished_ = true;
        SayCut("ReadRows", CallOf("ReadRows", request_).table, *cut_);
        return Status::OK();
      }
      // Asking costs a lock; every 256 rows is often enough.
      if ((++rows_read_ & 255) == 0 && context_->IsCancelled()) {
        return Status::Cancelled("the client cancelled the read");
      }
      if (!rows_->Next(&row)) break;
      chunks_.AddRow(row);
      ++rows_added_;
    }
    if (!ready_.empty()) return Status::OK();
    LBT_RETURN_IF_ERROR(rows_->status());
    std::optional<v2::RequestStats> stats;
    if (request_.request_stats_view() == v2::ReadRowsRequest::REQUEST_STATS_FULL) {
      stats = FullStats(rows_->stats(), std::chrono::steady_clock::now() - started_);
    }
    const bool report_scanned = ClientFeatures(*context_).last_scanned_row_responses();
    chunks_.Finish(stats ? &*stats : nullptr, report_scanned ? rows_->LastScannedKey() : std::string());
    finished_ = true;
    if (cut_ && faults_ != nullptr) faults_->Refund(*cut_);  // the rows ended before the cut
    return Status::OK();
  }

  const InstanceRouter* router_;
  const v2::ReadRowsRequest& request_;
  grpc::CallbackServerContext* context_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::unique_ptr<RowStream> rows_;
  std::deque<Ready> ready_;
  proto::ChunkWriter chunks_{[this](const v2::ReadRowsResponse& response, bool last) {
                               ready_.push_back({response, last});
                               return true;
                             },
                             kResponseBytes};
  int64_t rows_read_ = 0;
  bool finished_ = false;
  std::optional<Fault> cut_;
  FaultInjector* faults_;
  int64_t rows_added_ = 0;
  bool cut_reached_ = false;
};

// SampleRowKeys' optional row_range, or every row.
Result<RowRange> SampleRangeOf(const v2::SampleRowKeysRequest& request) {
  if (!request.has_row_range()) return RowRange::All();
  v2::RowSet rows;
  *rows.add_row_ranges() = request.row_range();
  LBT_ASSIGN_OR_RETURN(RowSet converted, proto::FromProto(rows, "row_range"));
  return converted.row_ranges.front();
}

// ---- writes ----

// The entries of a MutateRows request, converted. An entry that does not
// convert gets its own status in *statuses and an empty mutation list; the
// others get OK.
Result<std::vector<RowMutation>> EntriesFromProto(const v2::MutateRowsRequest& request, std::vector<Status>* statuses) {
  if (request.entries().empty()) return Status::InvalidArgument("entries: at least one entry is required");
  int64_t total = 0;
  for (const auto& entry : request.entries()) total += entry.mutations_size();
  LBT_RETURN_IF_ERROR(CheckMutationCount(total, "entries"));
  std::vector<RowMutation> rows;
  for (int i = 0; i < request.entries_size(); ++i) {
    const auto& entry = request.entries(i);
    Status s = ValidateRowKey(entry.row_key());
    Result<std::vector<Mutation>> mutations = proto::FromProto(entry.mutations(), "mutations");
    if (!mutations.ok()) {
      // Spelled out for an error only (see proto::FromProto).
      mutations = proto::FromProto(entry.mutations(), fmt::format("entries[{}].mutations", i));
    }
    if (s.ok() && !mutations.ok()) s = mutations.status();
    Idempotency idempotency;
    if (s.ok() && entry.has_idempotency()) {
      Result<Idempotency> given = proto::FromProto(entry.idempotency(), fmt::format("entries[{}].idempotency", i));
      if (given.ok()) idempotency = std::move(given).value();
      s = given.status();
    }
    statuses->push_back(s);
    rows.push_back(
        {entry.row_key(), s.ok() ? std::move(mutations).value() : std::vector<Mutation>{}, std::move(idempotency)});
  }
  return rows;
}

// Applies the entries that converted, and returns every entry's status.
// Applies a MutateRows request's valid entries, but those an entries fault
// rule (fault_rules.h) fails: they get its status and are not applied.
Result<std::vector<Status>> ApplyEntries(Table* table, const v2::MutateRowsRequest& request,
                                         const std::optional<Fault>& entries_fault) {
  std::vector<Status> statuses;
  LBT_ASSIGN_OR_RETURN(std::vector<RowMutation> rows, EntriesFromProto(request, &statuses));
  if (entries_fault) {
    size_t failed = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (statuses[i].ok() && rows[i].row_key.starts_with(entries_fault->row_prefix)) {
        statuses[i] = FaultStatus(*entries_fault, "MutateRows");
        ++failed;
      }
    }
    std::fputs(fmt::format("lbt serve: fault rule {}: MutateRows on table {} fails {} of {} entries with {}\n",
                           entries_fault->rule + 1, TableIdOf(request.table_name()), failed, rows.size(),
                           GrpcCodeName(entries_fault->code))
                   .c_str(),
               stderr);
  }
  std::vector<RowMutation> valid;
  std::vector<size_t> index_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!statuses[i].ok()) continue;
    valid.push_back(std::move(rows[i]));
    index_of.push_back(i);
  }
  LBT_ASSIGN_OR_RETURN(std::vector<Status> applied, table->MutateRows(valid));
  for (size_t j = 0; j < index_of.size(); ++j) statuses[index_of[j]] = applied[j];
  return statuses;
}

v2::MutateRowsResponse EntriesResponse(const std::vector<Status>& statuses) {
  v2::MutateRowsResponse response;
  for (size_t i = 0; i < statuses.size(); ++i) {
    auto* entry = response.add_entries();
    entry->set_index(static_cast<int64_t>(i));
    *entry->mutable_status() = proto::ToRpcStatus(statuses[i]);
  }
  return response;
}

// A MutateRow request, resolved and converted.
struct WriteToApply {
  RequestTarget target;
  std::vector<Mutation> mutations;
  Idempotency idempotency;  // no token: none
};

Result<WriteToApply> WriteOf(const InstanceRouter& router, const v2::MutateRowRequest& request) {
  LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(router, request));
  LBT_RETURN_IF_ERROR(CheckWritesAllowed(target));
  LBT_RETURN_IF_ERROR(ValidateRowKey(request.row_key()));
  LBT_RETURN_IF_ERROR(CheckMutationCount(request.mutations_size(), "mutations"));
  LBT_ASSIGN_OR_RETURN(std::vector<Mutation> mutations, proto::FromProto(request.mutations(), "mutations"));
  Idempotency idempotency;
  if (request.has_idempotency()) {
    LBT_ASSIGN_OR_RETURN(idempotency, proto::FromProto(request.idempotency(), "idempotency"));
  }
  return WriteToApply{std::move(target), std::move(mutations), std::move(idempotency)};
}

// A CheckAndMutateRow list: it may be empty (the other may not).
Result<std::vector<Mutation>> MutationsIfAny(const google::protobuf::RepeatedPtrField<v2::Mutation>& list,
                                             std::string_view field) {
  if (list.empty()) return std::vector<Mutation>();
  return proto::FromProto(list, field);
}

Result<std::vector<ReadModifyWriteRule>> RulesFromProto(const v2::ReadModifyWriteRowRequest& request) {
  if (request.rules().empty()) return Status::InvalidArgument("rules: at least one rule is required");
  if (request.rules_size() > kMaxReadModifyWriteRules) {
    return Status::InvalidArgument(fmt::format("rules: {} rules; Bigtable allows at most {} in one request",
                                               request.rules_size(), kMaxReadModifyWriteRules));
  }
  std::vector<ReadModifyWriteRule> rules;
  for (int i = 0; i < request.rules_size(); ++i) {
    LBT_ASSIGN_OR_RETURN(ReadModifyWriteRule rule, proto::FromProto(request.rules(i), fmt::format("rules[{}]", i)));
    rules.push_back(std::move(rule));
  }
  return rules;
}

// A MutateRows request parsed onto an arena of its own. It is hundreds of
// small messages (entries, mutations, their strings): the arena allocates
// them in a few blocks and frees them at once, where the heap took an
// allocation and a free for each.
struct ParsedMutateRows {
  explicit ParsedMutateRows(const google::protobuf::ArenaOptions& options) : arena(options) {}
  google::protobuf::Arena arena;
  v2::MutateRowsRequest* request = nullptr;
};

// The request `bytes` hold; InvalidArgument when they do not parse.
Result<std::unique_ptr<ParsedMutateRows>> ParseMutateRows(const grpc::ByteBuffer& bytes) {
  // Parsed, a request takes several times its wire size: its first block
  // fits most requests whole.
  google::protobuf::ArenaOptions options;
  options.start_block_size = std::clamp<size_t>(bytes.Length() * 8, 4096, 4u << 20);
  options.max_block_size = 4u << 20;
  auto parsed = std::make_unique<ParsedMutateRows>(options);
  parsed->request = google::protobuf::Arena::CreateMessage<v2::MutateRowsRequest>(&parsed->arena);
  grpc::ByteBuffer shared(bytes);  // shares the slices; the reader needs its own
  grpc::ProtoBufferReader reader(&shared);
  if (!parsed->request->ParseFromZeroCopyStream(&reader)) {
    return Status::InvalidArgument("request: its bytes do not parse as a MutateRowsRequest");
  }
  return parsed;
}

}  // namespace

grpc::ServerWriteReactor<v2::ReadRowsResponse>* DataService::ReadRows(grpc::CallbackServerContext* context,
                                                                      const v2::ReadRowsRequest* request) {
  std::optional<Fault> fault = TakeFault(runtime_, CallOf("ReadRows", *request));
  std::optional<Fault> cut = TakeCut(&fault);
  std::unique_ptr<ResponseSource<v2::ReadRowsResponse>> source = WithFault<v2::ReadRowsResponse>(
      runtime_, fault, "ReadRows",
      std::make_unique<ReadRowsSource>(router_, request, context, std::move(cut), runtime_->faults()));
  return StreamReactor<v2::ReadRowsResponse>::Start(
      context, runtime_, &read_streams_, IsLookup(*request) ? Runs::kInline : Runs::kOnPool, std::move(source));
}

grpc::ServerWriteReactor<v2::SampleRowKeysResponse>* DataService::SampleRowKeys(
    grpc::CallbackServerContext* context, const v2::SampleRowKeysRequest* request) {
  auto compute = [this, request]() -> Result<std::vector<v2::SampleRowKeysResponse>> {
    LBT_ASSIGN_OR_RETURN(RowRange range, SampleRangeOf(*request));
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request));
    LBT_ASSIGN_OR_RETURN(std::vector<KeySample> samples, target.table->SampleRowKeys(range));
    std::vector<v2::SampleRowKeysResponse> responses(samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
      responses[i].set_row_key(samples[i].row_key);
      responses[i].set_offset_bytes(samples[i].offset_bytes);
    }
    return responses;
  };
  return StreamReactor<v2::SampleRowKeysResponse>::Start(
      context, runtime_, nullptr, Runs::kOnPool,
      WithFaults(runtime_, CallOf("SampleRowKeys", *request), Computed<v2::SampleRowKeysResponse>(std::move(compute))));
}

grpc::ServerUnaryReactor* DataService::MutateRow(grpc::CallbackServerContext* context,
                                                 const v2::MutateRowRequest* request, v2::MutateRowResponse*) {
  // Inline: a durable write is answered from the thread that synced its
  // group (Table::MutateRowAsync), so this thread never waits for a sync.
  return HandleUnaryAsyncWithFaults(
      context, runtime_, CallOf("MutateRow", *request, request->row_key()), [this, request](UnaryDone done) {
        Result<WriteToApply> write = WriteOf(*router_, *request);
        if (!write.ok()) return done(write.status());
        // The target stays open until the write is applied, and is let go
        // before the answer: after it, the server may be stopped at once.
        auto held = std::make_shared<WriteToApply>(std::move(write).value());
        if (!held->idempotency.token.empty()) {
          // The token is checked and recorded in the write's own step, which
          // MutateRows takes; it waits for its sync, so on the pool.
          return runtime_->pool()->Run([held, done, row_key = request->row_key()]() mutable {
            std::vector<RowMutation> rows = {{row_key, std::move(held->mutations), std::move(held->idempotency)}};
            Result<std::vector<Status>> applied = held->target.table->MutateRows(rows);
            const Status status = applied.ok() ? applied->front() : applied.status();
            held.reset();  // let go before answering, as below
            done(status);
          });
        }
        Table* table = held->target.table.get();
        table->MutateRowAsync(request->row_key(), std::move(held->mutations),
                              [held, done](const Status& status) mutable {
                                held.reset();
                                done(status);
                              });
      });
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* DataService::MutateRows(grpc::CallbackServerContext* context,
                                                                    const grpc::ByteBuffer* request_bytes) {
  // With rules in force (a test suite), the call's fault, for which the
  // request is parsed here too: rules may name its table.
  std::optional<Fault> fault;
  if (!runtime_->faults()->empty()) {
    Result<std::unique_ptr<ParsedMutateRows>> parsed = ParseMutateRows(*request_bytes);
    if (parsed.ok()) {
      const v2::MutateRowsRequest& request = *(*parsed)->request;
      FaultCall call = CallOf("MutateRows", request);
      call.has_row_with_prefix = [&request](std::string_view prefix) {
        for (const auto& entry : request.entries()) {
          if (entry.row_key().starts_with(prefix)) return true;
        }
        return false;
      };
      fault = TakeFault(runtime_, call);
    }
  }
  std::optional<Fault> entries_fault;
  if (fault && fault->entries) entries_fault = std::exchange(fault, std::nullopt);
  // Parsed on the worker, not on gRPC's thread: the bytes stay valid until
  // the call ends.
  auto compute = [this, request_bytes, entries_fault]() -> Result<std::vector<grpc::ByteBuffer>> {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<ParsedMutateRows> parsed, ParseMutateRows(*request_bytes));
    const v2::MutateRowsRequest& request = *parsed->request;
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, request));
    LBT_RETURN_IF_ERROR(CheckWritesAllowed(target));
    LBT_ASSIGN_OR_RETURN(std::vector<Status> statuses, ApplyEntries(target.table.get(), request, entries_fault));
    std::vector<grpc::ByteBuffer> responses(1);
    bool own_buffer = false;
    if (!grpc::SerializationTraits<v2::MutateRowsResponse>::Serialize(EntriesResponse(statuses), &responses[0],
                                                                      &own_buffer)
             .ok()) {
      return Status::IOError("MutateRows: cannot serialize the response");
    }
    return responses;
  };
  std::unique_ptr<ResponseSource<grpc::ByteBuffer>> source = Computed<grpc::ByteBuffer>(std::move(compute));
  if (entries_fault && entries_fault->latency_ms > 0) {
    // The delay alone.
    fault = Fault{
        .rule = entries_fault->rule, .generation = entries_fault->generation, .latency_ms = entries_fault->latency_ms};
  }
  source = WithFault(runtime_, fault, "MutateRows", std::move(source));
  return StreamReactor<grpc::ByteBuffer>::Start(context, runtime_, nullptr, Runs::kOnPool, std::move(source));
}

grpc::ServerUnaryReactor* DataService::CheckAndMutateRow(grpc::CallbackServerContext* context,
                                                         const v2::CheckAndMutateRowRequest* request,
                                                         v2::CheckAndMutateRowResponse* response) {
  return HandleUnaryWithFaults(
      context, runtime_, Runs::kOnPool, CallOf("CheckAndMutateRow", *request, request->row_key()),
      [this, request, response]() -> Status {
        LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request, InstanceRead::kAlways));
        LBT_RETURN_IF_ERROR(CheckWritesAllowed(target));
        LBT_RETURN_IF_ERROR(CheckTransactionsAllowed(target));
        LBT_RETURN_IF_ERROR(ValidateRowKey(request->row_key()));
        if (request->true_mutations().empty() && request->false_mutations().empty()) {
          return Status::InvalidArgument("true_mutations, false_mutations: at least one mutation is required");
        }
        LBT_RETURN_IF_ERROR(CheckMutationCount(request->true_mutations_size() + request->false_mutations_size(),
                                               "true_mutations, false_mutations"));
        LBT_ASSIGN_OR_RETURN(std::vector<Mutation> on_true,
                             MutationsIfAny(request->true_mutations(), "true_mutations"));
        LBT_ASSIGN_OR_RETURN(std::vector<Mutation> on_false,
                             MutationsIfAny(request->false_mutations(), "false_mutations"));
        LBT_ASSIGN_OR_RETURN(
            std::optional<Filter> predicate,
            FilterIfSet(request->has_predicate_filter(), request->predicate_filter(), "predicate_filter"));
        LBT_ASSIGN_OR_RETURN(bool matched,
                             target.table->CheckAndMutateRow(request->row_key(), predicate, on_true, on_false));
        response->set_predicate_matched(matched);
        return Status::OK();
      });
}

grpc::ServerUnaryReactor* DataService::PingAndWarm(grpc::CallbackServerContext* context,
                                                   const v2::PingAndWarmRequest* request, v2::PingAndWarmResponse*) {
  const FaultCall call{"PingAndWarm", {}, {}, request->app_profile_id()};
  return HandleUnaryWithFaults(context, runtime_, Runs::kInline, call, [this, request]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->name(), "name"));
    // The app profile as every data request checks it.
    return OpenInstance(*router_, instance, request->app_profile_id()).status();
  });
}

grpc::ServerUnaryReactor* DataService::ReadModifyWriteRow(grpc::CallbackServerContext* context,
                                                          const v2::ReadModifyWriteRowRequest* request,
                                                          v2::ReadModifyWriteRowResponse* response) {
  return HandleUnaryWithFaults(
      context, runtime_, Runs::kOnPool, CallOf("ReadModifyWriteRow", *request, request->row_key()),
      [this, request, response]() -> Status {
        LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request, InstanceRead::kAlways));
        LBT_RETURN_IF_ERROR(CheckWritesAllowed(target));
        LBT_RETURN_IF_ERROR(CheckTransactionsAllowed(target));
        LBT_RETURN_IF_ERROR(ValidateRowKey(request->row_key()));
        LBT_ASSIGN_OR_RETURN(std::vector<ReadModifyWriteRule> rules, RulesFromProto(*request));
        LBT_ASSIGN_OR_RETURN(Row row, target.table->ReadModifyWriteRow(request->row_key(), rules));
        *response->mutable_row() = proto::ToProto(row);
        return Status::OK();
      });
}

grpc::ServerUnaryReactor* DataService::GetClientConfiguration(grpc::CallbackServerContext* context,
                                                              const v2::GetClientConfigurationRequest* request,
                                                              v2::ClientConfiguration* response) {
  const FaultCall call{"GetClientConfiguration", {}, {}, request->app_profile_id()};
  return HandleUnaryWithFaults(context, runtime_, Runs::kInline, call, [this, request, response]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->instance_name(), "instance_name"));
    // The instance and app profile as PingAndWarm and every data request
    // check them.
    LBT_RETURN_IF_ERROR(OpenInstance(*router_, instance, request->app_profile_id()).status());
    // lbt has no sessions: every request stays on the classic RPCs
    // (session_load 0), and the answer never changes, so clients need not
    // ask again.
    response->mutable_session_configuration()->set_session_load(0);
    response->set_stop_polling(true);
    return Status::OK();
  });
}

// ---- not served ----

namespace {

using RefusedSession = RefusedBidiStream<v2::SessionRequest, v2::SessionResponse>;

}  // namespace

grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* DataService::OpenTable(grpc::CallbackServerContext*) {
  return new RefusedSession(NotServed("OpenTable", "lbt has no sessions"));
}

grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* DataService::OpenAuthorizedView(
    grpc::CallbackServerContext*) {
  return new RefusedSession(NotServed("OpenAuthorizedView", "lbt has no sessions"));
}

grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* DataService::OpenMaterializedView(
    grpc::CallbackServerContext*) {
  return new RefusedSession(NotServed("OpenMaterializedView", "lbt has no sessions"));
}

}  // namespace lbt::server
