#include "remote/remote_change_streams.h"

#include <google/protobuf/util/time_util.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "proto/change_stream_convert.h"
#include "proto/convert.h"
#include "util/background_thread.h"

namespace lbt::remote {

namespace {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;
using google::protobuf::util::TimeUtil;

// Changes read ahead of the caller at most: the reader waits beyond.
constexpr size_t kReadAhead = 256;

class RemoteChangeStream final : public ChangeStream {
 public:
  RemoteChangeStream(RemoteCalls* calls, v2::ReadChangeStreamRequest request, std::string initial_token)
      : calls_(calls),
        call_(calls, calls->NewContext("table_name", request.table_name(), RemoteCalls::Clock::time_point::max())),
        token_(std::move(initial_token)) {
    reader_ = StartBackgroundThread([this, request = std::move(request)] { Read(request); });
  }

  ~RemoteChangeStream() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    space_.notify_all();
    call_.get()->TryCancel();
    reader_.join();
  }

  Result<std::optional<DataChange>> Next(std::chrono::milliseconds wait) override {
    std::unique_lock<std::mutex> lock(mu_);
    ready_.wait_for(lock, wait, [this] { return !queue_.empty() || ended_; });
    if (!queue_.empty()) {
      Entry entry = std::move(queue_.front());
      queue_.pop_front();
      space_.notify_all();
      token_ = std::move(entry.token);
      watermark_ = entry.watermark;
      return std::optional<DataChange>(std::move(entry.change));
    }
    if (ended_) {
      LBT_RETURN_IF_ERROR(status_);
      // A heartbeat's position, or the end.
      token_ = tail_token_.empty() ? token_ : tail_token_;
      watermark_ = std::max(watermark_, tail_watermark_);
      finished_ = true;
      return std::optional<DataChange>();
    }
    if (!tail_token_.empty()) token_ = tail_token_;
    watermark_ = std::max(watermark_, tail_watermark_);
    return std::optional<DataChange>();
  }

  std::string token() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return token_;
  }
  int64_t low_watermark() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return watermark_;
  }
  bool finished() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return finished_;
  }

 private:
  struct Entry {
    DataChange change;
    std::string token;
    int64_t watermark;
  };

  // The reader thread: messages in, changes and positions out.
  void Read(const v2::ReadChangeStreamRequest& request) {
    auto reader = calls_->data()->ReadChangeStream(call_.get(), request);
    proto::ChangeAssembler assembler;
    Status failure;
    for (v2::ReadChangeStreamResponse response; failure.ok() && reader->Read(&response);) {
      if (response.has_data_change()) {
        Result<std::optional<DataChange>> change = assembler.Add(response.data_change());
        if (!change.ok()) {
          failure = change.status();
        } else if (change->has_value()) {
          Push({std::move(**change), response.data_change().token(),
                TimeUtil::TimestampToMicroseconds(response.data_change().estimated_low_watermark())});
        }
      } else if (response.has_heartbeat()) {
        std::lock_guard<std::mutex> lock(mu_);
        tail_token_ = response.heartbeat().continuation_token().token();
        tail_watermark_ = TimeUtil::TimestampToMicroseconds(response.heartbeat().estimated_low_watermark());
      } else if (response.has_close_stream()) {
        const auto& close = response.close_stream();
        if (close.status().code() != 0) {
          failure = proto::FromRpcStatus(close.status());
        } else if (close.continuation_tokens_size() > 0 || close.new_partitions_size() > 0) {
          failure = Status::Unavailable(
              "the service split or merged the partition; read its new partitions from the last token");
        }
      }
    }
    if (!failure.ok()) call_.get()->TryCancel();
    Status finished = proto::FromGrpcStatus(reader->Finish());
    std::lock_guard<std::mutex> lock(mu_);
    status_ = !failure.ok() ? failure : stopping_ ? Status::OK() : finished;
    ended_ = true;
    ready_.notify_all();
  }

  void Push(Entry entry) {
    std::unique_lock<std::mutex> lock(mu_);
    space_.wait(lock, [this] { return queue_.size() < kReadAhead || stopping_; });
    queue_.push_back(std::move(entry));
    tail_token_.clear();
    ready_.notify_all();
  }

  RemoteCalls* calls_;
  Call call_;
  mutable std::mutex mu_;
  std::condition_variable ready_, space_;
  std::deque<Entry> queue_;
  std::string token_, tail_token_;
  int64_t watermark_ = 0, tail_watermark_ = 0;
  bool ended_ = false, stopping_ = false, finished_ = false;
  Status status_;
  std::thread reader_;
};

}  // namespace

Status SetChangeStream(RemoteCalls* calls, std::string_view table, const std::optional<ChangeStreamConfig>& config) {
  if (config) {
    LBT_RETURN_IF_ERROR(
        ValidateChangeStreamRetention(config->retention_micros, "change_stream_config.retention_period"));
  }
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(calls->TableName(table));
  if (config) {
    *request.mutable_table()->mutable_change_stream_config()->mutable_retention_period() =
        TimeUtil::MicrosecondsToDuration(config->retention_micros);
  }
  request.mutable_update_mask()->add_paths("change_stream_config");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &RemoteCalls::AdminStub::UpdateTable, "table.name",
                                   request.table().name(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Result<std::vector<RowRange>> ChangeStreamPartitions(RemoteCalls* calls, std::string_view table) {
  v2::GenerateInitialChangeStreamPartitionsRequest request;
  request.set_table_name(calls->TableName(table));
  request.set_app_profile_id(calls->app_profile());
  Call call(calls, calls->NewContext("table_name", request.table_name(), calls->Deadline()));
  auto reader = calls->data()->GenerateInitialChangeStreamPartitions(call.get(), request);
  std::vector<RowRange> partitions;
  for (v2::GenerateInitialChangeStreamPartitionsResponse response; reader->Read(&response);) {
    LBT_ASSIGN_OR_RETURN(RowRange range, proto::FromProto(response.partition(), "partition"));
    partitions.push_back(std::move(range));
  }
  LBT_RETURN_IF_ERROR(proto::FromGrpcStatus(reader->Finish()));
  return partitions;
}

Result<std::unique_ptr<ChangeStream>> ReadChangeStream(RemoteCalls* calls, std::string_view table,
                                                       const ChangeStreamRequest& request) {
  v2::ReadChangeStreamRequest rpc;
  rpc.set_table_name(calls->TableName(table));
  rpc.set_app_profile_id(calls->app_profile());
  *rpc.mutable_partition() = proto::ToProto(request.partition);
  std::string initial_token;
  if (request.resume.empty()) {
    *rpc.mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(request.start_micros);
  } else {
    for (const ChangeStreamPosition& p : request.resume) {
      auto* token = rpc.mutable_continuation_tokens()->add_tokens();
      *token->mutable_partition() = proto::ToProto(p.range);
      token->set_token(p.token);
    }
    initial_token = request.resume.front().token;
  }
  if (request.end_micros) *rpc.mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(*request.end_micros);
  return std::unique_ptr<ChangeStream>(std::make_unique<RemoteChangeStream>(calls, std::move(rpc), initial_token));
}

}  // namespace lbt::remote
