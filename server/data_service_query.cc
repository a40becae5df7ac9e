// DataService's GoogleSQL RPCs: PrepareQuery and ExecuteQuery, run by sql/
// over the Bigtable served.

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>

#include "api/forwarding_bigtable.h"
#include "api/forwarding_table.h"
#include "proto/convert.h"
#include "proto/query_convert.h"
#include "server/data_service.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/query_requests.h"
#include "server/request_limits.h"
#include "server/request_target.h"
#include "server/stream_reactor.h"

namespace lbt::server {

namespace {

// How long a prepared query's plan holds when no schema changes.
constexpr std::chrono::hours kPreparedQueryLife{1};

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
  // A prepared query's: what it was planned against, checked again.
  std::optional<PreparedQueryToken> prepared;
};

// The request's view_parameters, for the VIEW_PARAMETERS('name') calls of
// the logical views its query reads: STRING values (a value without a
// type is taken as one), beside the query's parameters under keys no
// @parameter can have.
Status AddViewParameters(const v2::ExecuteQueryRequest& request, sql::Params* params) {
  // A view parameter comes from view_parameters alone.
  for (const auto& [name, value] : *params) {
    if (sql::IsViewParameterKey(name)) {
      return Status::InvalidArgument(fmt::format("params: '{}' is not a parameter name", name));
    }
  }
  for (const auto& [name, value] : request.view_parameters()) {
    const std::string field = fmt::format("view_parameters['{}']", name);
    if (name.empty()) return Status::InvalidArgument("view_parameters: a view parameter needs a name");
    if (value.has_type() && !value.type().has_string_type()) {
      return Status::InvalidArgument(field + ": VIEW_PARAMETERS values are STRING");
    }
    switch (value.kind_case()) {
      case v2::Value::kStringValue:
        (*params)[sql::ViewParameterKey(name)] = sql::Value::String(value.string_value());
        break;
      case v2::Value::KIND_NOT_SET:
        (*params)[sql::ViewParameterKey(name)] = sql::Value::Null(sql::Type::String());
        break;
      default: return Status::InvalidArgument(field + ": VIEW_PARAMETERS values are STRING (string_value)");
    }
  }
  return Status::OK();
}

Result<QueryToRun> QueryOf(const v2::ExecuteQueryRequest& request) {
  QueryToRun run;
  if (QueryText(request).empty() == request.prepared_query().empty()) {
    return Status::InvalidArgument("prepared_query: exactly one of query and prepared_query must be set");
  }
  if (QueryText(request).empty()) {
    if (HasDataFormat(request)) {
      return Status::InvalidArgument("proto_format: must be empty with prepared_query");
    }
    LBT_ASSIGN_OR_RETURN(PreparedQueryToken prepared, DecodePreparedQuery(request.prepared_query()));
    const int64_t now =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (prepared.valid_until_micros <= now) {
      return Status::PreparedQueryExpired("prepared_query: its valid_until has passed; prepare the query again");
    }
    run.text = prepared.request.query();
    LBT_ASSIGN_OR_RETURN(run.types, ParamTypesFromProto(prepared.request.param_types()));
    run.prepared = std::move(prepared);
    LBT_ASSIGN_OR_RETURN(run.params, ParamsFromProto(request.params(), &run.types));
  } else {
    run.text = QueryText(request);
    LBT_ASSIGN_OR_RETURN(run.params, ParamsFromProto(request.params(), nullptr));
    for (const auto& [name, value] : run.params) run.types[name] = value.type();
  }
  LBT_RETURN_IF_ERROR(AddViewParameters(request, &run.params));
  return run;
}

// OK if a prepared query binds now to what it was prepared against; else
// expired, as production answers a query whose table's schema changed.
Status CheckStillPrepared(const PreparedQueryToken& token, const Result<std::unique_ptr<sql::PreparedQuery>>& query,
                          const SchemaWitness& witness) {
  if (!query.ok()) {
    return Status::PreparedQueryExpired(
        fmt::format("prepared_query: the query no longer prepares ({}); prepare it again", query.status().message()));
  }
  if (witness.Fingerprint(proto::ToProto((*query)->columns())) != token.fingerprint) {
    return Status::PreparedQueryExpired(
        "prepared_query: the schema of a table it reads changed since it was prepared; prepare the query again");
  }
  return Status::OK();
}

// The result rows a request has already received: those before its resume
// token, or -1 for the final token.
Result<int64_t> RowsToSkip(const v2::ExecuteQueryRequest& request) {
  if (request.resume_token().empty()) return int64_t{0};
  return RowsBeforeResumeToken(request.resume_token());
}

// The Bigtable a query reads through during one call: its reads stop once
// the call is cancelled or its deadline passes, so that a query the client
// gave up on stops working too.
class CallBigtable final : public SchemaWitness {
 public:
  CallBigtable(Bigtable* target, grpc::ServerContextBase* context) : SchemaWitness(target), context_(context) {}

  // A query over a table or a materialized view reads it here.
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ForwardingBigtable::OpenTable(ref));
    return std::unique_ptr<Table>(std::make_unique<CallTable>(std::move(table), context_));
  }

 private:
  class CallTable final : public ForwardingTable {
   public:
    CallTable(std::unique_ptr<Table> table, grpc::ServerContextBase* context)
        : ForwardingTable(std::move(table)), context_(context) {}
    Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
      LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, target()->ReadRows(request));
      return std::unique_ptr<RowStream>(std::make_unique<Stream>(std::move(rows), context_));
    }

   private:
    grpc::ServerContextBase* context_;
  };

  class Stream final : public RowStream {
   public:
    Stream(std::unique_ptr<RowStream> rows, grpc::ServerContextBase* context)
        : rows_(std::move(rows)), context_(context) {}
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
    grpc::ServerContextBase* context_;
    int64_t rows_read_ = 0;
    Status cancelled_;
  };

  grpc::ServerContextBase* context_;
};

// One ExecuteQuery call's responses: the metadata, for the deprecated
// form, then the query's rows after the first `skip`, batched, each batch
// confirmed by a resume token, and the final token last.
class QuerySource final : public ResponseSource<v2::ExecuteQueryResponse> {
 public:
  // `cut`: a fault rule's after_rows (fault_rules.h): once that many rows
  // went out, confirmed by their resume token, the stream fails with its
  // status, and the client resumes from the token; a stream that ends
  // first gives the fault back to `faults`.
  QuerySource(const InstanceRouter* router, const v2::ExecuteQueryRequest* request,
              grpc::CallbackServerContext* context, std::optional<Fault> cut, FaultInjector* faults)
      : router_(router), request_(*request), context_(context), cut_(std::move(cut)), faults_(faults) {}

  Result<Produced> Next(v2::ExecuteQueryResponse* response, std::chrono::milliseconds*) override {
    if (done_) return Produced::kEnd;
    if (rows_ == nullptr) {
      LBT_RETURN_IF_ERROR(Open());
      if (skip_ < 0) {  // everything was delivered: say so again
        *response->mutable_results() = batcher_.Take(std::string(kFinalResumeToken));
        return Produced::kLastResponse;
      }
      // Only the deprecated form gets the metadata in the stream; a
      // prepared query's came with PrepareQuery, and clients refuse it here.
      if (!QueryText(request_).empty() && skip_ == 0) {
        *response->mutable_metadata() = proto::ToProto(query_->columns());
        return Produced::kResponse;
      }
    }
    if (cut_ && rows_sent_ == *cut_->after_rows) {
      SayCut("ExecuteQuery", "", *cut_);
      return FaultStatus(*cut_, "ExecuteQuery");
    }
    for (sql::Values row; rows_->Next(&row);) {
      if (++row_number_ <= skip_) continue;
      const bool ready = batcher_.Add(row);
      if (const size_t bytes = batcher_.last_row_bytes(); bytes > kMaxResultRowBytes) {
        return Status::FailedPrecondition(fmt::format("result row {} is {} MiB; a result row may hold at most {} MiB",
                                                      row_number_, bytes >> 20, kMaxResultRowBytes >> 20));
      }
      // A cut stream's last rows go out with their token, then it fails.
      const bool cut_here = cut_ && ++rows_sent_ == *cut_->after_rows;
      if (ready || cut_here) {
        *response->mutable_results() = batcher_.Take(ResumeToken(row_number_));
        return Produced::kResponse;
      }
    }
    LBT_RETURN_IF_ERROR(rows_->status());
    // A stream that could not send its last rows must not end OK.
    *response->mutable_results() = batcher_.Take(std::string(kFinalResumeToken));
    done_ = true;
    if (cut_) faults_->Refund(*cut_);  // the rows ended before the cut
    return Produced::kLastResponse;
  }

 private:
  Status Open() {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request_.instance_name(), "instance_name"));
    LBT_ASSIGN_OR_RETURN(QueryToRun run, QueryOf(request_));
    LBT_ASSIGN_OR_RETURN(skip_, RowsToSkip(request_));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables,
                         OpenInstance(*router_, instance, request_.app_profile_id(), InstanceUse::kQuery));
    tables_.emplace(std::move(tables));
    call_tables_ = std::make_unique<CallBigtable>(tables_->get(), context_);
    Result<std::unique_ptr<sql::PreparedQuery>> query = sql::Prepare(call_tables_.get(), run.text, run.types);
    if (run.prepared) LBT_RETURN_IF_ERROR(CheckStillPrepared(*run.prepared, query, *call_tables_));
    LBT_ASSIGN_OR_RETURN(query_, std::move(query));
    if (skip_ < 0) {
      done_ = true;
      return Status::OK();
    }
    LBT_ASSIGN_OR_RETURN(rows_, query_->Execute(run.params));
    return Status::OK();
  }

  const InstanceRouter* router_;
  const v2::ExecuteQueryRequest& request_;
  grpc::CallbackServerContext* context_;
  std::optional<InstanceTables> tables_;
  std::unique_ptr<CallBigtable> call_tables_;
  std::unique_ptr<sql::PreparedQuery> query_;
  std::unique_ptr<sql::ResultStream> rows_;
  proto::ResultBatcher batcher_{kResponseBytes};
  int64_t skip_ = 0;
  int64_t row_number_ = 0;
  std::optional<Fault> cut_;
  FaultInjector* faults_;
  int64_t rows_sent_ = 0;  // counted only for a cut
  bool done_ = false;
};

// A query's call names no table: its tables are in its SQL.
template <typename Request>
FaultCall QueryCallOf(std::string_view rpc, const Request& request) {
  return FaultCall{rpc, {}, {}, request.app_profile_id()};
}

}  // namespace

grpc::ServerUnaryReactor* DataService::PrepareQuery(grpc::CallbackServerContext* context,
                                                    const v2::PrepareQueryRequest* request,
                                                    v2::PrepareQueryResponse* response) {
  const FaultCall call = QueryCallOf("PrepareQuery", *request);
  return HandleUnaryWithFaults(context, runtime_, Runs::kOnPool, call, [this, request, response]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->instance_name(), "instance_name"));
    if (request->query().empty()) return Status::InvalidArgument("query: must not be empty");
    LBT_ASSIGN_OR_RETURN(sql::ParamTypes types, ParamTypesFromProto(request->param_types()));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables,
                         OpenInstance(*router_, instance, request->app_profile_id(), InstanceUse::kQuery));
    SchemaWitness witness(tables.get());
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<sql::PreparedQuery> query, sql::Prepare(&witness, request->query(), types));
    *response->mutable_metadata() = proto::ToProto(query->columns());
    // An hour, after which clients prepare the query again, as production's
    // plans expire.
    const int64_t valid_until = std::chrono::duration_cast<std::chrono::seconds>(
                                    (std::chrono::system_clock::now() + kPreparedQueryLife).time_since_epoch())
                                    .count();
    PreparedQueryToken token{*request, witness.Fingerprint(response->metadata()), valid_until * 1000000};
    response->set_prepared_query(EncodePreparedQuery(token));
    response->mutable_valid_until()->set_seconds(valid_until);
    return Status::OK();
  });
}

grpc::ServerWriteReactor<v2::ExecuteQueryResponse>* DataService::ExecuteQuery(grpc::CallbackServerContext* context,
                                                                              const v2::ExecuteQueryRequest* request) {
  std::optional<Fault> fault = TakeFault(runtime_, QueryCallOf("ExecuteQuery", *request));
  std::optional<Fault> cut = TakeCut(&fault);
  std::unique_ptr<ResponseSource<v2::ExecuteQueryResponse>> source = WithFault<v2::ExecuteQueryResponse>(
      runtime_, fault, "ExecuteQuery",
      std::make_unique<QuerySource>(router_, request, context, std::move(cut), runtime_->faults()));
  return StreamReactor<v2::ExecuteQueryResponse>::Start(context, runtime_, &read_streams_, Runs::kOnPool,
                                                        std::move(source));
}

}  // namespace lbt::server
