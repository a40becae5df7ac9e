#!/usr/bin/env bash
# Every virtual method of an interface is forwarded by its forwarding
# class: a forward left out still compiles, and answers with the
# interface's default (Unimplemented) wherever a forwarder stands in (the
# lazily opened remote client, the server's per-call wrapper, explain).
# Usage: forwarding_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"

# The names of the virtual methods class $2 of header $1 declares
# (destructors aside): its body runs from "class $2 " to the first "};".
virtuals() {
  awk -v name="$2" '$0 ~ "^class " name "[ :{]" { inside = 1 } inside { print } inside && /^};/ { exit }' "$1" |
    tr '\n' ' ' | grep -oE 'virtual [^;{]*\(' | grep -v '~' | sed -E 's/.*[ *&]([A-Za-z_][A-Za-z0-9_]*)\($/\1/' |
    sort -u
}
# The names of the methods a header overrides.
overrides() {
  tr '\n' ' ' <"$1" | grep -oE '[A-Za-z_][A-Za-z0-9_]*\([^;{]*\)( const)? override' |
    sed -E 's/^([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u
}

failures=0
check() {  # check HEADER:CLASS... FORWARDER_HEADER
  local forwarder="${*: -1}" missing
  missing="$(comm -23 <(for c in "${@:1:$#-1}"; do virtuals "${c%%:*}" "${c#*:}"; done | sort -u) <(overrides "$forwarder"))"
  if [ -n "$missing" ]; then
    echo "FAIL: $forwarder does not forward: $(echo $missing)" >&2
    failures=$((failures + 1))
  fi
}
check api/table.h:Table api/forwarding_table.h
check api/table_admin.h:TableAdmin api/bigtable.h:Bigtable api/forwarding_bigtable.h
[ "$failures" -eq 0 ] || exit 1
echo "forwarding: every virtual method forwarded"
