#include "remote/remote_calls.h"

#include <fmt/format.h>
#include <google/protobuf/stubs/strutil.h>

#include <cctype>

#include "google/bigtable/v2/feature_flags.pb.h"
#include "proto/convert.h"

namespace lbt {

namespace {

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

// What lbt understands beyond the basics: reversed scans, and responses
// that only say how far a read has scanned.
std::string FeatureHeader() {
  google::bigtable::v2::FeatureFlags flags;
  flags.set_reverse_scans(true);
  flags.set_last_scanned_row_responses(true);
  std::string encoded;
  google::protobuf::WebSafeBase64EscapeWithPadding(flags.SerializeAsString(), &encoded);
  return encoded;
}

}  // namespace

RemoteCalls::RemoteCalls(const RemoteOptions& options, const std::shared_ptr<grpc::Channel>& data,
                         const std::shared_ptr<grpc::Channel>& admin)
    : options_(options),
      instance_(InstanceName{options.project, options.instance}),
      instance_name_(instance_.Full()),
      features_(FeatureHeader()),
      data_(google::bigtable::v2::Bigtable::NewStub(data)),
      admin_(google::bigtable::admin::v2::BigtableTableAdmin::NewStub(admin)),
      instance_admin_(google::bigtable::admin::v2::BigtableInstanceAdmin::NewStub(admin)),
      operations_(google::longrunning::Operations::NewStub(admin)),
      faults_(lbt::v1::Faults::NewStub(data)) {}

RemoteCalls::Clock::time_point RemoteCalls::Deadline() const {
  return options_.timeout_ms > 0 ? Clock::now() + std::chrono::milliseconds(options_.timeout_ms)
                                 : Clock::time_point::max();
}

std::unique_ptr<grpc::ClientContext> RemoteCalls::NewContext(std::string_view routing_key, std::string_view resource,
                                                             Clock::time_point deadline) const {
  auto context = std::make_unique<grpc::ClientContext>();
  if (deadline != Clock::time_point::max()) context->set_deadline(deadline);
  std::string params = fmt::format("{}={}", routing_key, UrlEncode(resource));
  if (!options_.app_profile.empty()) params += "&app_profile_id=" + UrlEncode(options_.app_profile);
  context->AddMetadata("x-goog-request-params", params);
  context->AddMetadata("bigtable-features", features_);
  return context;
}

void RemoteCalls::Register(grpc::ClientContext* context) {
  std::lock_guard<std::mutex> lock(mu_);
  in_flight_.insert(context);
}

void RemoteCalls::Unregister(grpc::ClientContext* context) {
  std::lock_guard<std::mutex> lock(mu_);
  in_flight_.erase(context);
}

void RemoteCalls::CancelAll() {
  ++cancellations_;
  std::lock_guard<std::mutex> lock(mu_);
  for (grpc::ClientContext* context : in_flight_) context->TryCancel();
}

std::string RemoteCalls::TableName(std::string_view table) const { return FullTableName(instance_, table); }

}  // namespace lbt
