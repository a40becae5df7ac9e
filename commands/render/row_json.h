// The JSON row object of --format json and jsonl, written straight into a
// string: a full scan writes millions of them. (See renderer.h for the
// object's fields.) Internal to render/.

#ifndef LBT_COMMANDS_RENDER_ROW_JSON_H_
#define LBT_COMMANDS_RENDER_ROW_JSON_H_

#include <string>

#include "api/cell.h"
#include "api/schema.h"
#include "commands/render/renderer.h"

namespace lbt {

// Appends the row object of `row`; with `table`, cells of its aggregate
// families carry "value_int" too.
void AppendRowJson(std::string* out, const Row& row, BytesMode mode, const TableSpec* table);

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_ROW_JSON_H_
