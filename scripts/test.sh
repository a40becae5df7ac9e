#!/usr/bin/env bash
# Sets up and builds lbt if needed, then runs the whole test suite.
# Extra arguments go to ctest, e.g. ./scripts/test.sh -R KeyCodec
set -euo pipefail
LBT_FOR_TESTS=1
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_BUILD_DIR"
exec ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
