// A server stream on gRPC's callback API: a StreamReactor sends what its
// ResponseSource produces, one response at a time, holding no thread while
// the client takes a response or while the source waits for something to
// send (a change stream between changes).
//
// The reactor asks the source for a response, writes it, and asks again
// once the client took it; a source that has nothing yet names a delay,
// and the reactor asks again after it (worker_pool.h's timers). Only the
// first request for a response may run inline, on the gRPC thread that
// took the call (a point lookup answers without a thread hand-off); every
// later one runs on the runtime's workers. Each write runs under the
// stall watch (stall_watch.h). The call holds its place in the gate, and
// in its StreamLimit, until it is done.
//
// Threading: one step of a call runs at a time; its source needs no lock.

#ifndef LBT_SERVER_STREAM_REACTOR_H_
#define LBT_SERVER_STREAM_REACTOR_H_

#include <grpcpp/support/server_callback.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

#include "api/status.h"
#include "proto/grpc_status.h"
#include "server/call_runtime.h"
#include "server/handler.h"
#include "server/stream_limit.h"

namespace lbt::server {

// What a source produced in one step.
enum class Produced {
  kResponse,      // *response is filled; more may follow
  kLastResponse,  // *response is filled, and it ends the stream, OK
  kNothingYet,    // nothing to send yet: ask again after *retry_after
  kEnd,           // the stream ends, OK, with nothing more to send
};

template <typename Response>
class ResponseSource {
 public:
  virtual ~ResponseSource() = default;
  // Produces the stream's next step. An error ends the call with it.
  virtual Result<Produced> Next(Response* response, std::chrono::milliseconds* retry_after) = 0;
};

template <typename Response>
class StreamReactor final : public grpc::ServerWriteReactor<Response> {
 public:
  // Starts a stream of `source`'s responses for `context`'s call, unless
  // the gate or `limit` (nullptr: none) refuses it, which answers at once.
  // `first` says where the first step runs.
  static grpc::ServerWriteReactor<Response>* Start(grpc::CallbackServerContext* context, CallRuntime* runtime,
                                                   StreamLimit* limit, Runs first,
                                                   std::unique_ptr<ResponseSource<Response>> source) {
    auto* reactor = new StreamReactor(context, runtime, std::move(source));
    Status admitted = runtime->gate()->Enter();
    reactor->admitted_ = admitted.ok();
    if (admitted.ok() && limit != nullptr) {
      reactor->slot_.emplace(limit);
      if (!reactor->slot_->taken()) admitted = reactor->slot_->Refusal();
    }
    if (!admitted.ok()) {
      reactor->End(proto::ToGrpcStatus(admitted));
    } else if (first == Runs::kInline) {
      reactor->Step();
    } else {
      reactor->StepOnPool();
    }
    return reactor;
  }

  void OnWriteDone(bool ok) override {
    guard_.reset();
    if (!ok) return End(grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
    StepOnPool();
  }
  void OnCancel() override { cancelled_ = true; }
  void OnDone() override {
    guard_.reset();
    delete this;
  }

 private:
  StreamReactor(grpc::CallbackServerContext* context, CallRuntime* runtime,
                std::unique_ptr<ResponseSource<Response>> source)
      : context_(context), runtime_(runtime), source_(std::move(source)) {}

  void StepOnPool() {
    runtime_->pool()->Run([this] { Step(); });
  }

  // Gives back what the call holds (its source, its place in the gate and
  // in its limit) once it has nothing more to do, then ends it, with
  // `last`, if given, as its last response. OnDone may come much later
  // (gRPC runs it once the client has the status, behind newer calls), so
  // a busy server must not count ended calls against its bounds.
  void End(const grpc::Status& status, const Response* last = nullptr) {
    source_.reset();
    slot_.reset();
    if (admitted_) runtime_->gate()->Leave();
    admitted_ = false;
    if (last == nullptr) return this->Finish(status);
    grpc::WriteOptions options;
    // The last response goes out with the call's status, in one write.
    this->StartWriteAndFinish(last, options.set_last_message(), status);
  }

  void Step() {
    if (cancelled_ || context_->IsCancelled()) {
      return End(grpc::Status(grpc::StatusCode::CANCELLED, "the call was cancelled"));
    }
    std::chrono::milliseconds retry_after{0};
    Result<Produced> produced = source_->Next(&response_, &retry_after);
    if (!produced.ok()) return End(proto::ToGrpcStatus(produced.status()));
    switch (*produced) {
      case Produced::kResponse: guard_.emplace(runtime_->stalls(), context_); return this->StartWrite(&response_);
      case Produced::kLastResponse:
        guard_.emplace(runtime_->stalls(), context_);
        return End(grpc::Status::OK, &response_);
      case Produced::kNothingYet: return runtime_->pool()->RunAfter(retry_after, [this] { Step(); });
      case Produced::kEnd: return End(grpc::Status::OK);
    }
  }

  grpc::CallbackServerContext* const context_;
  CallRuntime* const runtime_;
  std::unique_ptr<ResponseSource<Response>> source_;
  Response response_;  // the one being written
  std::optional<StallWatch::Guard> guard_;
  std::optional<StreamLimit::Slot> slot_;
  bool admitted_ = false;
  std::atomic<bool> cancelled_{false};
};

// A source of responses computed all at once by `compute` (a
// Result<std::vector<Response>>() callable), in its first step: for short
// streams (SampleRowKeys, MutateRows' one response).
template <typename Response, typename Compute>
class ComputedSource final : public ResponseSource<Response> {
 public:
  explicit ComputedSource(Compute compute) : compute_(std::move(compute)) {}
  Result<Produced> Next(Response* response, std::chrono::milliseconds*) override {
    if (!computed_) {
      LBT_ASSIGN_OR_RETURN(responses_, compute_());
      computed_ = true;
    }
    if (next_ == responses_.size()) return Produced::kEnd;
    *response = std::move(responses_[next_++]);
    return next_ == responses_.size() ? Produced::kLastResponse : Produced::kResponse;
  }

 private:
  Compute compute_;
  bool computed_ = false;
  std::vector<Response> responses_;
  size_t next_ = 0;
};

template <typename Response, typename Compute>
std::unique_ptr<ResponseSource<Response>> Computed(Compute compute) {
  return std::make_unique<ComputedSource<Response, Compute>>(std::move(compute));
}

}  // namespace lbt::server

#endif  // LBT_SERVER_STREAM_REACTOR_H_
