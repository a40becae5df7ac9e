#include "shell/serve_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "server/server.h"

namespace lbt {

namespace {

// The server's memory map is reserved large at once: it is address space,
// not memory, and a map that never has to grow never has to wait for the
// reads in flight to finish.
constexpr uint64_t kServerMapBytes = 1ull << 40;

struct ServeCommandOptions {
  std::string db_dir;
  bool sync = true;
  std::string gc_mode = "eager";
  double gc_interval_seconds = 60;
  double stall_seconds = std::chrono::duration<double>(server::kDefaultStallTimeout).count();
  server::ServeOptions serve;
};

// Returns -1 to go on, or the exit status of a usage error or --help.
int ParseServeOptions(const std::vector<std::string>& words, ServeCommandOptions* o) {
  CLI::App app{"lbt serve: Bigtable's gRPC Data and Table Admin APIs over an lbt database, for cbt and "
               "every client library (through BIGTABLE_EMULATOR_HOST). The server has no authentication.",
               "lbt serve"};
  app.footer("Example:\n  lbt serve --db mydb --port 8086 &\n  export BIGTABLE_EMULATOR_HOST=127.0.0.1:8086\n"
             "  cbt -project p -instance i ls");
  app.add_option("--db", o->db_dir, "Database directory")->capture_default_str();
  app.add_option("--host", o->serve.host, "Address to listen on")->capture_default_str();
  app.add_option("--port", o->serve.port, "Port to listen on (0: any free port)")->capture_default_str();
  std::map<std::string, bool> sync_modes = {{"full", true}, {"off", false}};
  app.add_option("--sync", o->sync, "full: a write is acknowledged once on disk; off: faster, and a crash may "
                                    "lose the latest acknowledged writes")
      ->transform(CLI::CheckedTransformer(sync_modes, CLI::ignore_case).description(""))
      ->type_name("full|off")
      ->default_str("full");
  app.add_option("--gc", o->gc_mode,
                 "eager: a cell its family's GC policy makes eligible vanishes from reads at once; lazy: as in "
                 "production, it is read until a collection pass removes it")
      ->check(CLI::IsMember({"eager", "lazy"}, CLI::ignore_case).description(""))
      ->type_name("eager|lazy")
      ->capture_default_str();
  app.add_option("--gc-interval", o->gc_interval_seconds,
                 "With --gc=lazy, run a collection pass over every table this often, in seconds (0: never)")
      ->check(CLI::Range(0.0, 31536000.0).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
  app.add_flag("--allow-remote", o->serve.allow_remote,
               "Listen on an address other than loopback (anyone who can reach it can read and write)");
  app.add_option("--stall-timeout", o->stall_seconds,
                 "End a stream with ABORTED when its client has not read a response for this many seconds "
                 "(0: never)")
      ->check(CLI::Range(0.0, 86400.0).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
  std::vector<std::string> args(words.rbegin(), words.rend() - 1);  // CLI11 takes them reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;
}

}  // namespace

int RunServe(char**, const ShellOptions& options) {
  // The global --db, --sync and --read-only are the defaults.
  const std::vector<std::string>& words = options.words;
  const LocalOptions& defaults = options.local;
  ServeCommandOptions o;
  o.db_dir = defaults.db_dir;
  o.sync = defaults.sync;
  o.gc_mode = defaults.lazy_gc ? "lazy" : "eager";
  o.gc_interval_seconds = defaults.gc_interval_seconds;
  if (int code = ParseServeOptions(words, &o); code >= 0) return code;
  o.serve.stall_timeout = std::chrono::milliseconds(static_cast<int64_t>(o.stall_seconds * 1000));
  // Refuse bad options before the database is opened, and perhaps created.
  if (Status s = server::ValidateServeOptions(o.serve); !s.ok()) {
    std::fprintf(stderr, "error: %s\n", s.message().c_str());
    return 1;
  }

  DatabaseOptions db_options;
  db_options.sync = o.sync;
  // lbt --read-only serve: every write is refused with FAILED_PRECONDITION.
  db_options.read_only = defaults.read_only;
  db_options.initial_map_bytes = kServerMapBytes;
  const bool lazy = o.gc_mode == "lazy" || o.gc_mode == "LAZY";
  db_options.gc = lazy ? GcMode::kLazy : GcMode::kEager;
  db_options.gc_interval = std::chrono::milliseconds(static_cast<int64_t>(o.gc_interval_seconds * 1000));
  db_options.note = [](const std::string& note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
  Result<std::unique_ptr<Database>> db = Database::Open(o.db_dir, db_options);
  if (!db.ok()) {
    std::fprintf(stderr, "error: %s\n", db.status().message().c_str());
    return 1;
  }
  Status s = server::Serve(db->get(), o.serve, [&](const std::string& address) {
    const std::string gc =
        lazy ? fmt::format(" (GC lazy, a pass every {} s)", o.gc_interval_seconds) : std::string();
    std::printf("lbt serve: database %s on %s%s; for clients: export BIGTABLE_EMULATOR_HOST=%s\n", o.db_dir.c_str(),
                address.c_str(), gc.c_str(), address.c_str());
    std::fflush(stdout);
  });
  if (!s.ok()) {
    std::fprintf(stderr, "error: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace lbt
