// Cells and rows as reads return them and mutations describe them.

#ifndef LBT_API_CELL_H_
#define LBT_API_CELL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace lbt {

// Asks for the server's time: now, truncated to milliseconds.
inline constexpr int64_t kServerTime = -1;

struct Cell {
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;  // microseconds since the epoch
  std::string value;
  std::vector<std::string> labels;  // set by label filters

  bool operator==(const Cell& o) const {
    return family == o.family && qualifier == o.qualifier && timestamp == o.timestamp && value == o.value &&
           labels == o.labels;
  }
};

// A row as read: its key and its cells in storage order: families in the
// order they were created (as production orders them; see FamilySpec::id),
// qualifiers in byte order, newest timestamp first. A remote service's rows
// keep the order it sent.
struct Row {
  std::string key;
  std::vector<Cell> cells;
};

// Encodes an int64 the way aggregate cells and counters store it: 8 bytes,
// big-endian, two's complement.
std::string EncodeInt64(int64_t v);
// Decodes EncodeInt64's output. Returns false if `bytes` is not 8 bytes long.
bool DecodeInt64(const std::string& bytes, int64_t* v);

}  // namespace lbt

#endif  // LBT_API_CELL_H_
