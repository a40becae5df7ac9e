#include "api/status.h"

namespace lbt {

namespace {
const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "OK";
    case Status::Code::kNotFound: return "not found";
    case Status::Code::kAlreadyExists: return "already exists";
    case Status::Code::kInvalidArgument: return "invalid argument";
    case Status::Code::kFailedPrecondition: return "failed precondition";
    case Status::Code::kOutOfRange: return "out of range";
    case Status::Code::kResourceExhausted: return "resource exhausted";
    case Status::Code::kCorruption: return "corruption";
    case Status::Code::kIOError: return "I/O error";
    case Status::Code::kCancelled: return "cancelled";
    case Status::Code::kAborted: return "aborted";
    case Status::Code::kUnavailable: return "unavailable";
    case Status::Code::kDeadlineExceeded: return "deadline exceeded";
    case Status::Code::kPermissionDenied: return "permission denied";
    case Status::Code::kUnauthenticated: return "unauthenticated";
    case Status::Code::kUnimplemented: return "unimplemented";
    case Status::Code::kInternal: return "internal";
  }
  return "unknown";
}
}  // namespace

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace lbt
