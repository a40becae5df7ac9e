// Renderers turn command results into bytes: cbt's text, one JSON document
// per command, or JSON lines streamed row by row. Handlers call a Renderer
// and never format output themselves.
//
// The JSON row object:
//   {"key": <bytes>, "cells": [{"family": "...", "qualifier": <bytes>,
//    "timestamp": <micros>, "value": <bytes>, "labels": [...]}, ...]}
// A bytes field holds a string when its bytes are valid UTF-8, and is
// otherwise named with a "_b64" suffix and holds standard base64 (always,
// with BytesMode::kBase64). "labels" appears only on labelled cells.

#ifndef LBT_COMMANDS_RENDERER_H_
#define LBT_COMMANDS_RENDERER_H_

#include <memory>
#include <string>
#include <vector>

#include "commands/output.h"
#include "api/cell.h"
#include "api/row_set.h"
#include "api/schema.h"

namespace lbt {

enum class OutputFormat { kText, kJson, kJsonl };
enum class BytesMode { kAuto, kBase64 };

// What a read reports with include-stats=full.
struct ReadSummary {
  ReadStats stats;
  int64_t latency_ms = 0;
  // Where a remote read's filter ran (see remote/filter_plan.h); "" for a
  // local read. Text shows it only when part ran on the client.
  std::string filter_placement;
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  static std::unique_ptr<Renderer> Create(OutputFormat format, BytesMode bytes, Output* out);

  virtual void Tables(const std::vector<std::string>& names) = 0;
  virtual void TableInfo(const TableSpec& table) = 0;
  virtual void Count(int64_t rows) = 0;

  // A read: BeginRows, Row for each row, EndRows (summary may be null).
  // `table`, if known, is the table read: JSON then also shows each cell
  // of an aggregate family as the integer it holds ("value_int").
  virtual void BeginRows(const TableSpec* table) = 0;
  virtual void Row(const Row& row) = 0;
  // A lookup of a row that does not exist (cbt prints an empty row).
  virtual void AbsentRow() = 0;
  virtual void EndRows(const ReadSummary* summary) = 0;
};

// The JSON row object as one line of text, without a newline; with
// `table`, cells of its aggregate families carry "value_int" too.
std::string RowToJson(const Row& row, BytesMode bytes, const TableSpec* table = nullptr);

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDERER_H_
