#!/usr/bin/env bash
# Sourced by run.sh and test.sh: installs the Debian packages lbt needs when
# they are missing, then configures and builds into build/ (incrementally).
#
#   LBT_BUILD_DIR   where to build (default: build)
#   LBT_BUILD_TYPE  CMake build type (default: Release)

set -euo pipefail

LBT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LBT_BUILD_DIR="${LBT_BUILD_DIR:-$LBT_ROOT/build}"
LBT_BUILD_TYPE="${LBT_BUILD_TYPE:-Release}"

LBT_PACKAGES=(
  cmake g++ make pkg-config
  liblmdb-dev lmdb-utils zlib1g-dev
  libfmt-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libre2-dev libedit-dev libutf8proc-dev libs2-dev libcpp-httplib-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc libjemalloc-dev
  tmux jq clang-format
)

lbt_say() { printf 'lbt setup: %s\n' "$*" >&2; }

lbt_install_packages() {
  local missing=() pkg
  for pkg in "${LBT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      lbt_say "missing packages: ${missing[*]}; install them as root (apt-get install ${missing[*]})"
      return 1
    fi
  fi
  lbt_say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}

lbt_build() {
  local log="$LBT_BUILD_DIR/build.log"
  mkdir -p "$LBT_BUILD_DIR"
  if [ ! -f "$LBT_BUILD_DIR/CMakeCache.txt" ]; then
    if ! cmake -S "$LBT_ROOT" -B "$LBT_BUILD_DIR" -DCMAKE_BUILD_TYPE="$LBT_BUILD_TYPE" >"$log" 2>&1; then
      cat "$log" >&2
      lbt_say "configuring failed"
      return 1
    fi
  fi
  if ! cmake --build "$LBT_BUILD_DIR" -j "$(nproc 2>/dev/null || echo 2)" >"$log" 2>&1; then
    cat "$log" >&2
    lbt_say "the build failed (log: $log)"
    return 1
  fi
}

# npm fetches the pinned Bigtable .proto files at setup; nodejs runs the
# client-library tests. A Node.js installed some other way is kept.
if ! command -v npm >/dev/null 2>&1; then LBT_PACKAGES+=(nodejs npm); fi
# The test suite also drives keyviz's page and lbt studio's in headless
# browsers (Chromium, and Firefox for the studio); only test.sh asks for
# them (LBT_FOR_TESTS=1), so run.sh stays light.
if [ "${LBT_FOR_TESTS:-0}" = 1 ]; then LBT_PACKAGES+=(chromium firefox-esr); fi

lbt_install_packages
"$LBT_ROOT/scripts/fetch-protos.sh" "$LBT_BUILD_DIR/protos"
lbt_build
