// OperationStore: the long-running operations lbt serve has returned, for
// google.longrunning.Operations to look up. Every change lbt makes is done
// when its RPC returns, so each operation is stored done; the newest
// kMaxKeptOperations are kept, in memory (a restarted server knows none,
// and GetOperation answers NOT_FOUND for them).
//
// Threading: safe from any thread.

#ifndef LBT_SERVER_OPERATION_STORE_H_
#define LBT_SERVER_OPERATION_STORE_H_

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "google/longrunning/operations.pb.h"

namespace lbt::server {

inline constexpr size_t kMaxKeptOperations = 1000;

class OperationStore {
 public:
  // Names `operation` "<parent>/operations/<n>" with a number never given
  // before by this store, keeps it, and returns it.
  google::longrunning::Operation Add(std::string_view parent, google::longrunning::Operation operation);
  // NotFound if the operation is not kept.
  Result<google::longrunning::Operation> Get(std::string_view name) const;
  Status Delete(std::string_view name);
  // The kept operations whose names start with `prefix`, oldest first.
  std::vector<google::longrunning::Operation> List(std::string_view prefix) const;

 private:
  mutable std::mutex mu_;
  uint64_t next_ = 1;
  std::deque<google::longrunning::Operation> kept_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_OPERATION_STORE_H_
