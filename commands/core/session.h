// Session: what every command runs against: a Bigtable (a local database
// or a remote instance, chosen by the shell) and the output settings.

#ifndef LBT_COMMANDS_CORE_SESSION_H_
#define LBT_COMMANDS_CORE_SESSION_H_

#include <functional>
#include <memory>
#include <string>

#include "api/bigtable.h"
#include "api/instance.h"
#include "api/status.h"
#include "commands/core/interruptible_bigtable.h"
#include "commands/core/output.h"
#include "commands/render/renderer.h"

namespace lbt {

struct SessionOptions {
  OutputFormat format = OutputFormat::kText;
  BytesMode bytes = BytesMode::kAuto;
  // The instance commands run in, as -project and -instance name it: its
  // project is where createinstance and listinstances work.
  InstanceName instance = DefaultInstanceName();
  // With kJsonl: a query's rows follow a line naming its columns and their
  // types, {"columns":[{"name":"_key","type":"BYTES"},...]} (lbt studio's
  // typed grid). Off for the command line, whose lines are rows alone.
  bool query_columns = false;
};

class Session {
 public:
  // `bigtable` must not be null.
  Session(SessionOptions options, std::unique_ptr<Bigtable> bigtable)
      : options_(std::move(options)),
        home_(options_.instance),
        bigtable_(std::move(bigtable)),
        home_reads_(std::make_unique<InterruptibleBigtable>(bigtable_.get())) {}

  const SessionOptions& options() const { return options_; }
  // Where commands run: the instance the session began in, or the one
  // UseInstance chose. Its reads stop when the interrupt flag is raised.
  Bigtable* bigtable() const { return elsewhere_ != nullptr ? elsewhere_reads_.get() : home_reads_.get(); }
  // The instance the session began in, its reads not interruptible: for
  // work beside the commands (a local database's background jobs), which
  // the shell's Ctrl-C must not stop.
  Bigtable* home_bigtable() const { return bigtable_.get(); }

  // Runs the commands that follow in `instance`: the tables of the same
  // database or service, opened through its instance admin (an instance
  // never created may be named: its first table brings it into being).
  // The instance the session began in is its own Bigtable again.
  // FailedPrecondition where instances cannot be managed; on an error the
  // session stays where it was.
  Status UseInstance(const InstanceName& instance);

  // For commands that list what is there: false, with a note on `err`, when
  // no database exists yet, so that a mistyped --db does not pass for an
  // empty database.
  bool ExistsOrNote(Output* err) const;

  // Whether queries run on this side because the service answered that it
  // does not run SQL (the emulator): said once, then not asked again.
  bool sql_runs_here() const { return sql_runs_here_; }
  void set_sql_runs_here() { sql_runs_here_ = true; }

  // Run before each statement (RunStatement) and before Tab completion
  // reads the database: what keeps a session's view of the database
  // current, such as following a stopped lbt serve to the database itself
  // and materialized views' maintenance.
  void set_before_statement(std::function<void()> hook) { before_statement_ = std::move(hook); }
  void BeforeStatement() const {
    if (before_statement_) before_statement_();
  }

 private:
  SessionOptions options_;
  const InstanceName home_;  // the instance `bigtable_` is
  std::unique_ptr<Bigtable> bigtable_;
  std::unique_ptr<Bigtable> elsewhere_;  // set while another instance is in use
  // bigtable_ and elsewhere_, their reads interruptible.
  std::unique_ptr<InterruptibleBigtable> home_reads_;
  std::unique_ptr<InterruptibleBigtable> elsewhere_reads_;
  bool sql_runs_here_ = false;
  std::function<void()> before_statement_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_SESSION_H_
