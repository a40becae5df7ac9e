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
// commands are not meant to run side by side.

#ifndef LBT_STUDIO_STUDIO_API_H_
#define LBT_STUDIO_STUDIO_API_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "api/bigtable.h"
#include "api/instance.h"
#include "commands/core/session.h"

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
  std::string Run(std::string_view statement);

  // Whether `statement` only reads: what the page may run under
  // --read-only. Some commands run nowhere in the studio (those reaching
  // the machine's files, watch, useinstance, the HBase shell's language).
  static bool OnlyReads(std::string_view statement);

 private:
  std::mutex mu_;
  std::unique_ptr<Session> session_;
  const bool read_only_;
};

}  // namespace lbt::studio

#endif  // LBT_STUDIO_STUDIO_API_H_
