#include "remote/remote_query.h"

#include <deque>

#include "proto/grpc_status.h"
#include "proto/query_convert.h"
#include "remote/retry_policy.h"

namespace lbt {

namespace {

namespace v2 = ::google::bigtable::v2;

class RemoteResultStream final : public sql::ResultStream {
 public:
  RemoteResultStream(RemoteCalls* calls, v2::ExecuteQueryRequest request, std::vector<sql::ResultColumn> columns)
      : calls_(calls), request_(std::move(request)), assembler_(std::move(columns)), retry_(calls->Deadline()) {}
  ~RemoteResultStream() override { Stop(); }

  bool Next(sql::Values* row) override {
    while (ready_.empty()) {
      if (done_) return false;
      Pull();
    }
    *row = std::move(ready_.front());
    ready_.pop_front();
    ++stats_.rows_returned;
    return true;
  }
  Status status() const override { return status_; }
  sql::QueryStats stats() const override { return stats_; }

 private:
  void Start() {
    request_.set_resume_token(assembler_.resume_token());
    call_ = std::make_unique<Call>(calls_, calls_->NewContext("name", request_.instance_name(), retry_.deadline()));
    reader_ = calls_->data()->ExecuteQuery(call_->get(), request_);
  }
  void Stop() {
    if (reader_ == nullptr) return;
    call_->get()->TryCancel();
    reader_->Finish();
    reader_.reset();
    call_.reset();
  }
  // Reads one response, or ends the call and decides between resuming,
  // finishing and failing.
  void Pull() {
    if (reader_ == nullptr) Start();
    v2::ExecuteQueryResponse response;
    if (reader_->Read(&response)) {
      if (!response.has_results()) return;  // metadata: known from PrepareQuery
      const size_t confirmed = ready_.size();
      Status s = assembler_.Add(response.results(), &ready_);
      if (!s.ok()) return Fail(s);
      if (ready_.size() > confirmed) retry_.Progressed();
      return;
    }
    Status s = proto::FromGrpcStatus(reader_->Finish());
    reader_.reset();
    call_.reset();
    if (s.ok()) s = assembler_.Finish();
    if (s.ok()) {
      done_ = true;
      return;
    }
    if (!retry_.RetryAfter(s)) return Fail(s);
    assembler_.DiscardUnconfirmed();
  }
  void Fail(Status s) {
    Stop();
    status_ = std::move(s);
    ready_.clear();
    done_ = true;
  }

  RemoteCalls* calls_;
  v2::ExecuteQueryRequest request_;
  proto::ResultAssembler assembler_;
  std::unique_ptr<Call> call_;
  std::unique_ptr<grpc::ClientReader<v2::ExecuteQueryResponse>> reader_;
  std::deque<sql::Values> ready_;
  RetryPolicy retry_;
  bool done_ = false;
  Status status_;
  sql::QueryStats stats_;
};

class RemotePrepared final : public sql::PreparedQuery {
 public:
  RemotePrepared(RemoteCalls* calls, std::string bytes, std::vector<sql::ResultColumn> columns,
                 sql::ParamTypes parameters)
      : calls_(calls), bytes_(std::move(bytes)), columns_(std::move(columns)), parameters_(std::move(parameters)) {}

  const std::vector<sql::ResultColumn>& columns() const override { return columns_; }
  const sql::ParamTypes& parameters() const override { return parameters_; }

  Result<std::unique_ptr<sql::ResultStream>> Execute(const sql::Params& params) const override {
    v2::ExecuteQueryRequest request;
    request.set_instance_name(calls_->instance_name());
    request.set_app_profile_id(calls_->app_profile());
    request.set_prepared_query(bytes_);
    for (const auto& [name, value] : params) {
      v2::Value& v = sql::IsViewParameterKey(name)
                         ? (*request.mutable_view_parameters())[name.substr(sql::kViewParameterPrefix.size())]
                         : (*request.mutable_params())[name];
      v = proto::ToProto(value);
      *v.mutable_type() = proto::ToProto(*value.type());
    }
    return std::unique_ptr<sql::ResultStream>(
        std::make_unique<RemoteResultStream>(calls_, std::move(request), columns_));
  }

 private:
  RemoteCalls* calls_;
  std::string bytes_;
  std::vector<sql::ResultColumn> columns_;
  sql::ParamTypes parameters_;
};

class RemoteQueryService final : public sql::QueryService {
 public:
  explicit RemoteQueryService(RemoteCalls* calls) : calls_(calls) {}

  Result<std::unique_ptr<sql::PreparedQuery>> Prepare(std::string_view sql, const sql::ParamTypes& params) override {
    v2::PrepareQueryRequest request;
    request.set_instance_name(calls_->instance_name());
    request.set_app_profile_id(calls_->app_profile());
    request.set_query(std::string(sql));
    request.mutable_proto_format();
    for (const auto& [name, type] : params) (*request.mutable_param_types())[name] = proto::ToProto(*type);
    v2::PrepareQueryResponse response;
    LBT_RETURN_IF_ERROR(calls_->Unary(calls_->data(), &RemoteCalls::DataStub::PrepareQuery, "name",
                                      request.instance_name(), request, &response));
    LBT_ASSIGN_OR_RETURN(std::vector<sql::ResultColumn> columns,
                         proto::ColumnsFromProto(response.metadata(), "metadata"));
    return std::unique_ptr<sql::PreparedQuery>(
        std::make_unique<RemotePrepared>(calls_, response.prepared_query(), std::move(columns), params));
  }

 private:
  RemoteCalls* calls_;
};

}  // namespace

std::unique_ptr<sql::QueryService> NewRemoteQueryService(RemoteCalls* calls) {
  return std::make_unique<RemoteQueryService>(calls);
}

}  // namespace lbt
