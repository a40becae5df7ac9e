// Makes one fuzz target (named by LBT_FUZZ_TARGET) a libFuzzer binary.
#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lbt::fuzz::LBT_FUZZ_TARGET(data, size);
  return 0;
}
