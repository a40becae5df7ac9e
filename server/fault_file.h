// `lbt serve --faults FILE`: a FaultInjector's rules kept those of a rule
// file (fault_rules.h), read at start and re-read within a second of a
// change, so that a test can rewrite it between steps.

#ifndef LBT_SERVER_FAULT_FILE_H_
#define LBT_SERVER_FAULT_FILE_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/status.h"
#include "server/fault_rules.h"

namespace lbt::server {

class FaultFile {
 public:
  // Reads `path` into `faults` and starts watching it. INVALID_ARGUMENT in
  // one line naming the file when it cannot be read or its rules are bad.
  // REQUIRES: `faults` outlives the FaultFile.
  static Result<std::unique_ptr<FaultFile>> Watch(std::string path, FaultInjector* faults);
  ~FaultFile();

  // Re-reads the file if it changed (its time or size). New rules replace
  // the old, said on stderr; a bad file keeps the old, saying why.
  void Poll();

 private:
  FaultFile(std::string path, FaultInjector* faults) : path_(std::move(path)), faults_(faults) {}
  Status Load();

  const std::string path_;
  FaultInjector* const faults_;
  std::string stamp_;  // the file's time and size when last read
  std::mutex mu_;
  std::condition_variable stop_changed_;
  bool stop_ = false;
  std::thread watcher_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_FAULT_FILE_H_
