#include "remote/remote_reads.h"

#include <optional>
#include <string>
#include <vector>

#include "filter/row_filter.h"
#include "proto/convert.h"
#include "proto/row_assembler.h"
#include "remote/filter_plan.h"
#include "remote/retry_policy.h"

namespace lbt::remote {

namespace {

namespace v2 = ::google::bigtable::v2;

bool HasStart(const v2::RowRange& r) { return r.has_start_key_closed() || r.has_start_key_open(); }
bool HasEnd(const v2::RowRange& r) { return r.has_end_key_closed() || r.has_end_key_open(); }

// The part of `range` after the key `last`, or nullopt if none is left.
std::optional<v2::RowRange> RangeAfter(v2::RowRange range, const std::string& last) {
  const bool starts_after = (range.has_start_key_closed() && range.start_key_closed() > last) ||
                            (range.has_start_key_open() && range.start_key_open() >= last);
  if (!starts_after) range.set_start_key_open(last);
  const bool ends_after = !HasEnd(range) || (range.has_end_key_closed() && range.end_key_closed() > last) ||
                          (range.has_end_key_open() && range.end_key_open() > last);
  if (!ends_after) return std::nullopt;
  return range;
}

// The part of `range` before the key `last`, or nullopt if none is left.
std::optional<v2::RowRange> RangeBefore(v2::RowRange range, const std::string& last) {
  const bool ends_before = (range.has_end_key_closed() && range.end_key_closed() < last) ||
                           (range.has_end_key_open() && range.end_key_open() <= last);
  if (!ends_before) range.set_end_key_open(last);
  const bool starts_before = !HasStart(range) || (range.has_start_key_closed() && range.start_key_closed() < last) ||
                             (range.has_start_key_open() && range.start_key_open() < last);
  if (!starts_before) return std::nullopt;
  return range;
}

// Narrows `request` to what is left after the row `last` (before it, for a
// reversed read), with the `rows_received` taken off its row limit. False
// if nothing is left.
bool NarrowToRemaining(const std::string& last, int64_t rows_received, v2::ReadRowsRequest* request) {
  const bool reversed = request->reversed();
  const v2::RowSet& rows = request->rows();
  v2::RowSet remaining;
  for (const std::string& key : rows.row_keys()) {
    if (reversed ? key < last : key > last) remaining.add_row_keys(key);
  }
  auto keep = [&](const v2::RowRange& range) {
    std::optional<v2::RowRange> left = reversed ? RangeBefore(range, last) : RangeAfter(range, last);
    if (left) *remaining.add_row_ranges() = *std::move(left);
  };
  if (rows.row_keys_size() == 0 && rows.row_ranges_size() == 0) keep(v2::RowRange());
  for (const v2::RowRange& range : rows.row_ranges()) keep(range);
  if (remaining.row_keys_size() == 0 && remaining.row_ranges_size() == 0) return false;
  *request->mutable_rows() = std::move(remaining);
  if (request->rows_limit() > 0) {
    request->set_rows_limit(request->rows_limit() - rows_received);
    if (request->rows_limit() <= 0) return false;
  }
  return true;
}

// One read: ReadRows calls, the first and those that resume it.
class RemoteRowStream final : public RowStream {
 public:
  RemoteRowStream(RemoteCalls* calls, v2::ReadRowsRequest request, std::unique_ptr<RowFilter> client_filter,
                  int64_t rows_limit, std::string placement)
      : calls_(calls),
        request_(std::move(request)),
        client_filter_(std::move(client_filter)),
        rows_limit_(rows_limit),
        placement_(std::move(placement)),
        retry_(calls->Deadline()) {}
  ~RemoteRowStream() override { Stop(); }

  bool Next(Row* row) override;
  Status status() const override { return status_; }
  ReadStats stats() const override;
  std::string FilterPlacement() const override { return placement_; }

 private:
  void Start();
  // Ends the call in flight, cancelling it if it has not finished.
  void Stop();
  // Reads responses until one completes rows (true) or the read is over
  // (false; status_ says how).
  bool ReadResponse();
  // Takes in one response: its rows into pending_, how far it scanned, its
  // stats.
  Status TakeResponse(const v2::ReadRowsResponse& response);
  // Adds the service's stats, if the response carries them (a call's last
  // does), to those of the calls before.
  void TakeStats(const v2::ReadRowsResponse& response);
  // Ends the call, which has sent everything, and returns its status.
  Status FinishCall();
  // The call ended: true if a new call resumes the read, false if the read
  // is over.
  bool EndCall();
  // The read has all the rows it wants (`rows_limit_`, or the client
  // filter is done).
  void EndEarly();
  // Hands `candidate` out as *row, counted as returned, and ends the read
  // early if it now has all it wants.
  void Return(Row* candidate, Row* row);

  RemoteCalls* calls_;
  v2::ReadRowsRequest request_;
  std::unique_ptr<RowFilter> client_filter_;
  const int64_t rows_limit_;
  const std::string placement_;
  RetryPolicy retry_;

  std::unique_ptr<Call> call_;
  std::unique_ptr<grpc::ClientReader<v2::ReadRowsResponse>> reader_;
  proto::RowAssembler assembler_;
  std::vector<Row> pending_;
  size_t next_pending_ = 0;
  std::string resume_after_;  // the last key received or scanned
  int64_t rows_since_resume_ = 0;
  bool done_ = false;
  Status status_;

  ReadStats counted_;        // lbt's counts
  ReadStats service_stats_;  // the service's, summed over the calls
  bool call_sent_stats_ = false;
  bool every_call_sent_stats_ = true;
  bool reached_end_ = false;  // the last call ended OK
};

void RemoteRowStream::Start() {
  call_ = std::make_unique<Call>(
      calls_, calls_->NewContext(RemoteCalls::TargetKey(request_), RemoteCalls::TargetOf(request_), retry_.deadline()));
  reader_ = calls_->data()->ReadRows(call_->get(), request_);
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

Status RemoteRowStream::TakeResponse(const v2::ReadRowsResponse& response) {
  pending_.clear();
  next_pending_ = 0;
  LBT_RETURN_IF_ERROR(assembler_.Add(response, &pending_));
  TakeStats(response);
  if (!response.last_scanned_row_key().empty()) resume_after_ = response.last_scanned_row_key();
  if (!pending_.empty()) {
    resume_after_ = pending_.back().key;
    rows_since_resume_ += static_cast<int64_t>(pending_.size());
    retry_.Progressed();
  }
  return Status::OK();
}

Status RemoteRowStream::FinishCall() {
  Status s = proto::FromGrpcStatus(reader_->Finish());
  reader_.reset();
  call_.reset();
  every_call_sent_stats_ = every_call_sent_stats_ && call_sent_stats_;
  call_sent_stats_ = false;
  return s;
}

void RemoteRowStream::TakeStats(const v2::ReadRowsResponse& response) {
  if (!response.request_stats().has_full_read_stats_view()) return;
  const v2::ReadIterationStats& it = response.request_stats().full_read_stats_view().read_iteration_stats();
  service_stats_.rows_seen += it.rows_seen_count();
  service_stats_.rows_returned += it.rows_returned_count();
  service_stats_.cells_seen += it.cells_seen_count();
  service_stats_.cells_returned += it.cells_returned_count();
  call_sent_stats_ = true;
}

bool RemoteRowStream::EndCall() {
  Status s = FinishCall();
  if (s.ok()) {
    status_ = assembler_.Finish();
    reached_end_ = status_.ok();
    return false;
  }
  if (!retry_.RetryAfter(s)) {
    status_ = s;
    return false;
  }
  // A row cut short by the break is sent again whole.
  assembler_ = proto::RowAssembler();
  if (resume_after_.empty()) return true;  // nothing arrived: ask again for everything
  const int64_t received = rows_since_resume_;
  rows_since_resume_ = 0;
  return NarrowToRemaining(resume_after_, received, &request_);
}

bool RemoteRowStream::ReadResponse() {
  while (true) {
    if (reader_ == nullptr) Start();
    v2::ReadRowsResponse response;
    if (!reader_->Read(&response)) {
      if (!EndCall()) return false;
      continue;
    }
    status_ = TakeResponse(response);
    if (!status_.ok()) return false;
    if (!pending_.empty()) return true;
  }
}

void RemoteRowStream::EndEarly() {
  done_ = true;
  // A service that applies the row limit ends the call right after the
  // last row, with its stats: hear them, unless it sends more rows.
  const bool limited_by_service = request_.rows_limit() > 0 && client_filter_ == nullptr;
  if (!limited_by_service || next_pending_ < pending_.size() || reader_ == nullptr) return Stop();
  for (v2::ReadRowsResponse response; reader_->Read(&response);) {
    if (response.chunks_size() > 0) return Stop();
    TakeStats(response);
  }
  // Every row wanted arrived: a failure now only loses the stats.
  reached_end_ = FinishCall().ok();
}

void RemoteRowStream::Return(Row* candidate, Row* row) {
  ++counted_.rows_returned;
  counted_.cells_returned += static_cast<int64_t>(candidate->cells.size());
  *row = std::move(*candidate);
  const bool limit_reached = rows_limit_ > 0 && counted_.rows_returned >= rows_limit_;
  if (limit_reached || (client_filter_ != nullptr && client_filter_->ScanDone())) EndEarly();
}

bool RemoteRowStream::Next(Row* row) {
  while (!done_) {
    if (next_pending_ >= pending_.size() && !ReadResponse()) break;
    Row& candidate = pending_[next_pending_++];
    ++counted_.rows_seen;
    counted_.cells_seen += static_cast<int64_t>(candidate.cells.size());
    if (client_filter_ != nullptr) {
      status_ = client_filter_->Apply(candidate.key, &candidate.cells);
      if (!status_.ok()) break;
      if (candidate.cells.empty()) {
        if (client_filter_->ScanDone()) break;
        continue;
      }
    }
    Return(&candidate, row);
    return true;
  }
  done_ = true;
  Stop();
  return false;
}

ReadStats RemoteRowStream::stats() const {
  if (!reached_end_ || !every_call_sent_stats_) {
    ReadStats counted = counted_;
    counted.source = ReadStats::Source::kClient;
    return counted;
  }
  ReadStats stats = service_stats_;
  if (client_filter_ != nullptr) {
    stats.rows_returned = counted_.rows_returned;
    stats.cells_returned = counted_.cells_returned;
  }
  return stats;
}

}  // namespace

Result<std::unique_ptr<RowStream>> ReadRows(RemoteCalls* calls, const TableRef& table, const ReadRequest& request) {
  LBT_RETURN_IF_ERROR(request.rows.Validate());
  FilterPlan plan = PlanFilter(request);
  v2::ReadRowsRequest proto_request;
  LBT_RETURN_IF_ERROR(calls->SetTarget(&proto_request, table));
  proto_request.set_app_profile_id(calls->app_profile());
  *proto_request.mutable_rows() = proto::ToProto(request.rows);
  proto_request.set_reversed(request.reversed);
  proto_request.set_request_stats_view(v2::ReadRowsRequest::REQUEST_STATS_FULL);
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
      calls, std::move(proto_request), std::move(client), request.rows_limit, std::move(plan.placement)));
}

Result<int64_t> CountRows(RemoteCalls* calls, const TableRef& table, const RowRange& range) {
  return CountRowsByReading(range, [&](const ReadRequest& request) { return ReadRows(calls, table, request); });
}

}  // namespace lbt::remote
