// Status and Result<T>: how the engine reports errors.
//
// Errors are values at the engine boundary: no engine method throws. A Status
// carries a code and one line of text meant for the user, saying what was
// wrong and, where it helps, what was expected. "Row not found" is not an
// error; methods that look a row up return an empty optional instead.

#ifndef LBT_API_STATUS_H_
#define LBT_API_STATUS_H_

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lbt {

class Status {
 public:
  enum class Code {
    kOk = 0,
    kNotFound,            // a table or family that does not exist
    kAlreadyExists,       // creating a table or family that exists
    kInvalidArgument,     // a malformed name, timestamp, policy, ...
    kFailedPrecondition,  // a well-formed request the current state refuses
    kOutOfRange,          // a Bigtable limit would be exceeded
    kResourceExhausted,   // the disk or the address space is full
    kCorruption,          // stored bytes are not what lbt wrote
    kIOError,             // the operating system refused
    kCancelled,           // the caller asked to stop
    // From a remote Bigtable:
    kAborted,           // the request conflicted with another; or some rows of a batch failed
    kUnavailable,       // the service cannot be reached now; a retry may succeed
    kDeadlineExceeded,  // the request ran out of time
    kPermissionDenied,  // the credentials may not do this
    kUnauthenticated,   // no valid credentials
    kUnimplemented,     // the service does not offer this
    kInternal,          // the service failed
  };

  // What a client should do about an error, where Bigtable says it in the
  // status's details (a google.rpc.PreconditionFailure violation's type).
  enum class Reason : unsigned char {
    kNone = 0,
    // A prepared query's plan no longer holds (its table's schema changed,
    // or its time ran out): the client prepares the query again.
    kPreparedQueryExpired,
  };

  // Creates an OK status.
  Status() = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return {Code::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {Code::kAlreadyExists, std::move(msg)}; }
  static Status InvalidArgument(std::string msg) { return {Code::kInvalidArgument, std::move(msg)}; }
  static Status FailedPrecondition(std::string msg) { return {Code::kFailedPrecondition, std::move(msg)}; }
  static Status OutOfRange(std::string msg) { return {Code::kOutOfRange, std::move(msg)}; }
  static Status ResourceExhausted(std::string msg) { return {Code::kResourceExhausted, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {Code::kCorruption, std::move(msg)}; }
  static Status IOError(std::string msg) { return {Code::kIOError, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {Code::kCancelled, std::move(msg)}; }
  static Status Aborted(std::string msg) { return {Code::kAborted, std::move(msg)}; }
  static Status Unavailable(std::string msg) { return {Code::kUnavailable, std::move(msg)}; }
  static Status PermissionDenied(std::string msg) { return {Code::kPermissionDenied, std::move(msg)}; }
  static Status FromCode(Code code, std::string msg) { return {code, std::move(msg)}; }
  // FailedPrecondition with reason kPreparedQueryExpired.
  static Status PreparedQueryExpired(std::string msg) {
    Status s(Code::kFailedPrecondition, std::move(msg));
    s.reason_ = Reason::kPreparedQueryExpired;
    return s;
  }

  // This status with a retry delay: how long a client should wait before
  // it tries again (google.rpc.RetryInfo in gRPC's status details).
  Status WithRetryDelay(int64_t milliseconds) const {
    Status s = *this;
    s.retry_delay_ms_ = milliseconds;
    return s;
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  Reason reason() const { return reason_; }
  // The retry delay, in milliseconds; -1 when the status gives none.
  int64_t retry_delay_ms() const { return retry_delay_ms_; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsAlreadyExists() const { return code_ == Code::kAlreadyExists; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsOutOfRange() const { return code_ == Code::kOutOfRange; }

  // The one-line message, without the code's name.
  const std::string& message() const { return message_; }

  // "<code name>: <message>", or "OK".
  std::string ToString() const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  Reason reason_ = Reason::kNone;
  int64_t retry_delay_ms_ = -1;
  std::string message_;
};

// Result<T> holds either a value or a non-OK Status.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "a Result built from a Status must carry an error");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace lbt

// Returns early from the enclosing function when `expr` yields an error.
#define LBT_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::lbt::Status lbt_status_ = (expr);        \
    if (!lbt_status_.ok()) return lbt_status_; \
  } while (0)

#define LBT_CONCAT_INNER_(a, b) a##b
#define LBT_CONCAT_(a, b) LBT_CONCAT_INNER_(a, b)

// Declares `lhs` from a Result-producing `rexpr`, or returns its error.
#define LBT_ASSIGN_OR_RETURN(lhs, rexpr) LBT_ASSIGN_OR_RETURN_IMPL_(LBT_CONCAT_(lbt_result_, __LINE__), lhs, rexpr)
#define LBT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                               \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#endif  // LBT_API_STATUS_H_
