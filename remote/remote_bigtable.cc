#include "remote/remote_bigtable.h"

#include <fmt/format.h>
#include <google/protobuf/stubs/strutil.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <fstream>
#include <sstream>
#include <thread>

#include "api/version.h"
#include "api/deferred_bigtable.h"
#include "api/limits.h"
#include "filter/row_filter.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "google/bigtable/v2/feature_flags.pb.h"
#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "proto/row_assembler.h"
#include "remote/filter_plan.h"
#include "remote/remote_calls.h"
#include "remote/remote_query.h"

namespace lbt {

namespace {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;

// Reads and batch writes try again this many times after a transient error.
constexpr int kMaxRetries = 8;

bool Transient(const Status& s) {
  return s.code() == Status::Code::kUnavailable || s.code() == Status::Code::kDeadlineExceeded ||
         s.code() == Status::Code::kAborted;
}

std::string DataEndpoint(const RemoteOptions& options) {
  if (!options.emulator_host.empty()) return options.emulator_host;
  return options.data_endpoint.empty() ? kProductionDataEndpoint : options.data_endpoint;
}

std::string DescribeInstance(const RemoteOptions& options) {
  return fmt::format("instance {}/{} at {}", options.project, options.instance, DataEndpoint(options));
}

std::string InstancePromptName(const RemoteOptions& options) { return options.project + "/" + options.instance; }

// 20 ms, 40 ms, ... up to 2 s between attempts, but never past the deadline,
// so that -timeout bounds a command's time even while it retries.
void Backoff(int attempt, std::chrono::system_clock::time_point deadline) {
  const auto pause = std::chrono::milliseconds(std::min(2000, 20 << std::min(attempt, 7)));
  const auto now = std::chrono::system_clock::now();
  if (deadline <= now) return;
  std::this_thread::sleep_for(std::min<std::chrono::system_clock::duration>(pause, deadline - now));
}

// The value of a routing header: percent-encoded but for unreserved bytes.
std::string UrlEncode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string FeatureHeader() {
  v2::FeatureFlags flags;
  flags.set_reverse_scans(true);
  flags.set_last_scanned_row_responses(true);
  std::string encoded;
  google::protobuf::WebSafeBase64EscapeWithPadding(flags.SerializeAsString(), &encoded);
  return encoded;
}

Result<std::shared_ptr<grpc::ChannelCredentials>> Credentials(const RemoteOptions& options) {
  if (!options.emulator_host.empty()) return grpc::InsecureChannelCredentials();
  std::shared_ptr<grpc::CallCredentials> call;
  if (!options.creds.empty()) {
    std::ifstream in(options.creds, std::ios::binary);
    if (!in) return Status::NotFound(fmt::format("cannot read the credentials file '{}'", options.creds));
    std::stringstream key;
    key << in.rdbuf();
    call = grpc::ServiceAccountJWTAccessCredentials(key.str());
    if (call == nullptr) {
      return Status::InvalidArgument(
          fmt::format("'{}' is not a service account key (a JSON file with a private key)", options.creds));
    }
    return grpc::CompositeChannelCredentials(grpc::SslCredentials({}), call);
  }
  std::shared_ptr<grpc::ChannelCredentials> adc = grpc::GoogleDefaultCredentials();
  if (adc == nullptr) {
    return Status::FromCode(Status::Code::kUnauthenticated,
                            "no Google credentials found: run 'gcloud auth application-default login', set "
                            "GOOGLE_APPLICATION_CREDENTIALS, or pass -creds <service-account.json>");
  }
  return adc;
}

class RemoteBigtable;
using Clock = std::chrono::system_clock;

// One ReadRows call, resumed after the last row received when it breaks
// with a transient error.
class RemoteRowStream final : public RowStream {
 public:
  RemoteRowStream(RemoteBigtable* owner, std::string table, v2::ReadRowsRequest request,
                  std::unique_ptr<RowFilter> client_filter, int64_t rows_limit, std::string placement)
      : owner_(owner),
        table_(std::move(table)),
        request_(std::move(request)),
        client_filter_(std::move(client_filter)),
        rows_limit_(rows_limit),
        placement_(std::move(placement)) {}
  ~RemoteRowStream() override;

  bool Next(Row* row) override;
  Status status() const override { return status_; }
  ReadStats stats() const override { return stats_; }
  std::string FilterPlacement() const override { return placement_; }

 private:
  void Start();
  // Ends the call in flight, cancelling it if it has not finished.
  void Stop();
  // Reads the next response into pending_; false at the end of the call.
  bool ReadResponse();
  // The request for what is left after the rows received so far.
  bool NarrowToRemaining();

  RemoteBigtable* owner_;
  std::string table_;
  v2::ReadRowsRequest request_;
  std::unique_ptr<RowFilter> client_filter_;
  int64_t rows_limit_;
  std::string placement_;

  std::unique_ptr<Call> call_;
  std::unique_ptr<grpc::ClientReader<v2::ReadRowsResponse>> reader_;
  proto::RowAssembler assembler_;
  std::vector<Row> pending_;
  size_t next_pending_ = 0;
  std::string resume_after_;  // the last key received or scanned
  bool received_any_ = false;
  int64_t rows_from_service_ = 0;
  int retries_ = 0;
  // -timeout bounds the whole read, its retries included.
  Clock::time_point deadline_;
  bool started_ = false;
  bool done_ = false;
  Status status_;
  ReadStats stats_;
};

class RemoteBigtable final : public Bigtable, public RemoteCalls {
 public:
  RemoteBigtable(RemoteOptions options, std::shared_ptr<grpc::Channel> data, std::shared_ptr<grpc::Channel> admin)
      : options_(std::move(options)),
        instance_(fmt::format("projects/{}/instances/{}", options_.project, options_.instance)),
        data_(v2::Bigtable::NewStub(data)),
        admin_(admin::BigtableTableAdmin::NewStub(admin)),
        features_(FeatureHeader()),
        queries_(NewRemoteQueryService(this)) {}

  std::string Describe() const override { return DescribeInstance(options_); }
  std::string PromptName() const override { return InstancePromptName(options_); }

  Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request) override;
  Result<int64_t> CountRows(std::string_view table, const RowRange& range) override;
  Status MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) override;
  Result<std::vector<Status>> MutateRows(std::string_view table, const std::vector<RowMutation>& rows) override;
  Result<bool> CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                 const std::optional<Filter>& predicate, const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override;
  Result<Row> ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                 const std::vector<ReadModifyWriteRule>& rules) override;
  Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, const RowRange& range) override;

  Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                     const std::vector<std::string>& splits, bool deletion_protection) override;
  Status DeleteTable(std::string_view table) override;
  Result<std::vector<std::string>> ListTables() override;
  Result<TableSpec> GetTable(std::string_view table) override;
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override;
  Status CreateFamily(std::string_view table, const FamilySpec& family) override;
  Status DeleteFamily(std::string_view table, std::string_view family) override;
  Status SetGcRule(std::string_view table, std::string_view family, const GcRule& rule) override;
  Status SetValueType(std::string_view table, std::string_view family, ValueType type) override;
  Status SetDeletionProtection(std::string_view table, bool enabled) override;
  Status DropRowRange(std::string_view table, std::string_view prefix) override;
  Status WaitForReplication(std::string_view table) override;

  bool Exists() override { return true; }
  void CancelCalls() override {
    ++cancellations_;
    std::lock_guard<std::mutex> lock(calls_mu_);
    for (grpc::ClientContext* context : calls_) context->TryCancel();
  }
  void Register(grpc::ClientContext* context) override {
    std::lock_guard<std::mutex> lock(calls_mu_);
    calls_.insert(context);
  }
  void Unregister(grpc::ClientContext* context) override {
    std::lock_guard<std::mutex> lock(calls_mu_);
    calls_.erase(context);
  }
  int64_t NowMicros() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // When a call starting now must end: -timeout from now, or never.
  Clock::time_point Deadline() const {
    return options_.timeout_ms > 0 ? Clock::now() + std::chrono::milliseconds(options_.timeout_ms)
                                   : Clock::time_point::max();
  }
  bool PastDeadline(Clock::time_point deadline) const { return Clock::now() >= deadline; }
  // A context for one call: deadline, routing header, features.
  std::unique_ptr<grpc::ClientContext> NewContext(std::string_view routing_key, std::string_view resource,
                                                  Clock::time_point deadline) const;
  std::unique_ptr<grpc::ClientContext> NewContext(std::string_view routing_key,
                                                  std::string_view resource) const override {
    return NewContext(routing_key, resource, Deadline());
  }
  std::string TableName(std::string_view table) const { return proto::FullTableName(instance_, table); }
  const std::string& app_profile() const override { return options_.app_profile; }
  v2::Bigtable::Stub* data() override { return data_.get(); }
  const std::string& instance_name() const override { return instance_; }
  sql::QueryService* query_service() override { return queries_.get(); }

 private:
  // Sends `rows` once; fills the statuses of the entries the service
  // answered and leaves the others as `unanswered`.
  Status SendMutateRows(std::string_view table, const std::vector<RowMutation>& rows,
                        const std::vector<size_t>& indexes, Clock::time_point deadline,
                        std::vector<Status>* statuses);

  RemoteOptions options_;
  std::string instance_;
  std::unique_ptr<v2::Bigtable::Stub> data_;
  std::unique_ptr<admin::BigtableTableAdmin::Stub> admin_;
  std::string features_;
  std::mutex calls_mu_;
  std::set<grpc::ClientContext*> calls_;
  // Counts CancelCalls, so that a wait between calls can see one.
  std::atomic<uint64_t> cancellations_{0};
  std::unique_ptr<sql::QueryService> queries_;
};


std::unique_ptr<grpc::ClientContext> RemoteBigtable::NewContext(std::string_view routing_key,
                                                                std::string_view resource,
                                                                Clock::time_point deadline) const {
  auto context = std::make_unique<grpc::ClientContext>();
  if (deadline != Clock::time_point::max()) context->set_deadline(deadline);
  std::string params = fmt::format("{}={}", routing_key, UrlEncode(resource));
  if (!options_.app_profile.empty()) params += "&app_profile_id=" + UrlEncode(options_.app_profile);
  context->AddMetadata("x-goog-request-params", params);
  context->AddMetadata("bigtable-features", features_);
  return context;
}

// ---- reads ----

RemoteRowStream::~RemoteRowStream() { Stop(); }

void RemoteRowStream::Start() {
  if (deadline_ == Clock::time_point()) deadline_ = owner_->Deadline();
  call_ = std::make_unique<Call>(owner_, owner_->NewContext("table_name", request_.table_name(), deadline_));
  reader_ = owner_->data()->ReadRows(call_->get(), request_);
  started_ = true;
}

void RemoteRowStream::Stop() {
  if (reader_ == nullptr) return;
  call_->get()->TryCancel();
  v2::ReadRowsResponse ignored;
  while (reader_->Read(&ignored)) {
  }
  reader_->Finish();
  reader_.reset();
  call_.reset();
}

bool RemoteRowStream::NarrowToRemaining() {
  if (!received_any_) return true;
  const bool reversed = request_.reversed();
  const std::string& last = resume_after_;
  v2::RowSet remaining;
  const v2::RowSet& rows = request_.rows();
  for (const std::string& key : rows.row_keys()) {
    if (reversed ? key < last : key > last) remaining.add_row_keys(key);
  }
  auto keep_range = [&](v2::RowRange range) {
    if (!reversed) {
      // Start after `last` if the range starts at or before it.
      bool starts_after = (range.has_start_key_closed() && range.start_key_closed() > last) ||
                          (range.has_start_key_open() && range.start_key_open() >= last);
      if (!starts_after) range.set_start_key_open(last);
      bool ends_after = !(range.has_end_key_closed() || range.has_end_key_open()) ||
                        (range.has_end_key_closed() && range.end_key_closed() > last) ||
                        (range.has_end_key_open() && range.end_key_open() > last);
      if (ends_after) *remaining.add_row_ranges() = range;
      return;
    }
    bool ends_before = (range.has_end_key_closed() && range.end_key_closed() < last) ||
                       (range.has_end_key_open() && range.end_key_open() <= last);
    if (!ends_before) range.set_end_key_open(last);
    bool starts_before = !(range.has_start_key_closed() || range.has_start_key_open()) ||
                         (range.has_start_key_closed() && range.start_key_closed() < last) ||
                         (range.has_start_key_open() && range.start_key_open() < last);
    if (starts_before) *remaining.add_row_ranges() = range;
  };
  if (rows.row_keys_size() == 0 && rows.row_ranges_size() == 0) {
    keep_range(v2::RowRange());
  } else {
    for (const v2::RowRange& range : rows.row_ranges()) keep_range(range);
  }
  if (remaining.row_keys_size() == 0 && remaining.row_ranges_size() == 0) return false;  // nothing left
  *request_.mutable_rows() = std::move(remaining);
  if (request_.rows_limit() > 0) {
    request_.set_rows_limit(request_.rows_limit() - rows_from_service_);
    rows_from_service_ = 0;
    if (request_.rows_limit() <= 0) return false;
  }
  return true;
}

bool RemoteRowStream::ReadResponse() {
  while (true) {
    if (!started_) Start();
    v2::ReadRowsResponse response;
    if (reader_->Read(&response)) {
      pending_.clear();
      next_pending_ = 0;
      status_ = assembler_.Add(response, &pending_);
      if (!status_.ok()) return false;
      if (!response.last_scanned_row_key().empty()) {
        resume_after_ = response.last_scanned_row_key();
        received_any_ = true;
      }
      if (!pending_.empty()) {
        resume_after_ = pending_.back().key;
        received_any_ = true;
        rows_from_service_ += static_cast<int64_t>(pending_.size());
        retries_ = 0;
        return true;
      }
      continue;
    }
    Status s = proto::FromGrpcStatus(reader_->Finish());
    reader_.reset();
    if (s.ok()) {
      status_ = assembler_.Finish();
      return false;
    }
    if (!Transient(s) || ++retries_ > kMaxRetries || owner_->PastDeadline(deadline_)) {
      status_ = s;
      return false;
    }
    // A row cut short by the break is resent whole.
    assembler_ = proto::RowAssembler();
    Backoff(retries_, deadline_);
    if (!NarrowToRemaining()) return false;
    started_ = false;
  }
}

bool RemoteRowStream::Next(Row* row) {
  while (!done_) {
    if (next_pending_ >= pending_.size() && !ReadResponse()) break;
    Row& candidate = pending_[next_pending_++];
    ++stats_.rows_seen;
    stats_.cells_seen += static_cast<int64_t>(candidate.cells.size());
    if (client_filter_ != nullptr) {
      status_ = client_filter_->Apply(candidate.key, &candidate.cells);
      if (!status_.ok()) break;
      if (candidate.cells.empty()) {
        if (client_filter_->ScanDone()) break;
        continue;
      }
    }
    ++stats_.rows_returned;
    stats_.cells_returned += static_cast<int64_t>(candidate.cells.size());
    *row = std::move(candidate);
    if (rows_limit_ > 0 && stats_.rows_returned >= rows_limit_) done_ = true;
    if (client_filter_ != nullptr && client_filter_->ScanDone()) done_ = true;
    if (done_) Stop();
    return true;
  }
  done_ = true;
  Stop();
  return false;
}

Result<std::unique_ptr<RowStream>> RemoteBigtable::ReadRows(std::string_view table, const ReadRequest& request) {
  LBT_RETURN_IF_ERROR(request.rows.Validate());
  FilterPlan plan = PlanFilter(request);
  v2::ReadRowsRequest proto_request;
  proto_request.set_table_name(TableName(table));
  proto_request.set_app_profile_id(options_.app_profile);
  *proto_request.mutable_rows() = proto::ToProto(request.rows);
  proto_request.set_reversed(request.reversed);
  if (plan.service) {
    LBT_ASSIGN_OR_RETURN(*proto_request.mutable_filter(), proto::ToProto(*plan.service));
  }
  std::unique_ptr<RowFilter> client;
  if (plan.client) {
    LBT_ASSIGN_OR_RETURN(client, CompileFilter(*plan.client));
  } else if (request.rows_limit > 0) {
    proto_request.set_rows_limit(request.rows_limit);
  }
  return std::unique_ptr<RowStream>(std::make_unique<RemoteRowStream>(
      this, std::string(table), std::move(proto_request), std::move(client), request.rows_limit,
      std::move(plan.placement)));
}

Result<int64_t> RemoteBigtable::CountRows(std::string_view table, const RowRange& range) {
  ReadRequest request;
  request.rows.row_ranges = {range};
  // One stripped cell a row is enough to count it.
  request.filter = Filter::Chain({Filter::CellsPerRowLimit(1), Filter::StripValue()});
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(table, request));
  int64_t n = 0;
  for (Row row; stream->Next(&row);) ++n;
  LBT_RETURN_IF_ERROR(stream->status());
  return n;
}

Result<std::vector<KeySample>> RemoteBigtable::SampleRowKeys(std::string_view table, const RowRange& range) {
  v2::SampleRowKeysRequest request;
  request.set_table_name(TableName(table));
  const bool whole_table =
      range.start.kind == RowBound::Kind::kUnbounded && range.end.kind == RowBound::Kind::kUnbounded;
  if (!whole_table) *request.mutable_row_range() = proto::ToProto(RowSet{{}, {range}}).row_ranges(0);
  request.set_app_profile_id(options_.app_profile);
  Call context(this, NewContext("table_name", request.table_name()));
  auto reader = data_->SampleRowKeys(context.get(), request);
  std::vector<KeySample> samples;
  for (v2::SampleRowKeysResponse response; reader->Read(&response);) {
    samples.push_back({response.row_key(), response.offset_bytes()});
  }
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(reader->Finish()));
  return samples;
}

// ---- writes ----

// A mutation as sent. Bigtable assigns the time of a SetCell itself but
// wants an AddToCell's from the client: the client's clock, in milliseconds.
v2::Mutation MutationProto(const Mutation& m) {
  if (m.kind != Mutation::Kind::kAddToCell || m.timestamp != kServerTime) return proto::ToProto(m);
  Mutation timed = m;
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  timed.timestamp = now - now % kTimestampGranularityMicros;
  return proto::ToProto(timed);
}

template <typename Request>
void AddMutations(const std::vector<Mutation>& mutations, Request* request,
                  google::protobuf::RepeatedPtrField<v2::Mutation>* (Request::*field)()) {
  for (const Mutation& m : mutations) *(request->*field)()->Add() = MutationProto(m);
}

Status RemoteBigtable::MutateRow(std::string_view table, std::string_view row_key,
                                 const std::vector<Mutation>& mutations) {
  v2::MutateRowRequest request;
  request.set_table_name(TableName(table));
  request.set_app_profile_id(options_.app_profile);
  request.set_row_key(std::string(row_key));
  AddMutations(mutations, &request, &v2::MutateRowRequest::mutable_mutations);
  v2::MutateRowResponse response;
  Call context(this, NewContext("table_name", request.table_name()));
  return proto::FromGrpcStatus(data_->MutateRow(context.get(), request, &response));
}

// A row's mutations can be sent again without changing the result: no
// AddToCell, and no cell whose timestamp the server picks.
bool Idempotent(const RowMutation& row) {
  for (const Mutation& m : row.mutations) {
    if (m.kind == Mutation::Kind::kAddToCell) return false;
    if (m.kind == Mutation::Kind::kSetCell && m.timestamp == kServerTime) return false;
  }
  return true;
}

Status RemoteBigtable::SendMutateRows(std::string_view table, const std::vector<RowMutation>& rows,
                                      const std::vector<size_t>& indexes, Clock::time_point deadline,
                                      std::vector<Status>* statuses) {
  v2::MutateRowsRequest request;
  request.set_table_name(TableName(table));
  request.set_app_profile_id(options_.app_profile);
  for (size_t i : indexes) {
    v2::MutateRowsRequest::Entry* entry = request.add_entries();
    entry->set_row_key(rows[i].row_key);
    for (const Mutation& m : rows[i].mutations) *entry->add_mutations() = MutationProto(m);
  }
  Call context(this, NewContext("table_name", request.table_name(), deadline));
  auto reader = data_->MutateRows(context.get(), request);
  for (v2::MutateRowsResponse response; reader->Read(&response);) {
    for (const v2::MutateRowsResponse::Entry& e : response.entries()) {
      if (e.index() < 0 || static_cast<size_t>(e.index()) >= indexes.size()) continue;
      (*statuses)[indexes[e.index()]] =
          proto::FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(e.status().code()), e.status().message()));
    }
  }
  return proto::FromGrpcStatus(reader->Finish());
}

Result<std::vector<Status>> RemoteBigtable::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  const Status unanswered = Status::Unavailable("the service did not answer for this row");
  std::vector<Status> statuses(rows.size(), unanswered);
  std::vector<size_t> pending(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) pending[i] = i;
  const Clock::time_point deadline = Deadline();
  for (int attempt = 0;; ++attempt) {
    Status call = SendMutateRows(table, rows, pending, deadline, &statuses);
    // The call's own error before any entry was answered: nothing applied.
    if (!call.ok() && !Transient(call)) {
      bool any_answered = false;
      for (size_t i : pending) any_answered |= statuses[i].code() != unanswered.code() ||
                                               statuses[i].message() != unanswered.message();
      if (!any_answered) return call;
    }
    std::vector<size_t> retry;
    for (size_t i : pending) {
      if (!call.ok() && statuses[i].message() == unanswered.message()) statuses[i] = call;
      if (Transient(statuses[i]) && Idempotent(rows[i])) retry.push_back(i);
    }
    if (retry.empty() || attempt >= kMaxRetries || PastDeadline(deadline)) return statuses;
    for (size_t i : retry) statuses[i] = unanswered;
    pending = std::move(retry);
    Backoff(attempt + 1, deadline);
  }
}

Result<bool> RemoteBigtable::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                               const std::optional<Filter>& predicate,
                                               const std::vector<Mutation>& true_mutations,
                                               const std::vector<Mutation>& false_mutations) {
  v2::CheckAndMutateRowRequest request;
  request.set_table_name(TableName(table));
  request.set_app_profile_id(options_.app_profile);
  request.set_row_key(std::string(row_key));
  if (predicate) {
    if (!ServiceCanRun(*predicate)) {
      return Status::InvalidArgument(
          "this predicate uses HBase-only filters, which a remote Bigtable cannot evaluate atomically");
    }
    LBT_ASSIGN_OR_RETURN(*request.mutable_predicate_filter(), proto::ToProto(*predicate));
  }
  AddMutations(true_mutations, &request, &v2::CheckAndMutateRowRequest::mutable_true_mutations);
  AddMutations(false_mutations, &request, &v2::CheckAndMutateRowRequest::mutable_false_mutations);
  v2::CheckAndMutateRowResponse response;
  Call context(this, NewContext("table_name", request.table_name()));
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(data_->CheckAndMutateRow(context.get(), request, &response)));
  return response.predicate_matched();
}

Result<Row> RemoteBigtable::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                               const std::vector<ReadModifyWriteRule>& rules) {
  v2::ReadModifyWriteRowRequest request;
  request.set_table_name(TableName(table));
  request.set_app_profile_id(options_.app_profile);
  request.set_row_key(std::string(row_key));
  for (const ReadModifyWriteRule& rule : rules) *request.add_rules() = proto::ToProto(rule);
  v2::ReadModifyWriteRowResponse response;
  Call context(this, NewContext("table_name", request.table_name()));
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(data_->ReadModifyWriteRow(context.get(), request, &response)));
  return proto::FromProto(response.row());
}

// ---- admin ----

Status RemoteBigtable::CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                                  const std::vector<std::string>& splits, bool deletion_protection) {
  LBT_RETURN_IF_ERROR(ValidateTableName(table));
  admin::CreateTableRequest request;
  request.set_parent(instance_);
  request.set_table_id(std::string(table));
  for (const FamilySpec& f : families) {
    (*request.mutable_table()->mutable_column_families())[f.name] = proto::ToProto(f);
  }
  for (const std::string& key : splits) request.add_initial_splits()->set_key(key);
  request.mutable_table()->set_deletion_protection(deletion_protection);
  admin::Table response;
  Call context(this, NewContext("parent", instance_));
  return proto::FromGrpcStatus(admin_->CreateTable(context.get(), request, &response));
}

Status RemoteBigtable::DeleteTable(std::string_view table) {
  admin::DeleteTableRequest request;
  request.set_name(TableName(table));
  google::protobuf::Empty response;
  Call context(this, NewContext("name", request.name()));
  return proto::FromGrpcStatus(admin_->DeleteTable(context.get(), request, &response));
}

Result<std::vector<std::string>> RemoteBigtable::ListTables() {
  std::vector<std::string> names;
  admin::ListTablesRequest request;
  request.set_parent(instance_);
  request.set_view(admin::Table::NAME_ONLY);
  do {
    admin::ListTablesResponse response;
    Call context(this, NewContext("parent", instance_));
    LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(admin_->ListTables(context.get(), request, &response)));
    for (const admin::Table& t : response.tables()) {
      LBT_ASSIGN_OR_RETURN(proto::TableName name, proto::ParseTableName(t.name(), "tables.name"));
      names.push_back(std::move(name.table));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  std::sort(names.begin(), names.end());
  return names;
}

Result<TableSpec> RemoteBigtable::GetTable(std::string_view table) {
  admin::GetTableRequest request;
  request.set_name(TableName(table));
  request.set_view(admin::Table::SCHEMA_VIEW);
  admin::Table response;
  Call context(this, NewContext("name", request.name()));
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(admin_->GetTable(context.get(), request, &response)));
  return proto::FromProto(response, "table");
}

// One change as a Modification. An update of the GC rule alone goes
// without a mask, as cbt sends it; a value type change names its path.
admin::ModifyColumnFamiliesRequest::Modification ModificationOf(const FamilyChange& change) {
  admin::ModifyColumnFamiliesRequest::Modification m;
  m.set_id(change.family.name);
  switch (change.kind) {
    case FamilyChange::Kind::kCreate:
      *m.mutable_create() = proto::ToProto(change.family);
      break;
    case FamilyChange::Kind::kUpdate:
      if (change.gc_rule) *m.mutable_update()->mutable_gc_rule() = proto::ToProto(*change.gc_rule);
      if (change.value_type) {
        *m.mutable_update()->mutable_value_type() = proto::ToProto(*change.value_type);
        if (change.gc_rule) m.mutable_update_mask()->add_paths("gc_rule");
        m.mutable_update_mask()->add_paths("value_type");
      }
      break;
    case FamilyChange::Kind::kDrop:
      m.set_drop(true);
      break;
  }
  return m;
}

Status RemoteBigtable::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  admin::ModifyColumnFamiliesRequest request;
  request.set_name(TableName(table));
  for (const FamilyChange& change : changes) *request.add_modifications() = ModificationOf(change);
  admin::Table response;
  Call context(this, NewContext("name", request.name()));
  return proto::FromGrpcStatus(admin_->ModifyColumnFamilies(context.get(), request, &response));
}

Status RemoteBigtable::CreateFamily(std::string_view table, const FamilySpec& family) {
  return ModifyFamilies(table, {FamilyChange::Create(family)});
}

Status RemoteBigtable::DeleteFamily(std::string_view table, std::string_view family) {
  return ModifyFamilies(table, {FamilyChange::Drop(std::string(family))});
}

Status RemoteBigtable::SetGcRule(std::string_view table, std::string_view family, const GcRule& rule) {
  return ModifyFamilies(table, {FamilyChange::SetGcRule(std::string(family), rule)});
}

Status RemoteBigtable::SetValueType(std::string_view table, std::string_view family, ValueType type) {
  return ModifyFamilies(table, {FamilyChange::SetValueType(std::string(family), type)});
}

Status RemoteBigtable::SetDeletionProtection(std::string_view table, bool enabled) {
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(TableName(table));
  request.mutable_table()->set_deletion_protection(enabled);
  request.mutable_update_mask()->add_paths("deletion_protection");
  google::longrunning::Operation response;
  Call context(this, NewContext("table.name", request.table().name()));
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(admin_->UpdateTable(context.get(), request, &response)));
  if (response.has_error()) {
    return proto::FromGrpcStatus(
        grpc::Status(static_cast<grpc::StatusCode>(response.error().code()), response.error().message()));
  }
  return Status::OK();
}

Status RemoteBigtable::DropRowRange(std::string_view table, std::string_view prefix) {
  admin::DropRowRangeRequest request;
  request.set_name(TableName(table));
  if (prefix.empty()) {
    request.set_delete_all_data_from_table(true);
  } else {
    request.set_row_key_prefix(std::string(prefix));
  }
  google::protobuf::Empty response;
  Call context(this, NewContext("name", request.name()));
  return proto::FromGrpcStatus(admin_->DropRowRange(context.get(), request, &response));
}

// Asks for a consistency token, then checks it until the service says every
// write before it has replicated, as cbt's waitforreplication does.
Status RemoteBigtable::WaitForReplication(std::string_view table) {
  const uint64_t cancellations = cancellations_;
  const Clock::time_point deadline = Deadline();
  admin::GenerateConsistencyTokenRequest request;
  request.set_name(TableName(table));
  admin::GenerateConsistencyTokenResponse token;
  {
    Call context(this, NewContext("name", request.name(), deadline));
    LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(admin_->GenerateConsistencyToken(context.get(), request, &token)));
  }
  admin::CheckConsistencyRequest check;
  check.set_name(request.name());
  check.set_consistency_token(token.consistency_token());
  while (true) {
    admin::CheckConsistencyResponse answer;
    Call context(this, NewContext("name", check.name(), deadline));
    LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(admin_->CheckConsistency(context.get(), check, &answer)));
    if (answer.consistent()) return Status::OK();
    // Replication takes seconds; check once a second, and stop at once on
    // Ctrl-C or at the deadline.
    for (int slice = 0; slice < 20; ++slice) {
      if (cancellations_ != cancellations) return Status::Cancelled("waitforreplication cancelled");
      if (PastDeadline(deadline)) return Status::FromCode(Status::Code::kDeadlineExceeded, "replication did not finish within -timeout");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

}  // namespace

Result<std::unique_ptr<Bigtable>> ConnectRemote(const RemoteOptions& options) {
  if (options.project.empty()) return Status::InvalidArgument("missing -project (or project= in ~/.cbtrc)");
  if (options.instance.empty()) return Status::InvalidArgument("missing -instance (or instance= in ~/.cbtrc)");
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ChannelCredentials> credentials, Credentials(options));
  const bool emulator = !options.emulator_host.empty();
  const std::string data = DataEndpoint(options);
  const std::string admin = emulator ? options.emulator_host
                                     : (options.admin_endpoint.empty() ? kProductionAdminEndpoint
                                                                       : options.admin_endpoint);
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);  // Bigtable's largest row
  args.SetMaxSendMessageSize(256 << 20);
  // Reconnect quickly after a lost connection. GRPC_ARG_MIN_RECONNECT_BACKOFF_MS
  // is left alone: gRPC also uses it as the connect timeout, and a small one
  // made every server more than ~50 ms away unreachable.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetUserAgentPrefix("lbt/" + std::string(kVersion));
  std::shared_ptr<grpc::Channel> data_channel = grpc::CreateCustomChannel(data, credentials, args);
  std::shared_ptr<grpc::Channel> admin_channel =
      admin == data ? data_channel : grpc::CreateCustomChannel(admin, credentials, args);
  return std::unique_ptr<Bigtable>(
      std::make_unique<RemoteBigtable>(options, std::move(data_channel), std::move(admin_channel)));
}

std::unique_ptr<Bigtable> ConnectRemoteOnFirstUse(const RemoteOptions& options) {
  return std::make_unique<DeferredBigtable>(DescribeInstance(options), InstancePromptName(options),
                                            [options] { return ConnectRemote(options); });
}

}  // namespace lbt
