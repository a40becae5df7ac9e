#include "proto/grpc_status.h"

#include "google/rpc/error_details.pb.h"
#include "util/bytes.h"

namespace lbt::proto {

namespace {

// The violation type production's clients look for (the Node and Java
// libraries prepare the query again on it).
constexpr std::string_view kPreparedQueryExpired = "PREPARED_QUERY_EXPIRED";

// The details a status carries, as a google.rpc.Status's: a
// PreconditionFailure violation of its reason's type, a RetryInfo with
// its retry delay. Empty when it has neither.
void AddDetails(const Status& status, const std::string& message, google::rpc::Status* rich) {
  if (status.reason() == Status::Reason::kPreparedQueryExpired) {
    google::rpc::PreconditionFailure failure;
    google::rpc::PreconditionFailure::Violation* violation = failure.add_violations();
    violation->set_type(std::string(kPreparedQueryExpired));
    violation->set_description(message);
    rich->add_details()->PackFrom(failure);
  }
  if (status.retry_delay_ms() >= 0) {
    google::rpc::RetryInfo retry;
    retry.mutable_retry_delay()->set_seconds(status.retry_delay_ms() / 1000);
    retry.mutable_retry_delay()->set_nanos(static_cast<int32_t>(status.retry_delay_ms() % 1000 * 1'000'000));
    rich->add_details()->PackFrom(retry);
  }
}

// grpc-status-details-bin for a status with details, or "".
std::string DetailsOf(grpc::StatusCode code, const std::string& message, const Status& status) {
  google::rpc::Status rich;
  AddDetails(status, message, &rich);
  if (rich.details().empty()) return "";
  rich.set_code(code);
  rich.set_message(message);
  return rich.SerializeAsString();
}

// The retry delay a service's status details give, or -1.
int64_t RetryDelayOf(const std::string& details) {
  google::rpc::Status rich;
  if (details.empty() || !rich.ParseFromString(details)) return -1;
  for (const google::protobuf::Any& detail : rich.details()) {
    google::rpc::RetryInfo retry;
    if (detail.UnpackTo(&retry)) return retry.retry_delay().seconds() * 1000 + retry.retry_delay().nanos() / 1'000'000;
  }
  return -1;
}

// The reason a service's status details give, if lbt knows it.
Status::Reason ReasonOf(const grpc::Status& status) {
  if (status.error_details().empty()) return Status::Reason::kNone;
  google::rpc::Status rich;
  if (!rich.ParseFromString(status.error_details())) return Status::Reason::kNone;
  for (const google::protobuf::Any& detail : rich.details()) {
    google::rpc::PreconditionFailure failure;
    if (!detail.UnpackTo(&failure)) continue;
    for (const auto& violation : failure.violations()) {
      if (violation.type() == kPreparedQueryExpired) return Status::Reason::kPreparedQueryExpired;
    }
  }
  return Status::Reason::kNone;
}

}  // namespace

grpc::Status ToGrpcStatus(const Status& status) {
  using C = Status::Code;
  grpc::StatusCode code = grpc::StatusCode::INTERNAL;
  switch (status.code()) {
    case C::kOk: return grpc::Status::OK;
    case C::kNotFound: code = grpc::StatusCode::NOT_FOUND; break;
    case C::kAlreadyExists: code = grpc::StatusCode::ALREADY_EXISTS; break;
    case C::kInvalidArgument: code = grpc::StatusCode::INVALID_ARGUMENT; break;
    case C::kFailedPrecondition: code = grpc::StatusCode::FAILED_PRECONDITION; break;
    case C::kOutOfRange: code = grpc::StatusCode::INVALID_ARGUMENT; break;
    case C::kResourceExhausted: code = grpc::StatusCode::RESOURCE_EXHAUSTED; break;
    case C::kCorruption: code = grpc::StatusCode::DATA_LOSS; break;
    case C::kIOError: code = grpc::StatusCode::INTERNAL; break;
    case C::kCancelled: code = grpc::StatusCode::CANCELLED; break;
    case C::kAborted: code = grpc::StatusCode::ABORTED; break;
    case C::kUnavailable: code = grpc::StatusCode::UNAVAILABLE; break;
    case C::kDeadlineExceeded: code = grpc::StatusCode::DEADLINE_EXCEEDED; break;
    case C::kPermissionDenied: code = grpc::StatusCode::PERMISSION_DENIED; break;
    case C::kUnauthenticated: code = grpc::StatusCode::UNAUTHENTICATED; break;
    case C::kUnimplemented: code = grpc::StatusCode::UNIMPLEMENTED; break;
    case C::kInternal: code = grpc::StatusCode::INTERNAL; break;
  }
  std::string message = Abbreviated(status.message(), kMaxStatusMessageBytes);
  if (status.reason() == Status::Reason::kNone && status.retry_delay_ms() < 0) {
    return grpc::Status(code, std::move(message));
  }
  std::string details = DetailsOf(code, message, status);
  return grpc::Status(code, std::move(message), std::move(details));
}

Status FromGrpcStatus(const grpc::Status& status) {
  using G = grpc::StatusCode;
  using C = Status::Code;
  C code = C::kInternal;
  switch (status.error_code()) {
    case G::OK: return Status::OK();
    case G::NOT_FOUND: code = C::kNotFound; break;
    case G::ALREADY_EXISTS: code = C::kAlreadyExists; break;
    case G::INVALID_ARGUMENT: code = C::kInvalidArgument; break;
    case G::FAILED_PRECONDITION: code = C::kFailedPrecondition; break;
    case G::OUT_OF_RANGE: code = C::kOutOfRange; break;
    case G::RESOURCE_EXHAUSTED: code = C::kResourceExhausted; break;
    case G::DATA_LOSS: code = C::kCorruption; break;
    case G::CANCELLED: code = C::kCancelled; break;
    case G::ABORTED: code = C::kAborted; break;
    case G::UNAVAILABLE: code = C::kUnavailable; break;
    case G::DEADLINE_EXCEEDED: code = C::kDeadlineExceeded; break;
    case G::PERMISSION_DENIED: code = C::kPermissionDenied; break;
    case G::UNAUTHENTICATED: code = C::kUnauthenticated; break;
    case G::UNIMPLEMENTED: code = C::kUnimplemented; break;
    default: code = C::kInternal; break;
  }
  Status out = code == C::kFailedPrecondition && ReasonOf(status) == Status::Reason::kPreparedQueryExpired
                   ? Status::PreparedQueryExpired(status.error_message())
                   : Status::FromCode(code, status.error_message());
  if (const int64_t delay = RetryDelayOf(status.error_details()); delay >= 0) out = out.WithRetryDelay(delay);
  return out;
}

google::rpc::Status ToRpcStatus(const Status& status) {
  const grpc::Status g = ToGrpcStatus(status);
  google::rpc::Status out;
  out.set_code(g.error_code());
  out.set_message(g.error_message());
  AddDetails(status, g.error_message(), &out);
  return out;
}

Status FromRpcStatus(const google::rpc::Status& status) {
  const std::string details = status.details().empty() ? std::string() : status.SerializeAsString();
  return FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(status.code()), status.message(), details));
}

}  // namespace lbt::proto
