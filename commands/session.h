// Session: what every command runs against: one database (opened on first
// use, created on first write) and the output settings.

#ifndef LBT_COMMANDS_SESSION_H_
#define LBT_COMMANDS_SESSION_H_

#include <memory>
#include <string>

#include "commands/output.h"
#include "commands/renderer.h"
#include "engine/database.h"
#include "engine/status.h"

namespace lbt {

struct SessionOptions {
  std::string db_dir = "lbt-data";
  OutputFormat format = OutputFormat::kText;
  BytesMode bytes = BytesMode::kAuto;
  bool read_only = false;
  // false: no fsync per transaction, one when a bulk command ends (see README).
  bool sync = true;
};

class Session {
 public:
  explicit Session(SessionOptions options) : options_(std::move(options)) {}
  ~Session();

  const SessionOptions& options() const { return options_; }

  // The database. If it does not exist yet it is created when `create`,
  // and otherwise nullptr is returned (a read of an empty place).
  Result<Database*> Db(bool create);

  // For commands that list what is there: the database, or nullptr with a
  // note on `err` that none is there yet, so that a mistyped --db does not
  // pass for an empty database.
  Result<Database*> DbOrNote(Output* err);

 private:
  SessionOptions options_;
  std::unique_ptr<Database> db_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_SESSION_H_
