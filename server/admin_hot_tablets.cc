// InstanceAdminService's ListHotTablets, answered from the schema lab's
// write replay (lab/hotspots.h): a local instance has no tablets and no
// CPU to measure, so each table of the instance is sampled, its key space
// split into tablets as Bigtable would split it by size (four a node), and
// its sampled writes replayed over time windows. A tablet is hot in a
// window when it takes more of the window's writes than one node's share
// of an even spread; its "CPU" is that share.

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <charconv>

#include "api/instance_admin.h"
#include "api/resource.h"
#include "lab/hotspots.h"
#include "lab/sample.h"
#include "proto/convert.h"
#include "proto/instance_convert.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/instance_admin_service.h"

namespace lbt::server {

namespace {

using google::protobuf::util::TimeUtil;

constexpr int64_t kHourMicros = int64_t{3600} * 1000000;

struct TimeRange {
  int64_t start_micros = 0;
  int64_t end_micros = 0;
};

// The request's range: the last 24 hours by default; at most 48 hours, as
// production allows.
Result<TimeRange> RangeOf(const admin::ListHotTabletsRequest& request) {
  const int64_t now = TimeUtil::TimestampToMicroseconds(TimeUtil::GetCurrentTime());
  TimeRange range{now - 24 * kHourMicros, now};
  if (request.has_end_time()) {
    LBT_ASSIGN_OR_RETURN(range.end_micros, proto::TimestampMicros(request.end_time(), "end_time"));
  }
  if (request.has_start_time()) {
    LBT_ASSIGN_OR_RETURN(range.start_micros, proto::TimestampMicros(request.start_time(), "start_time"));
  } else if (request.has_end_time()) {
    range.start_micros = range.end_micros - 24 * kHourMicros;
  }
  if (range.start_micros >= range.end_micros) {
    return Status::InvalidArgument("start_time: must be before end_time");
  }
  if (range.end_micros - range.start_micros > 48 * kHourMicros) {
    return Status::InvalidArgument("end_time: the range from start_time may be at most 48 hours");
  }
  return range;
}

// A hot tablet's name may hold letters, digits, '_' and '-' only.
std::string NamePart(std::string_view table) {
  std::string out(table);
  for (char& c : out) {
    if (c == '.') c = '_';
  }
  return out;
}

// The hot tablets of one table within `range`.
Status AddHotTablets(Bigtable* tables, const InstanceName& instance, const std::string& cluster,
                     const std::string& table, int nodes, const TimeRange& range, std::vector<admin::HotTablet>* out) {
  lab::SampleOptions options;
  options.max_rows = 2000;
  options.full_scan_bytes = 16u << 20;
  options.segments = 16;
  LBT_ASSIGN_OR_RETURN(lab::TableSample sample, lab::SampleTable(tables, table, options));
  const lab::WriteGrid grid = lab::ReplayWrites(sample, static_cast<size_t>(nodes) * 4, 48);
  if (grid.windows.single_timestamp) return Status::OK();  // no order of writes to replay
  const double even_node_share = 1.0 / nodes;
  for (int w = 0; w < grid.windows.count; ++w) {
    const int64_t start = grid.windows.Start(w), end = start + grid.windows.width;
    if (end <= range.start_micros || start >= range.end_micros) continue;
    double window_writes = 0;
    for (const auto& writes : grid.writes) window_writes += writes[w];
    if (window_writes <= 0) continue;
    for (size_t r = 0; r < grid.ranges.size(); ++r) {
      const double share = grid.writes[r][w] / window_writes;
      if (share <= even_node_share) continue;
      admin::HotTablet& hot = out->emplace_back();
      hot.set_name(fmt::format("{}/hotTablets/{}-{}-{}", cluster, NamePart(table), r, w));
      hot.set_table_name(FullTableName(instance, table));
      *hot.mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(start);
      *hot.mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(end);
      hot.set_start_key(grid.ranges[r].start_key);
      hot.set_end_key(grid.ranges[r].end_key);
      hot.set_node_cpu_usage_percent(static_cast<float>(100 * share));
    }
  }
  return Status::OK();
}

}  // namespace

grpc::ServerUnaryReactor* InstanceAdminService::ListHotTablets(grpc::CallbackServerContext* context,
                                                               const admin::ListHotTabletsRequest* request,
                                                               admin::ListHotTabletsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ClusterName cluster, ParseClusterName(request->parent(), "parent"));
    if (request->page_size() < 0) return Status::InvalidArgument("page_size: must not be negative");
    LBT_ASSIGN_OR_RETURN(TimeRange range, RangeOf(*request));
    LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(cluster.instance));
    const ClusterSpec* spec = instance.FindCluster(cluster.cluster);
    if (spec == nullptr) return Status::NotFound(fmt::format("cluster {} does not exist", request->parent()));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(cluster.instance));
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, tables->ListTables());
    std::vector<admin::HotTablet> hot;
    for (const std::string& table : names) {
      LBT_RETURN_IF_ERROR(AddHotTablets(tables.get(), cluster.instance, request->parent(), table,
                                        std::max(1, spec->serve_nodes), range, &hot));
    }
    // Hottest first, as production orders them.
    std::stable_sort(hot.begin(), hot.end(), [](const admin::HotTablet& a, const admin::HotTablet& b) {
      return a.node_cpu_usage_percent() > b.node_cpu_usage_percent();
    });
    // A page token is the number of tablets the pages before held.
    size_t from = 0;
    const std::string& token = request->page_token();
    if (!token.empty()) {
      auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), from);
      if (ec != std::errc() || end != token.data() + token.size()) {
        return Status::InvalidArgument("page_token: not a token this server gave");
      }
    }
    const size_t size = request->page_size() > 0 ? static_cast<size_t>(request->page_size()) : hot.size();
    for (size_t i = from; i < hot.size() && i < from + size; ++i) *response->add_hot_tablets() = hot[i];
    if (from + size < hot.size()) response->set_next_page_token(std::to_string(from + size));
    return Status::OK();
  });
}

}  // namespace lbt::server
