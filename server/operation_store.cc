#include "server/operation_store.h"

#include <fmt/format.h>

#include <algorithm>

namespace lbt::server {

google::longrunning::Operation OperationStore::Add(std::string_view parent, google::longrunning::Operation operation) {
  std::lock_guard<std::mutex> lock(mu_);
  operation.set_name(fmt::format("{}/operations/{}", parent, next_++));
  kept_.push_back(operation);
  if (kept_.size() > kMaxKeptOperations) kept_.pop_front();
  return operation;
}

Result<google::longrunning::Operation> OperationStore::Get(std::string_view name) const {
  if (name.empty()) return Status::InvalidArgument("name: must name an operation");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(kept_.begin(), kept_.end(), [&](const auto& op) { return op.name() == name; });
  if (it == kept_.end()) {
    return Status::NotFound(fmt::format("name: operation {} is not known to this server", name));
  }
  return *it;
}

Status OperationStore::Delete(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("name: must name an operation");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(kept_.begin(), kept_.end(), [&](const auto& op) { return op.name() == name; });
  if (it == kept_.end()) {
    return Status::NotFound(fmt::format("name: operation {} is not known to this server", name));
  }
  kept_.erase(it);
  return Status::OK();
}

std::vector<google::longrunning::Operation> OperationStore::List(std::string_view prefix) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<google::longrunning::Operation> found;
  for (const auto& op : kept_) {
    if (std::string_view(op.name()).substr(0, prefix.size()) == prefix) found.push_back(op);
  }
  return found;
}

}  // namespace lbt::server
