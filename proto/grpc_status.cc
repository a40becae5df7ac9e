#include "proto/grpc_status.h"

namespace lbt::proto {

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
  }
  return grpc::Status(code, status.message());
}

}  // namespace lbt::proto
