// RunServe for the plain lbt binary: `lbt serve` runs in lbt-grpc, the same
// program with gRPC linked in, which is built next to lbt. Loading gRPC's
// libraries would cost every local command about 20 ms at startup.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "shell/serve_command.h"

namespace lbt {

int RunServe(char** argv, const ShellOptions&) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path companion = self.parent_path() / "lbt-grpc";
  // The same arguments, the same process: signals and exit status pass through.
  ::execv(companion.c_str(), argv);
  std::fprintf(stderr, "error: lbt serve runs %s, which cannot be started: %s\n", companion.c_str(),
               std::strerror(errno));
  return 1;
}

}  // namespace lbt
