// Fuzz targets: each takes arbitrary bytes and must neither crash nor
// break an invariant (it aborts when one breaks). scripts/fuzz.sh builds
// each as a libFuzzer binary; tests/fuzz_regression_test replays the saved
// inputs through them in the normal test suite.

#ifndef LBT_FUZZ_TARGETS_H_
#define LBT_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lbt::fuzz {

using Target = void (*)(const uint8_t* data, size_t size);

void Tokenizer(const uint8_t* data, size_t size);      // cbt command lines
void HBaseSyntax(const uint8_t* data, size_t size);    // HBase shell arguments
void FilterJson(const uint8_t* data, size_t size);     // RowFilter JSON, compiled and run
void HBaseFilter(const uint8_t* data, size_t size);    // HBase filter language, compiled and run
void GcPolicy(const uint8_t* data, size_t size);       // GC expressions; printing round-trips
void Importers(const uint8_t* data, size_t size);      // CSV and JSON lines imports
void KeyCodec(const uint8_t* data, size_t size);       // cell keys decode; encoding round-trips
void SqlQuery(const uint8_t* data, size_t size);       // GoogleSQL parsed, bound and run on a small table
void SqlExpression(const uint8_t* data, size_t size);  // GoogleSQL expressions of any depth, bound and run

struct NamedTarget {
  const char* name;
  Target fn;
};
const std::vector<NamedTarget>& AllTargets();

}  // namespace lbt::fuzz

#endif  // LBT_FUZZ_TARGETS_H_
