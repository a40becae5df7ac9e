// import and export: a table's rows from and to CSV or JSON-lines files.

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"
#include "commands/io/bulk_io.h"

namespace lbt {

namespace {

// format= if given; for an export, the file's extension (.csv or not).
Result<std::optional<bool>> FormatOption(CommandContext& ctx, const CbtArgs& parsed) {
  const std::string* format = parsed.Find("format");
  if (format == nullptr) return std::optional<bool>();
  if (*format != "csv" && *format != "jsonl") {
    return ctx.Usage(fmt::format("bad format '{}': expected csv or jsonl", *format));
  }
  return std::optional<bool>(*format == "jsonl");
}

Status Import(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  ImportRequest request;
  request.table = args[0];
  request.name = args[1];
  LBT_ASSIGN_OR_RETURN(request.jsonl, FormatOption(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(request.batch_size, PositiveOption(ctx, parsed, "batch-size"));
  LBT_ASSIGN_OR_RETURN(request.workers, PositiveOption(ctx, parsed, "workers"));
  LBT_ASSIGN_OR_RETURN(request.sort_memory_mib, PositiveOption(ctx, parsed, "sort-memory"));
  if (request.sort_memory_mib && *request.sort_memory_mib > (1 << 20)) {
    return ctx.Usage(fmt::format("bad sort-memory '{}': expected MiB, at most 1048576", *request.sort_memory_mib));
  }
  if (const std::string* family = parsed.Find("column-family")) request.column_family = *family;
  if (const std::string* ts = parsed.Find("timestamp")) {
    if (*ts != "now" && *ts != "value-encoded") {
      return ctx.Usage(fmt::format("bad timestamp '{}': expected now or value-encoded", *ts));
    }
    request.value_encoded_timestamps = *ts == "value-encoded";
    request.timestamps_chosen = true;
  }
  // "-" reads standard input, which is sniffed as a file is but not sized.
  std::ifstream file;
  if (args[1] != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(args[1], ec)) {
      return Status::InvalidArgument(fmt::format(
          "'{}' is a directory; import reads one CSV or JSON-lines file (or - for standard input)", args[1]));
    }
    file.open(args[1], std::ios::binary);
    if (!file) return Status::NotFound(fmt::format("cannot open '{}': {}", args[1], std::strerror(errno)));
    file.seekg(0, std::ios::end);
    request.input_bytes = file.tellg();
    file.seekg(0);
  }
  return ImportRows(ctx.bigtable(), request, args[1] == "-" ? &std::cin : &file, ctx.err);
}

Status Export(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_ASSIGN_OR_RETURN(std::optional<bool> format, FormatOption(ctx, parsed));
  const bool jsonl = format ? *format : !args[1].ends_with(".csv");  // jsonl unless .csv
  ReadRequest read;
  LBT_ASSIGN_OR_RETURN(read.rows, RowsFromOptions(ctx, parsed));
  Bigtable* bigtable = ctx.bigtable();
  LBT_RETURN_IF_ERROR(bigtable->GetTable(args[0]).status());
  const bool to_stdout = args[1] == "-";
  FILE* file = to_stdout ? stdout : std::fopen(args[1].c_str(), "wb");
  if (file == nullptr) return Status::IOError(fmt::format("cannot write '{}': {}", args[1], std::strerror(errno)));
  int64_t rows = 0;
  Status status;
  {
    Output out(file);
    Progress progress(ctx.err, "exporting " + args[0]);
    Result<int64_t> written =
        ExportRows(bigtable, args[0], read, jsonl ? ExportFormat::kJsonl : ExportFormat::kCsv,
                   ctx.session->options().bytes, &out, [&](int64_t n) {
                     progress.Update(n);
                     return InterruptRequested() ? Status::Cancelled("interrupted") : Status::OK();
                   });
    status = written.status();
    if (written.ok()) rows = *written;
  }
  if (!to_stdout && std::fclose(file) != 0 && status.ok()) {
    status = Status::IOError(fmt::format("cannot write '{}'", args[1]));
  }
  LBT_RETURN_IF_ERROR(status);
  ctx.err->Write(
      fmt::format("Exported {} row{} to {}.\n", rows, rows == 1 ? "" : "s", to_stdout ? "standard output" : args[1]));
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> ImportExportCommands() {
  const Arg file{.text = "<file>", .noun = "a file", .kind = ArgKind::kFile};
  return {
      {.name = "export",
       .summary = "Write a table's rows to a file",
       .args = {kTableArg, file},
       .options = {{.key = "format", .value = "jsonl|csv"},
                   {.key = "prefix", .value = "<prefix>"},
                   {.key = "start", .value = "<row>"},
                   {.key = "end", .value = "<row>"}},
       .details = "  jsonl (the default, unless the file ends in .csv) writes every cell as the\n"
                  "  row objects of --format jsonl, and import reads them back exactly. csv writes\n"
                  "  cbt's CSV layout with the newest cell of each column as <value>@<timestamp>\n"
                  "  (import it with timestamp=value-encoded). A file of - is standard output.\n"
                  "  prefix= or start= and end= choose the rows.\n\n"
                  "  Example: export mobile_time_series tablets.jsonl prefix=tablet#",
       .cbt = Export},
      {.name = "import",
       .summary = "Batch write many rows from a CSV or JSON lines file",
       .args = {kTableArg, file},
       .options = {{.key = "format", .value = "csv|jsonl"},
                   {.key = "column-family", .value = "<family>", .kind = ArgKind::kFamily},
                   {.key = "batch-size", .value = "<n>"},
                   {.key = "workers", .value = "<n>"},
                   {.key = "timestamp", .value = "<now|value-encoded>"},
                   {.key = "sort-memory", .value = "<MiB>"},
                   {.key = "app-profile", .value = "<id>", .use = OptionUse::kQuiet}},
       .details = "  The file may start with a column family row and must have a qualifier row;\n"
                  "  the first column holds row keys and is empty in the header rows:\n\n"
                  "      ,stats,,meta\n"
                  "      ,cpu,mem,os\n"
                  "      host1,0.5,12,linux\n\n"
                  "  Without a family row, name the family with column-family=. With\n"
                  "  timestamp=value-encoded a cell may be written <value>@<micros>. A file\n"
                  "  whose first row's values all end in @<micros>, as export writes them, is\n"
                  "  refused unless timestamp= says how to take them (now keeps the values).\n\n"
                  "  An input that starts with '{' holds JSON lines (the row objects of --format\n"
                  "  jsonl; a cell without \"timestamp\" gets the current time); format=\n"
                  "  overrides the guess. A file of - is standard input.\n\n"
                  "  Locally, rows are sorted in sort-memory MiB (32; beyond it, sorted runs\n"
                  "  go to a temporary file in the database's folder) and written in key\n"
                  "  order once the input is read, in transactions of about 4 MiB (or of\n"
                  "  batch-size rows). To a remote Bigtable they go in batches of batch-size\n"
                  "  (1000), workers batches in flight (4). Each row applies on its own: a row\n"
                  "  that fails is reported with its line and key, the others are written,\n"
                  "  and the exit status is 1.\n\n"
                  "  Example: import mobile_time_series mobile_time_series.jsonl batch-size=1000",
       .cbt = Import},
  };
}

}  // namespace lbt
