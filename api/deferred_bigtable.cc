#include "api/deferred_bigtable.h"
#include "api/instance_admin.h"

#include <chrono>

namespace lbt {

DeferredBigtable::DeferredBigtable(InstanceName instance, std::string describe, std::string prompt, Opener open)
    : ForwardingBigtable(nullptr),
      instance_(std::move(instance)),
      describe_(std::move(describe)),
      prompt_(std::move(prompt)),
      open_(std::move(open)) {}

Result<Bigtable*> DeferredBigtable::Target() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tried_) {
    tried_ = true;
    Result<std::unique_ptr<Bigtable>> opened = open_();
    if (opened.ok()) {
      opened_target_ = std::move(opened).value();
      opened_.store(opened_target_.get());
    } else {
      open_status_ = opened.status();
    }
    open_ = nullptr;
  }
  if (!open_status_.ok()) return open_status_;
  return opened_target_.get();
}

bool DeferredBigtable::Exists() {
  Result<Bigtable*> target = Target();
  return !target.ok() || (*target)->Exists();
}

int64_t DeferredBigtable::NowMicros() const {
  Bigtable* opened = opened_.load();
  if (opened != nullptr) return opened->NowMicros();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

sql::QueryService* DeferredBigtable::query_service() {
  Result<Bigtable*> target = Target();
  return target.ok() ? (*target)->query_service() : nullptr;
}

InstanceAdmin* DeferredBigtable::instance_admin() {
  Result<Bigtable*> target = Target();
  return target.ok() ? (*target)->instance_admin() : nullptr;
}

ServerFaults* DeferredBigtable::server_faults() {
  Result<Bigtable*> target = Target();
  return target.ok() ? (*target)->server_faults() : nullptr;
}

void DeferredBigtable::CancelCalls() {
  Bigtable* opened = opened_.load();
  if (opened != nullptr) opened->CancelCalls();
}

}  // namespace lbt
