// Change streams between the Data API's ReadChangeStream messages and
// api/change_stream.h: requests to ChangeStreamRequest, changes to the
// messages of a stream (chunked as a stream carries them) and back.

#ifndef LBT_PROTO_CHANGE_STREAM_CONVERT_H_
#define LBT_PROTO_CHANGE_STREAM_CONVERT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/change_stream.h"
#include "google/bigtable/v2/bigtable.pb.h"
#include "proto/convert.h"

namespace lbt::proto {

// A DataChange message carries at most this many bytes of cell values;
// a larger value is split into chunks across messages (ChunkInfo).
inline constexpr size_t kChangeMessageValueBytes = 1u << 20;

v2::StreamPartition ToProto(const RowRange& partition);
// `field` names the partition in errors; a partition with no range is
// every row.
Result<RowRange> FromProto(const v2::StreamPartition& partition, std::string_view field);

// The request's partition and start, as the stream reads them. A request
// with neither start_time nor tokens starts at `now_micros`. Tokens must
// cover the partition exactly (InvalidArgument naming the field).
// *heartbeat gets heartbeat_duration, or kDefaultHeartbeat.
Result<ChangeStreamRequest> FromProto(const v2::ReadChangeStreamRequest& request, int64_t now_micros,
                                      std::chrono::milliseconds* heartbeat);

// The messages carrying `change`: the first with its row, time and
// source, the last with `done`, its token and the low watermark.
std::vector<v2::ReadChangeStreamResponse> ToMessages(const DataChange& change, std::string_view source_cluster,
                                                     const std::string& token, int64_t low_watermark);
v2::ReadChangeStreamResponse Heartbeat(const RowRange& partition, const std::string& token, int64_t low_watermark);

// Puts the messages of a stream back together into changes.
class ChangeAssembler {
 public:
  // Takes the next data change message; returns the change once its last
  // message came. InvalidArgument for a message out of sequence.
  Result<std::optional<DataChange>> Add(const v2::ReadChangeStreamResponse::DataChange& message);

 private:
  std::optional<DataChange> pending_;
  bool in_value_ = false;  // a chunked SetCell is being joined
};

}  // namespace lbt::proto

#endif  // LBT_PROTO_CHANGE_STREAM_CONVERT_H_
