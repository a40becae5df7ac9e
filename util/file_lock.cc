#include "util/file_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace lbt {

FileLock::FileLock(const std::string& path, Mode mode) {
  fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  const int how = mode == Mode::kWait ? LOCK_EX : LOCK_EX | LOCK_NB;
  int locked;
  while ((locked = ::flock(fd_, how)) != 0 && errno == EINTR) {
  }
  if (locked != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the lock
}

}  // namespace lbt
