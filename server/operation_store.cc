#include "server/operation_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "util/bytes.h"

namespace lbt::server {

namespace {

// Production's Operations API writes a resource "operations/<name>".
std::string_view WithoutOperationsPrefix(std::string_view resource) {
  constexpr std::string_view kPrefix = "operations/";
  return resource.substr(0, kPrefix.size()) == kPrefix ? resource.substr(kPrefix.size()) : resource;
}

}  // namespace

google::longrunning::Operation OperationStore::Add(std::string_view parent, google::longrunning::Operation operation) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t number = next_++;
  operation.set_name(fmt::format("{}/operations/{}", parent, number));
  kept_.push_back({number, std::string(WithoutOperationsPrefix(parent)), operation});
  if (kept_.size() > kMaxKeptOperations) kept_.pop_front();
  return operation;
}

Result<google::longrunning::Operation> OperationStore::Get(std::string_view name) const {
  if (name.empty()) return Status::InvalidArgument("name: must name an operation");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.operation.name() == name; });
  if (it == kept_.end()) {
    return Status::NotFound(fmt::format("name: operation {} is not known to this server", Abbreviated(name)));
  }
  return it->operation;
}

Status OperationStore::Delete(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("name: must name an operation");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.operation.name() == name; });
  if (it == kept_.end()) {
    return Status::NotFound(fmt::format("name: operation {} is not known to this server", Abbreviated(name)));
  }
  kept_.erase(it);
  return Status::OK();
}

namespace {

// Whether an operation on `owner` is one of `resource`'s: on it, or on a
// resource whose name goes on from it after a '/'.
bool Owns(std::string_view resource, std::string_view owner) {
  if (resource.empty()) return true;
  if (owner.substr(0, resource.size()) != resource) return false;
  return owner.size() == resource.size() || owner[resource.size()] == '/';
}

}  // namespace

Result<OperationStore::Page> OperationStore::List(std::string_view resource, int32_t page_size,
                                                  std::string_view page_token) const {
  if (page_size < 0) return Status::InvalidArgument("page_size: must not be negative");
  resource = WithoutOperationsPrefix(resource);
  std::lock_guard<std::mutex> lock(mu_);
  // A page token is the number of the last operation the page before listed.
  uint64_t after = 0;
  if (!page_token.empty()) {
    auto [end, ec] = std::from_chars(page_token.data(), page_token.data() + page_token.size(), after);
    if (ec != std::errc() || end != page_token.data() + page_token.size() || after == 0 || after >= next_) {
      return Status::InvalidArgument(
          fmt::format("page_token: '{}' is not a token this server gave", Abbreviated(page_token)));
    }
  }
  Page page;
  const size_t most = page_size > 0 ? static_cast<size_t>(page_size) : kept_.size();
  uint64_t last_listed = after;
  for (const Kept& k : kept_) {
    if (k.number <= after || !Owns(resource, k.owner)) continue;
    if (page.operations.size() == most) {
      page.next_page_token = std::to_string(last_listed);
      break;
    }
    page.operations.push_back(k.operation);
    last_listed = k.number;
  }
  return page;
}

}  // namespace lbt::server
