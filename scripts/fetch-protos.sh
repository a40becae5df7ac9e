#!/usr/bin/env bash
# Fetches Bigtable's .proto files (Data API v2, Table Admin API v2 and every
# file they import) from the npm package google-proto-files at a pinned
# version, checks the tarball against its pinned integrity hash, and unpacks
# them into DEST. Run by scripts/setup.sh and, when DEST is missing, by CMake.
# Nothing here is committed to the repository or downloaded at run time.
#
#   scripts/fetch-protos.sh DEST
set -euo pipefail

readonly PACKAGE="google-proto-files"
readonly VERSION="6.0.1"
# The registry's integrity field for this version, "sha512-fbvUWVNh3rKG...",
# written in hex so that coreutils' sha512sum can check it.
readonly SHA512="7dbbd4595361deb286955156c2550d17b4a4d536a1d1af3dab4dab2d35ec5a36ca28719eb944406bcb65f6bbeee53c969f2d58892228e5e0ea176eb44da8babd"
# The folders of the package that the Bigtable protos need. The protobuf
# well-known types come from libprotobuf-dev, matching the library we link.
readonly FOLDERS=(api bigtable iam longrunning rpc type)

say() { printf 'lbt fetch-protos: %s\n' "$*" >&2; }

dest="${1:?usage: fetch-protos.sh DEST}"
stamp="$dest/.$PACKAGE-$VERSION"
[ -f "$stamp" ] && exit 0

command -v npm >/dev/null 2>&1 || { say "npm is needed to fetch $PACKAGE (apt-get install npm)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! (cd "$work" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null 2>"$work/npm.log"); then
  cat "$work/npm.log" >&2
  say "could not fetch $PACKAGE@$VERSION from the npm registry"
  exit 1
fi
tarball="$work/$PACKAGE-$VERSION.tgz"
actual="$(sha512sum "$tarball" | cut -d' ' -f1)"
if [ "$actual" != "$SHA512" ]; then
  say "$PACKAGE@$VERSION does not match its pinned integrity hash (got $actual)"
  exit 1
fi
members=()
for folder in "${FOLDERS[@]}"; do members+=("package/google/$folder"); done
tar -xzf "$tarball" -C "$work" "${members[@]}"
rm -rf "$dest"
mkdir -p "$dest"
mv "$work/package/google" "$dest/google"
touch "$stamp"
say "unpacked $PACKAGE@$VERSION into $dest"
