// The change stream RPCs of the Data API: a table's partitions, and a
// stream of its changes (api/change_stream.h) with heartbeats, tokens and
// a CloseStream at its end time.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "proto/change_stream_convert.h"
#include "proto/convert.h"
#include "server/data_service.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/request_target.h"
#include "server/stream_reactor.h"

namespace lbt::server {

namespace {

// How soon a stream that just found changes looks again; an idle one
// backs off from here to kChangePollInterval.
constexpr std::chrono::milliseconds kBusyPollInterval{25};

// When the heartbeat after `now` is due, `interval` on; never, for an
// interval past what the clock counts (a client may ask for centuries, and
// a sum that overflowed would fall in the past: a heartbeat every poll).
std::chrono::steady_clock::time_point HeartbeatAfter(std::chrono::steady_clock::time_point now,
                                                     std::chrono::milliseconds interval) {
  const auto room =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::time_point::max() - now);
  return interval >= room ? std::chrono::steady_clock::time_point::max() : now + interval;
}

// One ReadChangeStream call's responses: each change's messages, a
// heartbeat when one is due, and a CloseStream at the end time. Between
// changes it asks to be called again later, holding no thread.
class ChangeStreamSource final : public ResponseSource<v2::ReadChangeStreamResponse> {
 public:
  ChangeStreamSource(const InstanceRouter* router, RpcGate* gate, const v2::ReadChangeStreamRequest* request)
      : router_(router), gate_(gate), request_(*request) {}

  Result<Produced> Next(v2::ReadChangeStreamResponse* response, std::chrono::milliseconds* retry_after) override {
    if (stream_ == nullptr) LBT_RETURN_IF_ERROR(Open());
    if (gate_->closing()) return Status::Unavailable("the server is stopping; resume from the last token");
    if (pending_.empty()) {
      LBT_ASSIGN_OR_RETURN(std::optional<DataChange> change, stream_->Next(std::chrono::milliseconds(0)));
      if (change) {
        pending_ = proto::ToMessages(*change, source_, stream_->token(), stream_->low_watermark());
        next_pending_ = 0;
        idle_poll_ = kBusyPollInterval;
      }
    }
    if (next_pending_ < pending_.size()) {
      *response = std::move(pending_[next_pending_++]);
      if (next_pending_ == pending_.size()) pending_.clear();
      return Produced::kResponse;
    }
    if (stream_->finished()) {
      // The end time passed: a CloseStream with OK and nothing to resume.
      response->mutable_close_stream()->mutable_status()->set_code(0);
      return Produced::kLastResponse;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_heartbeat_) {
      *response = proto::Heartbeat(read_.partition, stream_->token(), stream_->low_watermark());
      next_heartbeat_ = HeartbeatAfter(now, heartbeat_);
      return Produced::kResponse;
    }
    *retry_after = std::min(idle_poll_, std::chrono::duration_cast<std::chrono::milliseconds>(next_heartbeat_ - now));
    idle_poll_ = std::min(idle_poll_ * 2, kChangePollInterval);
    return Produced::kNothingYet;
  }

 private:
  Status Open() {
    // The instance too: its first cluster is the one each change names.
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, request_, InstanceRead::kAlways));
    LBT_ASSIGN_OR_RETURN(read_, proto::FromProto(request_, target.tables->NowMicros(), &heartbeat_));
    LBT_ASSIGN_OR_RETURN(stream_, target.table->ReadChangeStream(read_));
    source_ = SourceCluster(target);
    next_heartbeat_ = HeartbeatAfter(std::chrono::steady_clock::now(), heartbeat_);
    return Status::OK();
  }

  const InstanceRouter* router_;
  RpcGate* gate_;
  const v2::ReadChangeStreamRequest& request_;
  ChangeStreamRequest read_;
  std::chrono::milliseconds heartbeat_{0};
  std::unique_ptr<ChangeStream> stream_;
  std::string source_;
  std::chrono::steady_clock::time_point next_heartbeat_;
  std::chrono::milliseconds idle_poll_ = kBusyPollInterval;
  std::vector<v2::ReadChangeStreamResponse> pending_;  // a change's messages not yet sent
  size_t next_pending_ = 0;
};

}  // namespace

grpc::ServerWriteReactor<v2::GenerateInitialChangeStreamPartitionsResponse>*
DataService::GenerateInitialChangeStreamPartitions(grpc::CallbackServerContext* context,
                                                   const v2::GenerateInitialChangeStreamPartitionsRequest* request) {
  using Response = v2::GenerateInitialChangeStreamPartitionsResponse;
  auto compute = [this, request]() -> Result<std::vector<Response>> {
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request));
    LBT_ASSIGN_OR_RETURN(std::vector<RowRange> partitions, target.table->ChangeStreamPartitions());
    std::vector<Response> responses(partitions.size());
    for (size_t i = 0; i < partitions.size(); ++i) *responses[i].mutable_partition() = proto::ToProto(partitions[i]);
    return responses;
  };
  return StreamReactor<Response>::Start(context, runtime_, nullptr, Runs::kOnPool,
                                        WithFaults(runtime_, CallOf("GenerateInitialChangeStreamPartitions", *request),
                                                   Computed<Response>(std::move(compute))));
}

grpc::ServerWriteReactor<v2::ReadChangeStreamResponse>* DataService::ReadChangeStream(
    grpc::CallbackServerContext* context, const v2::ReadChangeStreamRequest* request) {
  return StreamReactor<v2::ReadChangeStreamResponse>::Start(
      context, runtime_, &change_streams_, Runs::kOnPool,
      WithFaults(runtime_, CallOf("ReadChangeStream", *request),
                 std::unique_ptr<ResponseSource<v2::ReadChangeStreamResponse>>(
                     std::make_unique<ChangeStreamSource>(router_, runtime_->gate(), request))));
}

}  // namespace lbt::server
