// The plain lbt binary's side of what needs gRPC: `lbt serve`, remote
// mode and `lbt studio` (whose web server's libraries are as heavy) run
// in lbt-grpc, the same program with gRPC linked in, built next
// to lbt. Loading gRPC's libraries would cost every local command about
// 20 ms at startup.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "shell/serve_command.h"
#include "shell/studio_command.h"
#include "shell/target.h"

namespace lbt {

namespace {

// Replaces this process with lbt-grpc, given the same arguments, so that
// signals and the exit status pass through. Returns only on failure.
int ExecGrpcCompanion(char** argv, const char* what) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path companion = self.parent_path() / "lbt-grpc";
  ::execv(companion.c_str(), argv);
  std::fprintf(stderr, "error: %s runs %s, which cannot be started: %s\n", what, companion.c_str(),
               std::strerror(errno));
  return 1;
}

}  // namespace

int RunServe(char** argv, const ShellOptions&) { return ExecGrpcCompanion(argv, "lbt serve"); }

int RunStudio(char** argv, const ShellOptions&, Session*) { return ExecGrpcCompanion(argv, "lbt studio"); }

Result<std::unique_ptr<Bigtable>> OpenRemote(char** argv, const RemoteOptions&) {
  ExecGrpcCompanion(argv, "remote mode");
  return Status::FailedPrecondition("remote mode is not available");
}

}  // namespace lbt
