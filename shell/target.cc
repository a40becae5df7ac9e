#include "shell/target.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <optional>

#include "local/local_bigtable.h"
#include "shell/database_options.h"
#include "shell/served_database.h"
#include "storage/database.h"

namespace lbt {

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

namespace {

// A client of the `lbt serve` on `address` that serves the local database,
// for the instance the options name. In lbt, this process becomes lbt-grpc.
Result<std::unique_ptr<Bigtable>> ConnectServer(char** argv, const LocalOptions& local, const std::string& address) {
  const InstanceName instance = local.instance.value_or(DefaultInstanceName());
  RemoteOptions remote;
  remote.project = instance.project;
  remote.instance = instance.instance;
  remote.emulator_host = address;
  return OpenRemote(argv, remote);
}

// The server holds writes no other process can see yet: go through it, as
// any client of it would, and to the database itself once it stops.
Result<Target> OpenServed(char** argv, const LocalOptions& local, const std::string& address) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> server, ConnectServer(argv, local, address));
  // Said here, in the process that connected (lbt hands the session to
  // lbt-grpc, which says it once), and only to a person at a terminal.
  if (::isatty(STDERR_FILENO) == 1) {
    std::fprintf(stderr, "note: %s is served by lbt serve on %s; commands go through it\n", local.db_dir.c_str(),
                 address.c_str());
  }
  auto served = std::make_unique<ServedDatabase>(
      std::move(server), address, local, [dir = local.db_dir] { return ServingAddress(dir); },
      [argv, local](const std::string& now) { return ConnectServer(argv, local, now); },
      // On a terminal the note takes the line it lands on whole (the
      // switch may come while Tab completion reads the database, beside
      // the prompt, which is then drawn again below it).
      [terminal = ::isatty(STDERR_FILENO) == 1](const std::string& note) {
        std::fprintf(stderr, "%snote: %s\n", terminal ? "\r\033[K" : "", note.c_str());
      });
  ServedDatabase* follow = served.get();
  return Target{std::move(served), [follow] { follow->Follow(); }};
}

}  // namespace

Result<Target> OpenTarget(char** argv, const ShellOptions& options) {
  if (options.remote) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> remote, OpenRemote(argv, *options.remote));
    return Target{std::move(remote), {}};
  }
  if (std::optional<std::string> address = ServingAddress(options.local.db_dir)) {
    return OpenServed(argv, options.local, *address);
  }
  return Target{std::make_unique<LocalBigtable>(options.local.db_dir, DatabaseOptionsFor(options.local),
                                                options.local.instance.value_or(DefaultInstanceName())),
                {}};
}

}  // namespace lbt
