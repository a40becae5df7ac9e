// The composition root: the one place that picks what commands run
// against, a local database or a remote Bigtable, from the options.

#ifndef LBT_SHELL_TARGET_H_
#define LBT_SHELL_TARGET_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "api/bigtable.h"
#include "shell/options.h"

namespace lbt {

// What a session runs on, and what keeps it current.
struct Target {
  std::unique_ptr<Bigtable> bigtable;
  // For a session that began on a database `lbt serve` held: run before
  // each statement, it follows the database when that server stops (to
  // the database itself) or another takes its place (see ServedDatabase).
  // Empty for other sessions.
  std::function<void()> follow_server;
};

// A remote instance when the options name one; else the local database
// (opened when first used), or, while `lbt serve` keeps the database's
// newest writes in its write-ahead log, that server. `argv` is the
// process's own.
Result<Target> OpenTarget(char** argv, const ShellOptions& options);

// A client of the remote instance. Two implementations, chosen when
// linking: lbt-grpc's (remote_connect.cc) connects; lbt's (grpc_exec.cc)
// runs lbt-grpc with the same arguments instead, and returns only if that
// fails.
Result<std::unique_ptr<Bigtable>> OpenRemote(char** argv, const RemoteOptions& options);

// The host:port of the `lbt serve` that keeps `dir`'s newest writes in its
// write-ahead log (it writes it to DIR/serve.addr), if one runs.
std::optional<std::string> ServingAddress(const std::string& dir);

}  // namespace lbt

#endif  // LBT_SHELL_TARGET_H_
