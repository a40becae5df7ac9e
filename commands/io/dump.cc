// schema and dump: a database as a script lbt runs back, as sqlite3's
// .schema and .dump do. `schema` prints the commands that recreate the
// tables; `dump` adds every cell, as set (or addtocell, for aggregate
// families) commands, so that `lbt --db copy -f dump.cbt` rebuilds it.

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands/cbt/gc_policy_text.h"
#include "commands/command_sets.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"
#include "commands/core/read_pipeline.h"

namespace lbt {

namespace {

// `bytes` as one word the tokenizer reads back exactly: bare when it is
// made of plain characters, else in $'...' with escapes.
std::string Word(std::string_view bytes) {
  auto plain = [](unsigned char c) {
    return std::isalnum(c) != 0 || std::string_view("_-.,:/@+=%#").find(static_cast<char>(c)) != std::string_view::npos;
  };
  bool bare = !bytes.empty() && bytes.front() != '#';
  for (unsigned char c : bytes) bare = bare && plain(c);
  if (bare) return std::string(bytes);
  std::string word = "$'";
  for (unsigned char c : bytes) {
    if (c == '\\' || c == '\'') {
      word += '\\';
      word += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      word += fmt::format("\\x{:02x}", c);
    } else {
      word += static_cast<char>(c);
    }
  }
  return word + "'";
}

// The commands that recreate `table`'s schema: its families in creation
// order, with their GC policies and value types.
std::vector<std::string> SchemaStatements(const TableSpec& table) {
  std::string families;
  std::vector<std::string> after;
  for (const FamilySpec* f : table.FamiliesInCreationOrder()) {
    families += (families.empty() ? "" : ",") + f->name;
    const bool aggregate = IsAggregate(f->value_type);
    if (f->gc_rule.kind != GcRule::Kind::kNever || aggregate) families += ":" + FormatGcPolicyTyped(f->gc_rule);
    if (aggregate) families += fmt::format(":{}", ValueTypeName(f->value_type));
    if (f->value_type == ValueType::kString) {
      after.push_back(fmt::format("setvaluetype {} {} stringutf8bytes", Word(table.name), f->name));
    }
  }
  std::vector<std::string> statements = {
      families.empty() ? fmt::format("createtable {}", Word(table.name))
                       : fmt::format("createtable {} {}", Word(table.name), Word("families=" + families))};
  statements.insert(statements.end(), after.begin(), after.end());
  return statements;
}

// The commands that write `row` back: one set for its plain cells and one
// addtocell for its aggregate ones.
Result<std::string> RowStatements(const TableSpec& table, const Row& row) {
  std::string set, add;
  for (const Cell& c : row.cells) {
    if (c.qualifier.find('=') != std::string::npos) {
      return Status::FailedPrecondition(
          fmt::format("{} {} {}:{}: a qualifier with '=' cannot be written by set; use export and import", table.name,
                      row.key, c.family, c.qualifier));
    }
    const FamilySpec* family = table.FindFamily(c.family);
    if (family != nullptr && IsAggregate(family->value_type)) {
      int64_t value = 0;
      DecodeInt64(c.value, &value);
      add += " " + Word(fmt::format("{}:{}={}@{}", c.family, c.qualifier, value, c.timestamp));
    } else {
      set += " " + Word(fmt::format("{}:{}={}@{}", c.family, c.qualifier, c.value, c.timestamp));
    }
  }
  std::string text;
  const std::string where = Word(table.name) + " " + Word(row.key);
  if (!set.empty()) text += "set " + where + set + "\n";
  if (!add.empty()) text += "addtocell " + where + add + "\n";
  return text;
}

// The tables named, or every table.
Result<std::vector<TableSpec>> TablesOf(CommandContext& ctx, const std::vector<std::string>& names) {
  std::vector<std::string> all = names;
  if (all.empty()) {
    LBT_ASSIGN_OR_RETURN(all, ctx.bigtable()->ListTables());
  }
  std::vector<TableSpec> tables;
  for (const std::string& name : all) {
    LBT_ASSIGN_OR_RETURN(TableSpec spec, ctx.bigtable()->GetTable(name));
    tables.push_back(std::move(spec));
  }
  return tables;
}

Status Schema(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<TableSpec> tables, TablesOf(ctx, args));
  for (const TableSpec& table : tables) {
    for (const std::string& statement : SchemaStatements(table)) ctx.renderer->Statement(statement);
  }
  return Status::OK();
}

// Writes every table's schema and rows to `out`; the number of rows.
Result<int64_t> WriteDump(CommandContext& ctx, const std::vector<TableSpec>& tables, Output* out) {
  int64_t rows = 0;
  Progress progress(ctx.err, "dumping");
  for (const TableSpec& table : tables) {
    out->Write(fmt::format("# table {}\n", table.name));
    for (const std::string& statement : SchemaStatements(table)) out->Write(statement + "\n");
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ctx.bigtable()->ReadRows(table.name, ReadRequest{}));
    Status failed;
    LBT_RETURN_IF_ERROR(ForEachRow(stream.get(), [&](const Row& row, int64_t) {
                          Result<std::string> text = RowStatements(table, row);
                          if (!text.ok()) {
                            if (failed.ok()) failed = text.status();
                            return;
                          }
                          out->Write(*text);
                          progress.Update(++rows);
                        }).status());
    LBT_RETURN_IF_ERROR(failed);
  }
  return rows;
}

// A disabled table's rows cannot be read: said before anything is written.
Status CheckReadable(const std::vector<TableSpec>& tables) {
  for (const TableSpec& table : tables) {
    if (!table.enabled) {
      return Status::FailedPrecondition(
          fmt::format("table '{}' is disabled and its rows cannot be read; enable it to dump it", table.name));
    }
  }
  return Status::OK();
}

Status Dump(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<TableSpec> tables, TablesOf(ctx, {}));
  LBT_RETURN_IF_ERROR(CheckReadable(tables));
  const bool to_stdout = args.empty() || args[0] == "-";
  if (to_stdout) return WriteDump(ctx, tables, ctx.out).status();
  // Written beside the file and renamed over it once whole: a dump that
  // fails leaves no partial script behind.
  const std::string temporary = args[0] + ".partial";
  FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return Status::IOError(fmt::format("cannot write '{}': {}", temporary, std::strerror(errno)));
  Result<int64_t> rows = [&] {
    Output out(file);
    return WriteDump(ctx, tables, &out);
  }();
  if (std::fclose(file) != 0 && rows.ok()) rows = Status::IOError(fmt::format("cannot write '{}'", temporary));
  if (rows.ok() && std::rename(temporary.c_str(), args[0].c_str()) != 0) {
    rows = Status::IOError(fmt::format("cannot write '{}': {}", args[0], std::strerror(errno)));
  }
  if (!rows.ok()) {
    std::remove(temporary.c_str());
    return rows.status();
  }
  ctx.err->Write(fmt::format("Dumped {} table{} and {} row{} to {}.\n", tables.size(), tables.size() == 1 ? "" : "s",
                             *rows, *rows == 1 ? "" : "s", args[0]));
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> DumpCommands() {
  return {
      {.name = "dump",
       .summary = "Write the whole database as a script lbt runs back (lbt)",
       .args = {{.text = "<file>", .noun = "a file", .kind = ArgKind::kFile, .arity = Arity::kOptional}},
       .details = "  Every table's schema (createtable with its families in creation order,\n"
                  "  GC policies and value types), then every cell as set, or addtocell for an\n"
                  "  aggregate family, with its timestamp. Without a file, or with -, to\n"
                  "  standard output. Run it back with: lbt --db copy -f dump.cbt\n"
                  "  For large tables, export and import are faster.\n\n"
                  "  Example: dump backup.cbt",
       .cbt = Dump},
      {.name = "schema",
       .summary = "Print the commands that recreate tables (lbt)",
       .args = {{.text = "table", .noun = "a table", .kind = ArgKind::kTable, .arity = Arity::kOptionalRepeated}},
       .details = "  createtable with the families in creation order, their GC policies and\n"
                  "  value types: every table's, or those named.\n\n"
                  "  Example: schema mobile_time_series",
       .cbt = Schema},
  };
}

}  // namespace lbt
