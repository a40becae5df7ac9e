#include "shell/serve_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <stdlib.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "local/local_bigtable.h"
#include "server/server.h"
#include "shell/database_options.h"
#include "shell/local_services.h"
#include "storage/database.h"

namespace lbt {

namespace {

// The server's memory map is reserved large at once: it is address space,
// not memory, and a map that never has to grow never has to wait for the
// reads in flight to finish.
constexpr uint64_t kServerMapBytes = 1ull << 40;

struct ServeCommandOptions {
  LocalOptions local;  // the global options', which serve's own override
  double stall_seconds = std::chrono::duration<double>(server::kDefaultStallTimeout).count();
  server::ServeOptions serve;
  bool no_write_log = false;
  std::string host_port;  // --host-port, gcloud's form of --host and --port
  bool ephemeral = false;
};

// "HOST:PORT" ("[::1]:8086" for an IPv6 host) into `serve`; false when it
// is not of that form.
bool ParseHostPort(const std::string& text, server::ServeOptions* serve) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return false;
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  int port = 0;
  const char* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data() + colon + 1, end, port);
  if (ec != std::errc() || at != end) return false;
  serve->host = std::move(host);
  serve->port = port;
  return true;
}

// Returns -1 to go on, or the exit status of a usage error or --help.
int ParseServeOptions(const std::vector<std::string>& words, ServeCommandOptions* o) {
  CLI::App app{
      "lbt serve: Bigtable's gRPC Data and Table Admin APIs over an lbt database, for cbt and "
      "every client library (through BIGTABLE_EMULATOR_HOST). The server has no authentication.",
      "lbt serve"};
  app.footer(
      "Example:\n  lbt serve --db mydb --port 8086 &\n  export BIGTABLE_EMULATOR_HOST=127.0.0.1:8086\n"
      "  cbt -project p -instance i ls");
  app.failure_message(OneLineOptionError);
  CLI::Option* db = app.add_option("--db", o->local.db_dir, "Database directory")->capture_default_str();
  CLI::Option* host = app.add_option("--host", o->serve.host, "Address to listen on")->capture_default_str();
  CLI::Option* port =
      app.add_option("--port", o->serve.port, "Port to listen on (0: any free port)")->capture_default_str();
  app.add_option("--host-port", o->host_port,
                 "Address and port to listen on, as the emulator's `gcloud beta emulators bigtable start "
                 "--host-port` takes them (instead of --host and --port)")
      ->type_name("HOST:PORT")
      ->excludes(host)
      ->excludes(port);
  app.add_flag("--ephemeral", o->ephemeral,
               "Serve a new, empty database in a temporary folder, removed when the server stops (Ctrl-C, "
               "SIGTERM): the emulator's clean slate, for a test suite that wants one per run")
      ->excludes(db);
  std::map<std::string, bool> sync_modes = {{"full", true}, {"off", false}};
  app.add_option("--sync", o->local.sync,
                 "full: a write is acknowledged once its log record is on disk; off: acknowledged before "
                 "the sync, which follows within 100 ms: a crash of lbt loses nothing, a power loss at "
                 "most the last 100 ms of writes (with --no-write-log, the latest writes)")
      ->transform(CLI::CheckedTransformer(sync_modes, CLI::ignore_case).description(""))
      ->transform(OneOf({"full", "off"}))
      ->type_name("full|off")
      ->default_str("full");
  AddGcFlags(&app, &o->local);
  app.add_flag("--no-write-log", o->no_write_log,
               "Write the database directly, one transaction per group of writes, instead of through a "
               "write-ahead log folded into it in the background (the default: one small sync per group "
               "of writes; lbt commands on the same directory then go through the server)");
  app.add_flag("--allow-remote", o->serve.allow_remote,
               "Listen on an address other than loopback (anyone who can reach it can read and write)");
  app.add_option("--stall-timeout", o->stall_seconds,
                 "End a stream with ABORTED when its client has not read a response for this many seconds "
                 "(0: never)")
      ->check(CLI::Range(0.0, 86400.0).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
  app.add_option("--faults", o->serve.faults_file,
                 "Fault and latency rules for test suites: a JSON array of rules (rpc, table, row_prefix, "
                 "app_profile, code, message, latency_ms, retry_delay_ms, after_rows, entries, times, "
                 "probability, seed), re-read within a second when the file changes; the shell's `faults` "
                 "lists and changes them while the server runs (see the README's \"In test suites\")")
      ->type_name("FILE");
  std::vector<std::string> args(words.rbegin(), words.rend() - 1);  // CLI11 takes them reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (!o->host_port.empty() && !ParseHostPort(o->host_port, &o->serve)) {
    std::fprintf(stderr, "error: --host-port: expected HOST:PORT (e.g. 127.0.0.1:8086), got '%s'\n",
                 o->host_port.c_str());
    return 2;
  }
  return -1;
}

// Serves the database the options name until a signal stops the server.
int ServeDatabase(ServeCommandOptions& o) {
  o.serve.stall_timeout = std::chrono::milliseconds(static_cast<int64_t>(o.stall_seconds * 1000));
  // Refuse bad options and a busy port before the database is opened, and
  // perhaps created.
  Status usable = server::ValidateServeOptions(o.serve);
  if (usable.ok()) usable = server::CheckCanListen(o.serve);
  if (!usable.ok()) {
    std::fprintf(stderr, "error: %s\n", usable.message().c_str());
    return 1;
  }

  // lbt --read-only serve: every write is refused with FAILED_PRECONDITION.
  DatabaseOptions db_options = DatabaseOptionsFor(o.local);
  db_options.initial_map_bytes = kServerMapBytes;
  // Writes go to a write-ahead log and memory first, and reach LMDB in
  // key order in the background (DatabaseOptions::log_writes).
  db_options.log_writes = !o.no_write_log && !o.local.read_only;
  Result<std::unique_ptr<Database>> db = Database::Open(o.local.db_dir, db_options);
  if (!db.ok()) {
    std::fprintf(stderr, "error: %s\n", db.status().message().c_str());
    return 1;
  }
  // The database's default instance; requests naming another open its
  // tables through the instance admin.
  LocalBigtable served(std::move(db).value(), db_options);
  // The database's background work runs beside the requests: automated
  // backups, and materialized views kept as production keeps them, a
  // write showing in its views moments after it commits.
  LocalServicesOptions background{
      .views_interval = std::chrono::milliseconds(50),
      .report = [](const Status& error) { std::fprintf(stderr, "lbt serve: %s\n", error.message().c_str()); },
      .before_start =
          [&served, read_only = o.local.read_only](views::MaterializedViewMaintainer* views) {
            // And a read of a view waits for a pass over what was written
            // before it, so that a client (a script through the server)
            // reads what it wrote; a pass's errors are the background
            // loop's to report.
            if (!read_only) served.SetBeforeMaterializedViewRead([views] { (void)views->CatchUp(); });
          }};
  std::unique_ptr<RunningLocalServices> services = StartLocalServices(&served, background);
  Status s = server::Serve(&served, o.serve, [&](const std::string& address) {
    const std::string gc =
        o.local.lazy_gc ? fmt::format(" (GC lazy, a pass every {} s)", o.local.gc_interval_seconds) : std::string();
    if (db_options.log_writes) {
      // lbt commands on the directory find the server here (shell/target.h).
      std::ofstream(fmt::format("{}/{}", o.local.db_dir, kServeAddressFile)) << address << "\n";
    }
    // "running": the word emulator wait strategies look for.
    const std::string database =
        o.ephemeral ? "a new database (removed when the server stops)" : "database " + o.local.db_dir;
    std::printf("lbt serve running on %s: %s%s; for clients: export BIGTABLE_EMULATOR_HOST=%s\n", address.c_str(),
                database.c_str(), gc.c_str(), address.c_str());
    std::fflush(stdout);
  });
  services->Stop();
  if (db_options.log_writes) std::remove(fmt::format("{}/{}", o.local.db_dir, kServeAddressFile).c_str());
  if (!s.ok()) {
    std::fprintf(stderr, "error: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int RunServe(char**, const ShellOptions& options) {
  // The global --db, --sync, --gc, --gc-interval and --read-only are the
  // defaults.
  ServeCommandOptions o;
  o.local = options.local;
  if (int code = ParseServeOptions(options.words, &o); code >= 0) return code;
  if (!o.ephemeral) return ServeDatabase(o);
  std::string folder = (std::filesystem::temp_directory_path() / "lbt-ephemeral-XXXXXX").string();
  if (mkdtemp(folder.data()) == nullptr) {
    std::fprintf(stderr, "error: --ephemeral: cannot make a temporary folder: %s\n", std::strerror(errno));
    return 1;
  }
  o.local.db_dir = folder + "/db";
  const int code = ServeDatabase(o);
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  return code;
}

}  // namespace lbt
