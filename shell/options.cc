#include "shell/options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

#include "api/version.h"

namespace lbt {

namespace {

// cbt's global flags, as given on the command line.
struct RemoteFlags {
  std::string project, instance, creds, admin_endpoint, data_endpoint, app_profile, timeout, auth_token;
  bool Selected() const { return !project.empty() || !instance.empty(); }
};

constexpr const char* kCbtFlags[] = {"project",       "instance",    "creds",   "admin-endpoint",
                                     "data-endpoint", "app-profile", "timeout", "auth-token"};

// `lbt watch t --format jsonl`: --format and --bytes at the end of a
// command's words are the shell's, as if written before the command. Only
// at the very end, so a command's own words are never taken.
void HoistTrailingOutputFlags(std::vector<std::string>* args) {
  auto is_output_flag = [](const std::string& a) { return a == "--format" || a == "--bytes"; };
  auto is_joined = [](const std::string& a) { return a.starts_with("--format=") || a.starts_with("--bytes="); };
  std::vector<std::string> hoisted;
  while (args->size() >= 2) {
    const size_t n = args->size();
    if (is_joined((*args)[n - 1]) && !(*args)[n - 2].starts_with("-")) {
      hoisted.insert(hoisted.begin(), (*args)[n - 1]);
      args->pop_back();
    } else if (n >= 3 && is_output_flag((*args)[n - 2]) && !(*args)[n - 3].starts_with("-")) {
      hoisted.insert(hoisted.begin(), {(*args)[n - 2], (*args)[n - 1]});
      args->resize(n - 2);
    } else {
      break;
    }
  }
  args->insert(args->begin(), hoisted.begin(), hoisted.end());
}

// cbt spells its flags with one dash (-project p); CLI11 wants two. The
// flags before the command are rewritten; the command's words are not.
std::vector<std::string> CbtFlagsAsLong(int argc, char** argv) {
  std::vector<std::string> args;
  bool in_command = false;
  bool value_next = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!in_command && !value_next && arg.size() > 1 && arg[0] == '-' && arg[1] != '-') {
      std::string name = arg.substr(1, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 1);
      for (const char* flag : kCbtFlags) {
        if (name == flag) arg = "-" + arg;
      }
    }
    if (!in_command && !value_next && (arg.empty() || arg[0] != '-')) in_command = true;
    // Options that take a value as the next word.
    static const char* kValued[] = {"--db",
                                    "--format",
                                    "--bytes",
                                    "--sync",
                                    "--gc",
                                    "--gc-interval",
                                    "-c",
                                    "--command",
                                    "-f",
                                    "--file",
                                    "--project",
                                    "--instance",
                                    "--creds",
                                    "--admin-endpoint",
                                    "--data-endpoint",
                                    "--app-profile",
                                    "--timeout",
                                    "--auth-token"};
    bool valued = false;
    for (const char* v : kValued) valued |= arg == v;
    value_next = !in_command && !value_next && valued;
    args.push_back(std::move(arg));
  }
  HoistTrailingOutputFlags(&args);
  std::reverse(args.begin(), args.end());  // CLI11 takes them reversed
  return args;
}

void AddRemoteFlags(CLI::App* app, RemoteFlags* r) {
  const char* group = "A remote Bigtable, or an instance of --db (cbt's flags, also with one dash; see README)";
  app->add_option("--project", r->project,
                  "Project of the instance commands run in: a remote one, or with --db one of that database's")
      ->group(group);
  app->add_option("--instance", r->instance,
                  "Instance commands run in: a remote one, or with --db one of that database's")
      ->group(group);
  app->add_option("--creds", r->creds, "Service account key file (default: application-default credentials)")
      ->group(group);
  app->add_option("--data-endpoint", r->data_endpoint, "host:port of the Data API")->group(group);
  app->add_option("--admin-endpoint", r->admin_endpoint, "host:port of the Table Admin API")->group(group);
  app->add_option("--app-profile", r->app_profile, "App profile for data requests")->group(group);
  app->add_option("--timeout", r->timeout, "Deadline of each call, e.g. 10s, 500ms, 1m")->group(group);
  app->add_option("--auth-token", r->auth_token, "Not supported")->group(group);
}

// A Go duration as cbt takes it ("1m30s", "500ms") in milliseconds, or -1.
int64_t ParseDurationMillis(const std::string& text) {
  static const std::pair<const char*, double> kUnits[] = {{"ms", 1},   {"us", 1e-3}, {"µs", 1e-3},  {"ns", 1e-6},
                                                          {"s", 1000}, {"m", 60000}, {"h", 3600000}};
  double total = 0;
  size_t i = 0;
  if (text.empty()) return -1;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    if (i == start) return -1;
    double n = std::stod(text.substr(start, i - start));
    bool matched = false;
    for (const auto& [unit, millis] : kUnits) {
      if (text.compare(i, std::strlen(unit), unit) == 0) {
        total += n * millis;
        i += std::strlen(unit);
        matched = true;
        break;
      }
    }
    if (!matched) return -1;
  }
  return static_cast<int64_t>(total);
}

// ~/.cbtrc: "key = value" lines, as cbt reads them; # starts a comment.
std::map<std::string, std::string> ReadCbtrc() {
  std::map<std::string, std::string> settings;
  const char* home = std::getenv("HOME");
  if (home == nullptr) return settings;
  std::ifstream in(std::string(home) + "/.cbtrc");
  for (std::string line; std::getline(in, line);) {
    size_t eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    auto trim = [](std::string t) {
      t.erase(0, t.find_first_not_of(" \t\r"));
      t.erase(t.find_last_not_of(" \t\r") + 1);
      return t;
    };
    settings[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  return settings;
}

// Flags first, then ~/.cbtrc, then BIGTABLE_EMULATOR_HOST; "" or an error.
std::string ResolveRemote(const RemoteFlags& flags, std::optional<RemoteOptions>* out) {
  if (!flags.auth_token.empty()) {
    return "-auth-token is not supported by lbt; use -creds <service-account.json> or application-default "
           "credentials";
  }
  std::map<std::string, std::string> rc = ReadCbtrc();
  auto pick = [&](const std::string& flag, const char* key) { return flag.empty() ? rc[key] : flag; };
  RemoteOptions r;
  r.project = pick(flags.project, "project");
  r.instance = pick(flags.instance, "instance");
  r.creds = pick(flags.creds, "creds");
  r.data_endpoint = pick(flags.data_endpoint, "data-endpoint");
  r.admin_endpoint = pick(flags.admin_endpoint, "admin-endpoint");
  r.app_profile = pick(flags.app_profile, "app-profile");
  const std::string timeout = pick(flags.timeout, "timeout");
  if (!timeout.empty()) {
    r.timeout_ms = ParseDurationMillis(timeout);
    if (r.timeout_ms <= 0) return "bad -timeout '" + timeout + "': expected a duration such as 10s, 500ms or 1m";
  }
  if (r.project.empty()) return "-instance needs -project (or project = ... in ~/.cbtrc)";
  if (r.instance.empty()) return "-project needs -instance (or instance = ... in ~/.cbtrc)";
  if (const char* emulator = std::getenv("BIGTABLE_EMULATOR_HOST"); emulator != nullptr && *emulator != '\0') {
    r.emulator_host = emulator;
  }
  *out = std::move(r);
  return "";
}

}  // namespace

// Lower-cases the value and checks it is one of `names`, failing with one
// plain sentence rather than CLI11's internal notation. Add it as the last
// transform of an option: CLI11 runs the transforms added last first.
CLI::Validator OneOf(std::vector<std::string> names) {
  return CLI::Validator(
      [names](std::string& value) -> std::string {
        const std::string lower = CLI::detail::to_lower(value);
        for (const std::string& name : names) {
          if (lower == name) {
            value = lower;
            return "";
          }
        }
        return fmt::format("'{}' is not one of {}", value, fmt::join(names, ", "));
      },
      "");
}

std::string OneLineOptionError(const CLI::App* app, const CLI::Error& e) {
  return fmt::format("error: {} (see {} --help)\n", e.what(), app->get_name());
}

GcFlags AddGcFlags(CLI::App* app, LocalOptions* local) {
  GcFlags flags;
  flags.mode = app->add_option_function<std::string>(
                      "--gc", [local](const std::string& mode) { local->lazy_gc = mode == "lazy"; },
                      "eager (default): a cell its family's GC policy makes eligible vanishes from reads at once; "
                      "lazy: as in production, it is read until a collection pass removes it")
                   ->transform(CLI::IsMember({"eager", "lazy"}, CLI::ignore_case).description(""))
                   ->transform(OneOf({"eager", "lazy"}))
                   ->type_name("eager|lazy")
                   ->default_str(local->lazy_gc ? "lazy" : "eager");
  flags.interval = app->add_option("--gc-interval", local->gc_interval_seconds,
                                   "With --gc=lazy, run a collection pass over every table this often, in seconds "
                                   "(0: only when `gc <table>` asks)")
                       ->check(CLI::Validator(
                           [](std::string& value) -> std::string {
                             char* end = nullptr;
                             const double seconds = std::strtod(value.c_str(), &end);
                             if (end == value.c_str() || *end != '\0' || !(seconds >= 0 && seconds <= 31536000)) {
                               return fmt::format("'{}' is not a number of seconds from 0 to 31536000 (a year)", value);
                             }
                             return "";
                           },
                           ""))
                       ->type_name("SECONDS")
                       ->capture_default_str();
  return flags;
}

namespace {

// The flags that choose and open a local database, kept so that remote
// mode can refuse them.
struct LocalFlags {
  CLI::Option* db;
  CLI::Option* read_only;
  CLI::Option* sync;
  GcFlags gc;
};

LocalFlags AddLocalFlags(CLI::App* app, LocalOptions* local) {
  LocalFlags flags;
  flags.db = app->add_option("--db", local->db_dir, "Database directory (default: $LBT_DB, else ./lbt-data)");
  flags.read_only = app->add_flag("--read-only", local->read_only, "Open the database read-only");
  std::map<std::string, bool> sync_modes = {{"full", true}, {"off", false}};
  flags.sync = app->add_option("--sync", local->sync,
                               "full: fsync every transaction (default); off: one fsync when done, faster for bulk "
                               "loads; a power loss before it may lose the latest writes")
                   ->transform(CLI::CheckedTransformer(sync_modes, CLI::ignore_case).description(""))
                   ->transform(OneOf({"full", "off"}))
                   ->type_name("full|off")
                   ->default_str("full");
  flags.gc = AddGcFlags(app, local);
  return flags;
}

void AddOutputFlags(CLI::App* app, SessionOptions* session) {
  std::map<std::string, OutputFormat> formats = {
      {"text", OutputFormat::kText}, {"json", OutputFormat::kJson}, {"jsonl", OutputFormat::kJsonl}};
  app->add_option("--format", session->format, "Output: text (cbt's), json or jsonl")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description("text|json|jsonl"))
      ->transform(OneOf({"text", "json", "jsonl"}))
      ->default_str("text");
  std::map<std::string, BytesMode> bytes = {{"text", BytesMode::kAuto}, {"base64", BytesMode::kBase64}};
  app->add_option("--bytes", session->bytes,
                  "JSON bytes fields: text (UTF-8 as strings, else *_b64) or base64 (always *_b64)")
      ->transform(CLI::CheckedTransformer(bytes, CLI::ignore_case).description("text|base64"))
      ->transform(OneOf({"text", "base64"}))
      ->default_str("text");
}

// --db with -project and -instance: an instance of the local database,
// named by the flags alone. "" or an error.
std::string ResolveLocalInstance(const RemoteFlags& flags, LocalOptions* local) {
  if (flags.project.empty() || flags.instance.empty()) {
    return "with --db, name an instance of the database with both -project and -instance";
  }
  if (!flags.creds.empty() || !flags.admin_endpoint.empty() || !flags.data_endpoint.empty() ||
      !flags.auth_token.empty()) {
    return "-creds and the endpoint flags apply to a remote instance, not to one of a local database (--db)";
  }
  local->instance = InstanceName{flags.project, flags.instance};
  return "";
}

// Why the flags given cannot be used together with remote mode, or "".
std::string RemoteConflict(const LocalFlags& local) {
  if (local.sync->count() > 0) return "--sync applies to a local database only";
  if (local.read_only->count() > 0) return "--read-only applies to a local database only";
  if (local.gc.mode->count() > 0 || local.gc.interval->count() > 0) {
    return "--gc and --gc-interval apply to a local database only";
  }
  return "";
}

}  // namespace

ParsedOptions ParseOptions(int argc, char** argv) {
  ParsedOptions parsed;
  ShellOptions& o = parsed.options;
  const char* env_db = std::getenv("LBT_DB");
  if (env_db != nullptr && *env_db != '\0') o.local.db_dir = env_db;
  RemoteFlags remote;
  std::vector<std::string> args = CbtFlagsAsLong(argc, argv);

  CLI::App app{
      "lbt: a local, persistent Bigtable that speaks cbt's and the HBase shell's languages.\n"
      "With a command, runs it and exits; with -c or -f, runs those; otherwise\n"
      "opens the shell (or reads commands from standard input when it is not a terminal).",
      "lbt"};
  app.prefix_command();  // everything from the first command word on is the command's
  app.footer(
      "Examples:\n"
      "  lbt                                    the shell on ./lbt-data\n"
      "  lbt --db mydb createtable t families=cf\n"
      "  lbt --db mydb read t prefix=user# count=10\n"
      "  lbt --db mydb -f schema.cbt            run a script\n"
      "  lbt --db mydb --format jsonl read t | jq .key\n"
      "  lbt --db mydb \"scan 't', {ROWPREFIXFILTER => 'user#'}\"\n"
      "  lbt --db mydb serve --port 8086        Bigtable's gRPC API for cbt and client libraries\n"
      "  lbt --db mydb studio                   a web app on 127.0.0.1: tables, rows, SQL, the schema lab\n"
      "Inside the shell, 'help' lists the commands.");
  app.set_version_flag("--version", "lbt " + std::string(kVersion));
  app.failure_message(OneLineOptionError);
  app.option_defaults()->always_capture_default();

  const LocalFlags local = AddLocalFlags(&app, &o.local);
  AddOutputFlags(&app, &o.session);
  app.add_option("-c,--command", o.commands, "Run this command (repeatable; ';' separates several)");
  app.add_option("-f,--file", o.script, "Run the commands in this script file")->check(CLI::ExistingFile);
  app.add_flag("--keep-going", o.keep_going, "In scripts, run on after a failed command (exit 1 at the end)");
  app.add_flag("--echo", o.echo, "Print each command before its output");
  AddRemoteFlags(&app, &remote);

  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    parsed.exit_now = true;
    parsed.exit_code = app.exit(e) == 0 ? 0 : 2;
    return parsed;
  }
  o.words = app.remaining();
  if (remote.Selected()) {
    // --db keeps commands local: -project and -instance then pick one of
    // the database's instances.
    const bool local_instance = local.db->count() > 0;
    std::string error = local_instance ? ResolveLocalInstance(remote, &o.local) : RemoteConflict(local);
    if (error.empty() && !local_instance) error = ResolveRemote(remote, &o.remote);
    if (error.empty()) {
      o.session.instance = local_instance ? *o.local.instance : InstanceName{o.remote->project, o.remote->instance};
    }
    if (!error.empty()) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      parsed.exit_now = true;
      parsed.exit_code = 2;
    }
  }
  return parsed;
}

}  // namespace lbt
