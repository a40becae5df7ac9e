#!/usr/bin/env bash
# The C++ sources follow .clang-format: clang-format would change none of
# them. Usage: style_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
git ls-files '*.cc' '*.h' | xargs clang-format --dry-run --Werror 2>&1 | head -n 20 >"${TMPDIR:-/tmp}/lbt-style.$$" || true
if [ -s "${TMPDIR:-/tmp}/lbt-style.$$" ]; then
  cat "${TMPDIR:-/tmp}/lbt-style.$$" >&2
  rm -f "${TMPDIR:-/tmp}/lbt-style.$$"
  echo "FAIL: run clang-format -i on the files above" >&2
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/lbt-style.$$"
echo "style: ok"
