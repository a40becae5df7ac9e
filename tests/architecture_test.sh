#!/usr/bin/env bash
# The code keeps ARCHITECTURE.md's dependency rules: each folder includes
# only its own headers and those of the folders it may use, directly or
# through another (the graph under "## Dependencies", read from the file
# itself, so that the check and the document cannot drift apart); LMDB's
# header only in storage/, gRPC's only in the folders that speak gRPC.
# Usage: architecture_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"

# The graph's lines, "folder/ → used/, used/, ...": one "folder used" pair
# a line, every folder named after the arrow (the parenthesis of shell/
# included: lbt-grpc's folders).
edges="$(awk '/^## Dependencies/ { in_section = 1 } in_section && /^```/ { fence++; next }
  in_section && fence == 1 && /→/ {
    split($0, sides, "→"); from = sides[1]; gsub(/[ \/]/, "", from)
    print from " " from
    rest = sides[2]
    while (match(rest, /[a-z_]+\//)) { print from " " substr(rest, RSTART, RLENGTH - 1); rest = substr(rest, RSTART + RLENGTH) }
  }' ARCHITECTURE.md)"
folders="$(cut -d' ' -f1 <<<"$edges" | sort -u)"
[ "$(wc -w <<<"$folders")" -ge 10 ] || { echo "FAIL: could not read the dependency graph from ARCHITECTURE.md" >&2; exit 1; }

# What each folder may include: the folders it reaches through the graph.
allowed() {
  local reached="$1" next
  while :; do
    next="$(for f in $reached; do awk -v f="$f" '$1 == f { print $2 }' <<<"$edges"; done | sort -u | tr '\n' ' ')"
    [ "$next" = "$reached" ] && break
    reached="$next"
  done
  echo "$reached"
}

failures=0
report() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
for folder in $folders; do
  may="$(allowed "$folder")"
  # Every include of a project folder's header, as "file:line:folder".
  while IFS=: read -r file line used; do
    grep -qw -- "$used" <<<"$may" || report "$file:$line includes $used/, which $folder/ may not use (ARCHITECTURE.md)"
  done < <(git ls-files "$folder" | grep -E '\.(h|cc)$' |
    xargs -r grep -nEo "^#include [\"<]($(tr '\n' '|' <<<"$folders" | sed 's/|$//'))/" |
    sed -E 's/#include ["<]//; s/\/$//')
done

# The libraries: LMDB is the storage core's; gRPC is spoken by proto/, server/,
# remote/ and shell/ (lbt-grpc) only.
while IFS=: read -r file line _; do
  report "$file:$line includes LMDB outside storage/"
done < <(git ls-files $folders | grep -E '\.(h|cc)$' | grep -v '^storage/' |
  xargs -r grep -nE '^#include [<"]lmdb\.h[>"]' || true)
while IFS=: read -r file line _; do
  report "$file:$line includes gRPC outside proto/, server/, remote/ and shell/"
done < <(git ls-files $folders | grep -E '\.(h|cc)$' | grep -vE '^(proto|server|remote|shell)/' |
  xargs -r grep -nE '^#include [<"]grpc(pp)?/' || true)

if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures include(s) break ARCHITECTURE.md's rules" >&2
  exit 1
fi
echo "architecture: ok ($(wc -w <<<"$folders") folders)"
