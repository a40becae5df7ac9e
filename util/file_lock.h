// An exclusive advisory lock (flock) on a file, held while the object
// lives. The kernel releases it when its process dies, kill -9 included,
// so a lock never outlives the work it guards.

#ifndef LBT_UTIL_FILE_LOCK_H_
#define LBT_UTIL_FILE_LOCK_H_

#include <string>

namespace lbt {

class FileLock {
 public:
  enum class Mode {
    kWait,  // blocks until the lock is free
    kTry,   // gives up at once when another open file holds it
  };

  // Opens `path` (creating it, mode 0644) and locks it. held() says whether
  // it did: false when `mode` is kTry and another holds it, or when the
  // file cannot be opened (a read-only directory). Another FileLock on the
  // same path conflicts with this one even in the same process.
  FileLock(const std::string& path, Mode mode);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace lbt

#endif  // LBT_UTIL_FILE_LOCK_H_
