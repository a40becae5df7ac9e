#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer (plus ASan and UBSan) and
# runs each for a while, starting from the saved inputs in
# tests/fuzz_inputs/<target>. An input that crashes is copied there, so
# the test suite replays it from then on; fix the bug, keep the input.
#
#   ./scripts/fuzz.sh                 every target, 60 s each
#   FUZZ_SECONDS=600 ./scripts/fuzz.sh filter_json
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LBT_ROOT"
seconds="${FUZZ_SECONDS:-60}"
build="$LBT_ROOT/build-fuzz"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tokenizer hbasesyntax filterjson hbasefilter gcpolicy importers keycodec sqlquery sqlexpression)

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLBT_FUZZ=ON \
    -DLBT_BUILD_TESTS=OFF >"$build.log" 2>&1 || { cat "$build.log"; exit 1; }
fi
# Only the fuzzers asked for (the rest of the project, gRPC's code above
# all, is not needed for them).
fuzzers=()
for target in "${targets[@]}"; do fuzzers+=("fuzz_$target"); done
cmake --build "$build" -j "$(nproc)" --target "${fuzzers[@]}" >"$build.log" 2>&1 || { tail -50 "$build.log"; exit 1; }

failed=0
for target in "${targets[@]}"; do
  # Saved inputs live under the target's name with underscores.
  case "$target" in
    hbasesyntax) dir=hbase_syntax ;; filterjson) dir=filter_json ;; hbasefilter) dir=hbase_filter ;;
    gcpolicy) dir=gc_policy ;; keycodec) dir=key_codec ;; sqlquery) dir=sql_query ;; sqlexpression) dir=sql_expression ;; *) dir="$target" ;;
  esac
  corpus="$build/corpus/$target"
  artifacts="$build/crashes/$target/"
  mkdir -p "$corpus" "$artifacts"
  cp -n tests/fuzz_inputs/"$dir"/* "$corpus"/ 2>/dev/null || true
  echo "fuzzing $target for ${seconds}s"
  if ! "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$artifacts" \
      -print_final_stats=1 "$corpus" >"$build/$target.log" 2>&1; then
    failed=1
    for crash in "$artifacts"*; do
      cp "$crash" "tests/fuzz_inputs/$dir/$(basename "$crash")"
      echo "  $target crashed; the input is saved as tests/fuzz_inputs/$dir/$(basename "$crash")"
    done
    grep -E "ERROR|SUMMARY" "$build/$target.log" | head -5
  else
    grep -E "stat::number_of_executed_units" "$build/$target.log" | sed "s/^/  /"
  fi
done
exit $failed
