// lbt-grpc's `lbt studio` (studio_command.h).

#include "shell/studio_command.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "studio/studio_api.h"
#include "studio/studio_server.h"

extern char** environ;

namespace lbt {

namespace {

struct StudioCommandOptions {
  int port = 0;
  bool read_only = false;
  bool no_open = false;
};

// Parses the words after `studio`; -1 to go on, else the exit status.
int ParseStudioWords(const std::vector<std::string>& words, StudioCommandOptions* o) {
  CLI::App app{"Serve lbt studio, a web app over the database or instance, on 127.0.0.1", "lbt studio"};
  app.footer("Example:\n  lbt --db mydb studio\n  lbt -project p -instance i studio --port 8087");
  app.failure_message(OneLineOptionError);
  app.add_option("--port", o->port, "Port to listen on (0, the default: any free port)")
      ->check(CLI::Range(0, 65535).description(""));
  app.add_flag("--read-only", o->read_only, "Refuse every statement that changes data or schema");
  app.add_flag("--no-open", o->no_open, "Do not open the page in $BROWSER");
  std::vector<std::string> args(words.rbegin(), words.rend() - 1);  // CLI11 takes them reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;
}

// Opens `url` with the command in $BROWSER, if one is set; never waits.
// The browser is given a file only this user can read, which sends it on
// to `url`: on its command line the token would show to every local user
// (ps). Returns the file's path, for the caller to remove; empty if none.
std::string OpenInBrowser(const std::string& url) {
  const char* browser = std::getenv("BROWSER");
  if (browser == nullptr || *browser == '\0') return "";
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/lbt-studio-XXXXXX.html";
  const int fd = mkstemps(path.data(), 5);  // mode 0600
  if (fd < 0) {
    std::fprintf(stderr, "note: could not write a page for $BROWSER; open the address above\n");
    return "";
  }
  const std::string page = fmt::format(
      "<!doctype html><meta http-equiv=\"refresh\" content=\"0;url={0}\"><a href=\"{0}\">lbt studio</a>\n", url);
  const bool written = write(fd, page.data(), page.size()) == static_cast<ssize_t>(page.size());
  close(fd);
  const std::string file_url = "file://" + path;
  pid_t child = 0;
  char* const args[] = {const_cast<char*>(browser), const_cast<char*>(file_url.c_str()), nullptr};
  if (!written || posix_spawnp(&child, browser, nullptr, nullptr, args, environ) != 0) {
    std::fprintf(stderr, "note: could not start $BROWSER (%s); open the address above\n", browser);
  }
  return path;
}

}  // namespace

int RunStudio(char**, const ShellOptions& options, Session* session) {
  StudioCommandOptions o;
  if (int status = ParseStudioWords(options.words, &o); status >= 0) return status;
  // SIGINT and SIGTERM stop the studio: blocked here, before any thread
  // starts, and awaited below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // The instance the session began in, as is: the studio's own sessions
  // make their reads interruptible (no second check on every row).
  studio::StudioApi api(session->home_bigtable(), session->home_bigtable()->instance(), o.read_only,
                        [session] { session->BeforeStatement(); });
  Result<std::string> token = studio::NewToken();
  if (!token.ok()) {
    std::fprintf(stderr, "error: %s\n", token.status().message().c_str());
    return 1;
  }
  Result<std::unique_ptr<studio::StudioServer>> server = studio::StudioServer::Listen(&api, o.port, *token);
  if (!server.ok()) {
    std::fprintf(stderr, "error: %s\n", server.status().message().c_str());
    return 1;
  }
  std::thread serving([&] { (*server)->Run(); });
  const std::string url = (*server)->url();
  std::printf("lbt studio running on %s (%s%s; Ctrl-C stops it)\n", url.c_str(),
              session->bigtable()->Describe().c_str(), o.read_only ? ", read-only" : "");
  std::fflush(stdout);
  const std::string opener = o.no_open ? "" : OpenInBrowser(url);
  int signal = 0;
  sigwait(&stop_signals, &signal);
  // The statement running, and those waiting, end first: the server's
  // Stop waits for its requests.
  api.Close();
  (*server)->Stop();
  serving.join();
  if (!opener.empty()) std::remove(opener.c_str());
  return 0;
}

}  // namespace lbt
