// ServedDatabase: the Bigtable of a session on a database that `lbt serve`
// held when the session began. Commands go through that server while it
// holds the database; once it stops, to the database itself, which is then
// free; and to a server that took its place, through that one.

#ifndef LBT_SHELL_SERVED_DATABASE_H_
#define LBT_SHELL_SERVED_DATABASE_H_

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/forwarding_bigtable.h"
#include "shell/options.h"

namespace lbt {

class ServedDatabase final : public ForwardingBigtable {
 public:
  // A client of the server listening on an address (host:port).
  using Connect = std::function<Result<std::unique_ptr<Bigtable>>(const std::string& address)>;
  // Where the database is served now (ServingAddress), nullopt when not.
  using Locate = std::function<std::optional<std::string>()>;

  // `server` is a client of the server on `address`, which held the
  // database of `local` (the session's options) when it began. `note`
  // hears one line each time the session changes what it runs on.
  ServedDatabase(std::unique_ptr<Bigtable> server, std::string address, LocalOptions local, Locate locate,
                 Connect connect, std::function<void(const std::string&)> note);
  ~ServedDatabase() override;

  // Looks at who holds the database now and follows: to the database
  // itself when no server holds it, to another server that does. Call it
  // between operations (before each statement), from their thread. If a new
  // server cannot be reached, the session stays as it was.
  void Follow();

  // Safe from any thread, also while Follow switches.
  void CancelCalls() override;

 private:
  std::optional<std::string> address_;  // nullopt: the local database
  LocalOptions local_;
  Locate locate_;
  Connect connect_;
  std::function<void(const std::string&)> note_;
  std::mutex mu_;  // guards the switch against CancelCalls
  // Every target this session had, the current one last: CancelCalls may
  // still reach one it just left.
  std::vector<std::unique_ptr<Bigtable>> targets_;
};

}  // namespace lbt

#endif  // LBT_SHELL_SERVED_DATABASE_H_
