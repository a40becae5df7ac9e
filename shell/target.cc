#include "shell/target.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <optional>

#include "engine/local_bigtable.h"

namespace lbt {

DatabaseOptions DatabaseOptionsFor(const LocalOptions& local) {
  DatabaseOptions db;
  db.read_only = local.read_only;
  db.sync = local.sync;
  db.gc = local.lazy_gc ? GcMode::kLazy : GcMode::kEager;
  db.gc_interval = std::chrono::milliseconds(static_cast<int64_t>(local.gc_interval_seconds * 1000));
  // On a terminal a progress line is rewritten in place, and the next note
  // replaces it.
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  db.note = [terminal](const std::string& note) {
    std::fprintf(stderr, "%snote: %s\n", terminal ? "\r\033[K" : "", note.c_str());
  };
  if (terminal) {
    db.progress = [](const std::string& line) { std::fprintf(stderr, "\r\033[K%s", line.c_str()); };
  }
  return db;
}

std::optional<std::string> ServingAddress(const std::string& dir) {
  const int fd = ::open((dir + "/" + std::string(kLogLockFile)).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // Held alone: a server keeps the directory's newest writes in its log.
  const bool served = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // and with it the shared lock, if taken
  if (!served) return std::nullopt;
  std::ifstream in(dir + "/" + std::string(kServeAddressFile));
  std::string address;
  if (!std::getline(in, address) || address.empty()) return std::nullopt;
  return address;
}

Result<std::unique_ptr<Bigtable>> OpenTarget(char** argv, const ShellOptions& options) {
  if (options.remote) return OpenRemote(argv, *options.remote);
  if (std::optional<std::string> address = ServingAddress(options.local.db_dir)) {
    // The server holds writes no other process can see yet: go through it,
    // as any client of it would.
    if (::isatty(STDERR_FILENO) == 1) {
      std::fprintf(stderr, "note: %s is served by lbt serve on %s; commands go through it\n",
                   options.local.db_dir.c_str(), address->c_str());
    }
    const InstanceName instance = options.local.instance.value_or(DefaultInstanceName());
    RemoteOptions remote;
    remote.project = instance.project;
    remote.instance = instance.instance;
    remote.emulator_host = *address;
    return OpenRemote(argv, remote);
  }
  return std::unique_ptr<Bigtable>(std::make_unique<LocalBigtable>(
      options.local.db_dir, DatabaseOptionsFor(options.local), options.local.instance.value_or(DefaultInstanceName())));
}

}  // namespace lbt
