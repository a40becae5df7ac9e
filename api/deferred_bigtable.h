// DeferredBigtable: a Bigtable that opens the real one on first use.
//
// Remote mode wraps its client in one, so that commands which never reach
// the service (help, version, a mistyped command) need no credentials and
// make no connection, as with cbt. The first operation opens the target;
// if that fails, it and every later operation fail with the same status.
//
// REQUIRES: what `open` returns has no local maintenance (local() is
// nullptr), as for a remote Bigtable: local() answers without opening.
//
// Threading: as the wrapped Bigtable; CancelCalls is safe from any thread.

#ifndef LBT_API_DEFERRED_BIGTABLE_H_
#define LBT_API_DEFERRED_BIGTABLE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "api/bigtable.h"
#include "api/forwarding_bigtable.h"
#include "api/instance_admin.h"

namespace lbt {

// A ForwardingBigtable whose target is opened by its first Status or
// Result call: it needs no list of the methods it forwards.
class DeferredBigtable final : public ForwardingBigtable {
 public:
  using Opener = std::function<Result<std::unique_ptr<Bigtable>>()>;

  // `instance`, `describe` and `prompt` answer instance(), Describe() and
  // PromptName() without opening. `open` is called at most once.
  DeferredBigtable(InstanceName instance, std::string describe, std::string prompt, Opener open);

  InstanceName instance() override { return instance_; }
  std::string Describe() const override { return describe_; }
  std::string PromptName() const override { return prompt_; }
  // Opens the target; true also when opening fails (the error comes with
  // the next call).
  bool Exists() override;
  // The target's clock once it is open; the system clock before.
  int64_t NowMicros() const override;
  LocalMaintenance* local() override { return nullptr; }
  // Only calls to a target already open are in flight.
  void CancelCalls() override;
  sql::QueryService* query_service() override;
  InstanceAdmin* instance_admin() override;
  ServerFaults* server_faults() override;

 protected:
  // The opened target, opening it on the first call.
  Result<Bigtable*> Target() override;

 private:
  const InstanceName instance_;
  const std::string describe_;
  const std::string prompt_;
  Opener open_;
  std::mutex mu_;
  bool tried_ = false;
  Status open_status_;
  std::unique_ptr<Bigtable> opened_target_;
  // opened_target_.get() once opened, for CancelCalls from another thread.
  std::atomic<Bigtable*> opened_{nullptr};
};

}  // namespace lbt

#endif  // LBT_API_DEFERRED_BIGTABLE_H_
