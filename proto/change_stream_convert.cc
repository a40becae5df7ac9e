#include "proto/change_stream_convert.h"

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>

namespace lbt::proto {

namespace {

using google::protobuf::util::TimeUtil;
using DataChangeMessage = v2::ReadChangeStreamResponse::DataChange;

bool SameBound(const Bound& a, const Bound& b) {
  return a.kind == b.kind && (a.kind == Bound::Kind::kUnbounded || a.value == b.value);
}

// The end of `a` is where `b` starts: [x, k) then [k, y), or [x, k] then (k, y).
bool Adjoins(const Bound& end, const Bound& start) {
  if (end.kind == Bound::Kind::kUnbounded || start.kind == Bound::Kind::kUnbounded) return false;
  return end.value == start.value && end.kind != start.kind;
}

// Whether the tokens' ranges, in order of their starts, cover `partition`
// exactly, each one once.
bool CoverExactly(std::vector<ChangeStreamPosition> tokens, const RowRange& partition) {
  std::sort(tokens.begin(), tokens.end(), [](const ChangeStreamPosition& a, const ChangeStreamPosition& b) {
    if (a.range.start.kind == Bound::Kind::kUnbounded) return b.range.start.kind != Bound::Kind::kUnbounded;
    if (b.range.start.kind == Bound::Kind::kUnbounded) return false;
    return a.range.start.value < b.range.start.value;
  });
  if (!SameBound(tokens.front().range.start, partition.start)) return false;
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (!Adjoins(tokens[i - 1].range.end, tokens[i].range.start)) return false;
  }
  return SameBound(tokens.back().range.end, partition.end);
}

google::protobuf::Timestamp TimestampOf(int64_t micros) { return TimeUtil::MicrosecondsToTimestamp(micros); }

v2::StreamContinuationToken TokenOf(const RowRange& partition, const std::string& position) {
  v2::StreamContinuationToken token;
  *token.mutable_partition() = ToProto(partition);
  token.set_token(position);
  return token;
}

}  // namespace

v2::StreamPartition ToProto(const RowRange& partition) {
  v2::StreamPartition out;
  v2::RowSet rows = ToProto(RowSet{{}, {partition}});
  if (rows.row_ranges_size() > 0) *out.mutable_row_range() = rows.row_ranges(0);
  return out;
}

Result<RowRange> FromProto(const v2::StreamPartition& partition, std::string_view field) {
  if (!partition.has_row_range()) return RowRange::All();
  v2::RowSet rows;
  *rows.add_row_ranges() = partition.row_range();
  LBT_ASSIGN_OR_RETURN(RowSet converted, FromProto(rows, fmt::format("{}.row_range", field)));
  return converted.row_ranges.front();
}

namespace {

// heartbeat_duration: positive, and within protobuf's Duration range (any
// such interval, however long, is kept: heartbeats never come faster).
Result<std::chrono::milliseconds> HeartbeatOf(const google::protobuf::Duration& d) {
  const bool valid = d.seconds() >= TimeUtil::kDurationMinSeconds && d.seconds() <= TimeUtil::kDurationMaxSeconds &&
                     d.nanos() > -1'000'000'000 && d.nanos() < 1'000'000'000 &&
                     (d.seconds() == 0 || d.nanos() == 0 || (d.seconds() > 0) == (d.nanos() > 0));
  if (!valid) return Status::InvalidArgument("heartbeat_duration: not a valid duration");
  const int64_t ms = TimeUtil::DurationToMilliseconds(d);
  if (ms <= 0) return Status::InvalidArgument("heartbeat_duration: must be at least a millisecond");
  return std::chrono::milliseconds(ms);
}

}  // namespace

Result<ChangeStreamRequest> FromProto(const v2::ReadChangeStreamRequest& request, int64_t now_micros,
                                      std::chrono::milliseconds* heartbeat) {
  ChangeStreamRequest out;
  if (!request.has_partition()) return Status::InvalidArgument("partition: a partition to read is required");
  LBT_ASSIGN_OR_RETURN(out.partition, FromProto(request.partition(), "partition"));
  out.start_micros = now_micros;
  if (request.has_start_time()) {
    LBT_ASSIGN_OR_RETURN(out.start_micros, TimestampMicros(request.start_time(), "start_time"));
  } else if (request.has_continuation_tokens()) {
    const auto& tokens = request.continuation_tokens().tokens();
    if (tokens.empty()) return Status::InvalidArgument("continuation_tokens: at least one token is required");
    for (int i = 0; i < tokens.size(); ++i) {
      const std::string at = fmt::format("continuation_tokens.tokens[{}]", i);
      ChangeStreamPosition& p = out.resume.emplace_back();
      LBT_ASSIGN_OR_RETURN(p.range, FromProto(tokens[i].partition(), at + ".partition"));
      // lbt serve reads lbt's tokens alone.
      LBT_RETURN_IF_ERROR(DecodeChangeStreamToken(tokens[i].token(), at + ".token").status());
      p.token = tokens[i].token();
    }
    if (!CoverExactly(out.resume, out.partition)) {
      return Status::InvalidArgument(
          "continuation_tokens: the tokens' partitions must cover the request's partition exactly");
    }
  }
  if (request.has_end_time()) {
    LBT_ASSIGN_OR_RETURN(out.end_micros, TimestampMicros(request.end_time(), "end_time"));
  }
  *heartbeat = kDefaultHeartbeat;
  if (request.has_heartbeat_duration()) {
    LBT_ASSIGN_OR_RETURN(*heartbeat, HeartbeatOf(request.heartbeat_duration()));
  }
  return out;
}

std::vector<v2::ReadChangeStreamResponse> ToMessages(const DataChange& change, std::string_view source_cluster,
                                                     const std::string& token, int64_t low_watermark) {
  std::vector<v2::ReadChangeStreamResponse> out;
  auto start_message = [&]() -> DataChangeMessage* {
    DataChangeMessage* m = out.emplace_back().mutable_data_change();
    if (out.size() == 1) {
      const bool gc = change.type == DataChange::Type::kGarbageCollection;
      m->set_type(gc ? DataChangeMessage::GARBAGE_COLLECTION : DataChangeMessage::USER);
      if (!gc) m->set_source_cluster_id(std::string(source_cluster));
      m->set_row_key(change.row_key);
      *m->mutable_commit_timestamp() = TimestampOf(change.commit_micros);
      m->set_tiebreaker(change.tiebreaker);
    } else {
      m->set_type(DataChangeMessage::CONTINUATION);
    }
    return m;
  };
  DataChangeMessage* message = start_message();
  size_t budget = kChangeMessageValueBytes;
  for (const Mutation& m : change.mutations) {
    const bool set = m.kind == Mutation::Kind::kSetCell;
    if (!set || m.value.size() <= budget) {
      *message->add_chunks()->mutable_mutation() = ToProto(m);
      if (set) budget -= m.value.size();
      continue;
    }
    // A value larger than what is left: in chunks, each message full.
    for (size_t offset = 0; offset < m.value.size();) {
      if (budget == 0) {
        message = start_message();
        budget = kChangeMessageValueBytes;
      }
      const size_t n = std::min(budget, m.value.size() - offset);
      auto* chunk = message->add_chunks();
      auto* info = chunk->mutable_chunk_info();
      info->set_chunked_value_size(static_cast<int32_t>(m.value.size()));
      info->set_chunked_value_offset(static_cast<int32_t>(offset));
      info->set_last_chunk(offset + n == m.value.size());
      Mutation piece = m;
      piece.value = m.value.substr(offset, n);
      *chunk->mutable_mutation() = ToProto(piece);
      offset += n;
      budget -= n;
    }
  }
  message->set_done(true);
  message->set_token(token);
  *message->mutable_estimated_low_watermark() = TimestampOf(low_watermark);
  return out;
}

v2::ReadChangeStreamResponse Heartbeat(const RowRange& partition, const std::string& token, int64_t low_watermark) {
  v2::ReadChangeStreamResponse out;
  auto* heartbeat = out.mutable_heartbeat();
  *heartbeat->mutable_continuation_token() = TokenOf(partition, token);
  *heartbeat->mutable_estimated_low_watermark() = TimestampOf(low_watermark);
  return out;
}

Result<std::optional<DataChange>> ChangeAssembler::Add(const DataChangeMessage& message) {
  if (message.type() == DataChangeMessage::CONTINUATION) {
    if (!pending_) return Status::InvalidArgument("a continued data change came without its start");
  } else {
    if (pending_) return Status::InvalidArgument("a data change started before the last one was done");
    pending_.emplace();
    pending_->type = message.type() == DataChangeMessage::GARBAGE_COLLECTION ? DataChange::Type::kGarbageCollection
                                                                             : DataChange::Type::kUser;
    pending_->row_key = message.row_key();
    pending_->commit_micros = TimeUtil::TimestampToMicroseconds(message.commit_timestamp());
    pending_->tiebreaker = message.tiebreaker();
  }
  for (int i = 0; i < message.chunks_size(); ++i) {
    const auto& chunk = message.chunks(i);
    const bool continues = chunk.has_chunk_info() && chunk.chunk_info().chunked_value_offset() > 0;
    if (continues) {
      if (!in_value_ || pending_->mutations.empty()) {
        return Status::InvalidArgument("a value chunk came without the start of its cell");
      }
      pending_->mutations.back().value += chunk.mutation().set_cell().value();
    } else {
      LBT_ASSIGN_OR_RETURN(Mutation m, FromProto(chunk.mutation(), "data_change.chunks"));
      pending_->mutations.push_back(std::move(m));
    }
    in_value_ = chunk.has_chunk_info() && !chunk.chunk_info().last_chunk();
  }
  if (!message.done()) return std::optional<DataChange>();
  if (in_value_) return Status::InvalidArgument("a data change ended inside a chunked value");
  std::optional<DataChange> done = std::move(pending_);
  pending_.reset();
  return done;
}

}  // namespace lbt::proto
