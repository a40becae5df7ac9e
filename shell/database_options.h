// How the shell opens a local database: the storage core's options, from
// the shell's own.

#ifndef LBT_SHELL_DATABASE_OPTIONS_H_
#define LBT_SHELL_DATABASE_OPTIONS_H_

#include "shell/options.h"
#include "storage/database.h"

namespace lbt {

// How the local database is opened, from --read-only, --sync, --gc and
// --gc-interval; notes go to stderr.
DatabaseOptions DatabaseOptionsFor(const LocalOptions& local);

}  // namespace lbt

#endif  // LBT_SHELL_DATABASE_OPTIONS_H_
