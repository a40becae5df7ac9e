#!/usr/bin/env bash
# Builds lbt and its tests with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-asan/ and runs the whole suite there. Any report fails the run.
# Extra arguments go to ctest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"
build="$LBT_ROOT/build-asan"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLBT_SANITIZE=ON >"$build.log" 2>&1 \
    || { cat "$build.log"; exit 1; }
fi
cmake --build "$build" -j "$(nproc)" >"$build.log" 2>&1 || { tail -50 "$build.log"; exit 1; }
cd "$build"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
exec ctest --output-on-failure -j "$(nproc)" "$@"
