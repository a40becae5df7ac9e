#include "commands/session.h"

#include <fmt/format.h>

namespace lbt {

Session::~Session() {
  if (db_ != nullptr) db_->Sync();  // with --sync=off, the one flush at the end
}

Result<Database*> Session::Db(bool create) {
  if (db_ != nullptr) return db_.get();
  DatabaseOptions options;
  options.read_only = options_.read_only;
  options.create_if_missing = create && !options_.read_only;
  options.sync = options_.sync;
  Result<std::unique_ptr<Database>> db = Database::Open(options_.db_dir, options);
  if (!db.ok()) {
    if (db.status().IsNotFound() && !options.create_if_missing) return static_cast<Database*>(nullptr);
    return db.status();
  }
  db_ = std::move(db).value();
  return db_.get();
}

Result<Database*> Session::DbOrNote(Output* err) {
  LBT_ASSIGN_OR_RETURN(Database * db, Db(false));
  if (db == nullptr) {
    err->Write(fmt::format("note: there is no lbt database at '{}' yet; the first command that writes creates it\n",
                           options_.db_dir));
  }
  return db;
}

}  // namespace lbt
