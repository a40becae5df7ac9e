// lbt studio's JSON API: a statement of the shell's language run through
// the shell's own command table and JSON renderer, its answer one JSON
// object. One code path: what the page shows is what `lbt --format json`
// prints for the same statement.
//
//   StudioApi api(bigtable, instance);
//   std::string answer = api.Run("read mobile_time_series prefix=phone# count=50");
//   // {"ok":true,"results":[{"rows":[...]}]}
//   // {"ok":false,"error":"table 'nosuch' does not exist"}
//
// Threading: one statement at a time (Run serializes them): the session's
// commands are not meant to run side by side. Cancel may come from any
// thread. A running statement is stopped through the process's interrupt
// flag (commands/core/interrupt.h), as Ctrl-C stops one in the shell.

#ifndef LBT_STUDIO_STUDIO_API_H_
#define LBT_STUDIO_STUDIO_API_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "api/bigtable.h"
#include "api/instance.h"
#include "commands/core/session.h"
#include "commands/core/statement.h"

namespace lbt::studio {

class StudioApi {
 public:
  // Runs statements against `bigtable`, in `instance`. `read_only`
  // refuses every statement that could change data or schema.
  // `before_statement` runs before each, as the shell's session runs its
  // own (following a server, bringing views up to date).
  // REQUIRES: `bigtable` outlives this object.
  StudioApi(Bigtable* bigtable, InstanceName instance, bool read_only,
            std::function<void()> before_statement = nullptr);
  ~StudioApi();

  // The answer to `statement`, a JSON object: {"ok":true,"results":[...]}
  // with each JSON document the statement printed, or {"ok":false,
  // "error":"one line"}. A statement the read-only mode refuses, or one of
  // the shell's own (source, exit), is an error that changed nothing.
  // Rows (read, lookup, sql) come one document a row, at most
  // kMaxAnswerBytes of them: past that the statement is stopped and the
  // answer, the rows before the bound, says "truncated":true. A query's
  // answer also has "columns":[{"name","type"}]: its result columns with
  // their GoogleSQL types.
  std::string Run(std::string_view statement);

  // What the page's SQL editor completes besides tables and families:
  // {"ok":true,"functions":["ABS","ARRAY_AGG",...]}, GoogleSQL's functions.
  static std::string Words();

  // Where statements run: {"ok":true,"project":"p","instance":"i",
  // "on":"database 'mydb'","read_only":false}. `useinstance <id> [project=<p>]` moves them
  // (both of the studio's sessions) and answers the same.
  std::string Where();

  // Stops the statement running and refuses those after it ("the studio
  // is stopping"), so that a server stopping does not wait for them.
  void Close();

  // Stops the statement running now, if any (from another thread): it
  // answers {"ok":false,"error":"stopped"}. A local read stops at its next
  // row, a call to a remote Bigtable at once (Bigtable::CancelCalls).
  void Cancel();

  static constexpr size_t kMaxAnswerBytes = 8 << 20;
  // Another bound than kMaxAnswerBytes (tests use small ones).
  void set_max_answer_bytes(size_t bytes) { max_answer_bytes_ = bytes; }

 private:
  std::string UseInstance(const Statement& statement);
  std::string WhereLocked();  // mu_ held

  Bigtable* const bigtable_;
  std::mutex mu_;  // one statement at a time
  // Two sessions over the same Bigtable: documents (JSON) for most
  // commands, and JSON lines for those that stream rows, so that an
  // answer cut at its bound still parses.
  std::unique_ptr<Session> documents_;
  std::unique_ptr<Session> rows_;
  const bool read_only_;
  size_t max_answer_bytes_ = kMaxAnswerBytes;
  // At most this many statements wait for the one running: the rest are
  // answered "busy" at once.
  static constexpr int kMaxWaiting = 4;
  std::atomic<int> waiting_{0};
  std::atomic<bool> closed_{false};
  std::atomic<bool> running_{false};
  std::atomic<bool> cancelled_{false};
};

}  // namespace lbt::studio

#endif  // LBT_STUDIO_STUDIO_API_H_
