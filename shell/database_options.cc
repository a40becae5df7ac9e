#include "shell/database_options.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

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

}  // namespace lbt
