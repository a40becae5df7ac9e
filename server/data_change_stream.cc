// The change stream RPCs of the Data API: a table's partitions, and a
// stream of its changes (api/change_stream.h) with heartbeats, tokens and
// a CloseStream at its end time.

#include <fmt/format.h>

#include <chrono>

#include "proto/change_stream_convert.h"
#include "proto/convert.h"
#include "server/data_service.h"
#include "server/handler.h"
#include "server/request_target.h"

namespace lbt::server {

namespace {

// How often a waiting stream looks whether its client left or the server
// is stopping.
constexpr std::chrono::milliseconds kCheckInterval{200};

// When the heartbeat after `now` is due, `interval` on; never, for an
// interval past what the clock counts (a client may ask for centuries, and
// a sum that overflowed would fall in the past: a heartbeat every poll).
std::chrono::steady_clock::time_point HeartbeatAfter(std::chrono::steady_clock::time_point now,
                                                     std::chrono::milliseconds interval) {
  const auto room =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::time_point::max() - now);
  return interval >= room ? std::chrono::steady_clock::time_point::max() : now + interval;
}

}  // namespace

grpc::Status DataService::GenerateInitialChangeStreamPartitions(
    grpc::ServerContext* context, const v2::GenerateInitialChangeStreamPartitionsRequest* request,
    grpc::ServerWriter<v2::GenerateInitialChangeStreamPartitionsResponse>* writer) {
  return Handle(gate_, [&]() -> Status {
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request));
    LBT_ASSIGN_OR_RETURN(std::vector<RowRange> partitions, target.table->ChangeStreamPartitions());
    for (const RowRange& partition : partitions) {
      v2::GenerateInitialChangeStreamPartitionsResponse response;
      *response.mutable_partition() = proto::ToProto(partition);
      if (!WriteWatched(writer, response, context, stalls_)) break;
    }
    return Status::OK();
  });
}

grpc::Status DataService::ReadChangeStream(grpc::ServerContext* context, const v2::ReadChangeStreamRequest* request,
                                           grpc::ServerWriter<v2::ReadChangeStreamResponse>* writer) {
  return Handle(gate_, [&]() -> Status {
    StreamLimit::Slot slot(&change_streams_);
    if (!slot.taken()) return slot.Refusal();
    // The instance too: its first cluster is the one each change names.
    LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request, InstanceRead::kAlways));
    std::chrono::milliseconds heartbeat;
    LBT_ASSIGN_OR_RETURN(ChangeStreamRequest read, proto::FromProto(*request, target.tables->NowMicros(), &heartbeat));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<ChangeStream> stream, target.table->ReadChangeStream(read));
    const std::string source = SourceCluster(target);
    auto next_heartbeat = HeartbeatAfter(std::chrono::steady_clock::now(), heartbeat);
    while (!context->IsCancelled()) {
      if (gate_->closing()) return Status::Unavailable("the server is stopping; resume from the last token");
      const auto now = std::chrono::steady_clock::now();
      const auto wait = std::min<std::chrono::milliseconds>(
          kCheckInterval, std::chrono::duration_cast<std::chrono::milliseconds>(next_heartbeat - now));
      LBT_ASSIGN_OR_RETURN(std::optional<DataChange> change,
                           stream->Next(std::max(wait, std::chrono::milliseconds(0))));
      if (change) {
        for (const auto& message : proto::ToMessages(*change, source, stream->token(), stream->low_watermark())) {
          if (!WriteWatched(writer, message, context, stalls_)) return Status::OK();
        }
        continue;
      }
      if (stream->finished()) {
        // The end time passed: a CloseStream with OK and nothing to resume.
        v2::ReadChangeStreamResponse close;
        close.mutable_close_stream()->mutable_status()->set_code(0);
        WriteWatched(writer, close, context, stalls_);
        return Status::OK();
      }
      if (std::chrono::steady_clock::now() >= next_heartbeat) {
        if (!WriteWatched(writer, proto::Heartbeat(read.partition, stream->token(), stream->low_watermark()), context,
                          stalls_)) {
          return Status::OK();
        }
        next_heartbeat = HeartbeatAfter(std::chrono::steady_clock::now(), heartbeat);
      }
    }
    return Status::OK();
  });
}

}  // namespace lbt::server
