#!/usr/bin/env bash
# Sets up and builds lbt if needed, then runs it with the given arguments.
# With none, it opens the interactive shell on the default database.
#
#   ./scripts/run.sh                        # the shell on ./lbt-data
#   ./scripts/run.sh --db mydb ls           # one command, then exit
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec "$LBT_BUILD_DIR/lbt" "$@"
