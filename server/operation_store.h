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
  // A page of the kept operations of `resource` ("projects/p/instances/i",
  // also written "operations/projects/p/instances/i" as production's
  // Operations API names it; "" for all): those on it or on a resource
  // under it, never on one whose name merely starts the same
  // ("instances/abcdefg" is not under "instances/abcdef"), oldest first.
  // At most `page_size` (0: all) after `page_token`, with the next
  // page's token ("" after the last). InvalidArgument for a negative page
  // size or a token this store did not give.
  struct Page {
    std::vector<google::longrunning::Operation> operations;
    std::string next_page_token;
  };
  Result<Page> List(std::string_view resource, int32_t page_size, std::string_view page_token) const;

 private:
  struct Kept {
    uint64_t number;    // the n of its name, in the order they were added
    std::string owner;  // the name without "/operations/<n>"
    google::longrunning::Operation operation;
  };

  mutable std::mutex mu_;
  uint64_t next_ = 1;
  std::deque<Kept> kept_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_OPERATION_STORE_H_
