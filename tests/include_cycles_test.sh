#!/usr/bin/env bash
# The includes form no cycle, at two levels: between modules (a module is
# a .h/.cc pair, "storage/catalog" for catalog.h and catalog.cc; A uses B
# when a file of A includes B's header) and between the top-level folders
# (the libraries). A cycle is printed as the path that closes it, e.g.
# "storage/catalog -> local/instance_records -> storage/catalog". And
# storage/ includes no product header (below).
# Usage: include_cycles_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"

# Every project include, as "including-file included-file": only includes
# of files the repository holds (so <...> system headers drop out).
sources="$(git ls-files '*.h' '*.cc' | grep -vE '^(tests|build)/')"
includes="$(xargs -r grep -HoE '^#include "[^"]+"' <<<"$sources" | sed -E 's/:#include "/ /; s/"$//' |
  awk 'NR == FNR { known[$0] = 1; next } ($2 in known) { print }' <(echo "$sources") -)"

# Prints one cycle of the graph on stdin ("from to" lines), or nothing.
find_cycle() {
  awk '
    { if ($1 != $2 && !(($1, $2) in seen)) { seen[$1, $2] = 1; out[$1] = out[$1] " " $2; nodes[$1] = 1; nodes[$2] = 1 } }
    # Depth-first search; state 1: on the current path, 2: finished.
    function visit(node, depth,    n, next_nodes, i, j, cycle) {
      state[node] = 1; path[depth] = node
      n = split(out[node], next_nodes, " ")
      for (i = 1; i <= n; i++) {
        if (state[next_nodes[i]] == 1) {
          for (j = 1; path[j] != next_nodes[i]; j++) {}
          cycle = path[j]
          for (j++; j <= depth; j++) cycle = cycle " -> " path[j]
          print cycle " -> " next_nodes[i]
          return 1
        }
        if (state[next_nodes[i]] == 0 && visit(next_nodes[i], depth + 1)) return 1
      }
      state[node] = 2
      return 0
    }
    END { for (node in nodes) if (state[node] == 0 && visit(node, 1)) exit }'
}

failures=0
module_cycle="$(sed -E 's/\.(h|cc)( |$)/\2/g' <<<"$includes" | find_cycle)"
if [ -n "$module_cycle" ]; then
  echo "FAIL: modules include each other: $module_cycle" >&2
  failures=$((failures + 1))
fi
folder_cycle="$(awk '{ split($1, a, "/"); split($2, b, "/"); print a[1] " " b[1] }' <<<"$includes" | find_cycle)"
if [ -n "$folder_cycle" ]; then
  echo "FAIL: folders include each other: $folder_cycle" >&2
  failures=$((failures + 1))
fi
# The storage core implements no api interface and knows nothing of the
# product: no instance, view or service interface, nothing of local/.
storage_uses="$(awk '$1 ~ /^storage\// && $2 ~ /^(local\/|api\/(bigtable|instance|instance_admin|logical_view|materialized_view|table_admin|forwarding_bigtable|deferred_bigtable)\.h$)/' <<<"$includes")"
if [ -n "$storage_uses" ]; then
  echo "FAIL: storage/ includes what it must not:" >&2
  echo "$storage_uses" >&2
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || exit 1
echo "include cycles: none ($(wc -l <<<"$includes") includes)"
