#include "shell/target.h"

#include <cstdio>

#include "engine/local_bigtable.h"

namespace lbt {

Result<std::unique_ptr<Bigtable>> OpenTarget(char** argv, const ShellOptions& options) {
  if (options.remote) return OpenRemote(argv, *options.remote);
  DatabaseOptions db;
  db.read_only = options.local.read_only;
  db.sync = options.local.sync;
  db.gc = options.local.lazy_gc ? GcMode::kLazy : GcMode::kEager;
  db.gc_interval = std::chrono::milliseconds(static_cast<int64_t>(options.local.gc_interval_seconds * 1000));
  db.note = [](const std::string& note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
  return std::unique_ptr<Bigtable>(std::make_unique<LocalBigtable>(options.local.db_dir, db));
}

}  // namespace lbt
