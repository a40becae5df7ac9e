// The composition root: the one place that picks what commands run
// against, a local database or a remote Bigtable, from the options.

#ifndef LBT_SHELL_TARGET_H_
#define LBT_SHELL_TARGET_H_

#include <memory>

#include "api/bigtable.h"
#include "engine/database.h"
#include "shell/options.h"

namespace lbt {

// How the local database is opened, from --read-only, --sync, --gc and
// --gc-interval; notes go to stderr.
DatabaseOptions DatabaseOptionsFor(const LocalOptions& local);

// A remote instance when the options name one, else the local database
// (opened when first used). `argv` is the process's own.
Result<std::unique_ptr<Bigtable>> OpenTarget(char** argv, const ShellOptions& options);

// A client of the remote instance. Two implementations, chosen when
// linking: lbt-grpc's (remote_connect.cc) connects; lbt's (grpc_exec.cc)
// runs lbt-grpc with the same arguments instead, and returns only if that
// fails.
Result<std::unique_ptr<Bigtable>> OpenRemote(char** argv, const RemoteOptions& options);

}  // namespace lbt

#endif  // LBT_SHELL_TARGET_H_
