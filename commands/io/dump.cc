// schema and dump: a database as a script lbt runs back, as sqlite3's
// .schema and .dump do. `schema` prints the commands that recreate every
// instance with its tables, their change streams and authorized views,
// and its materialized and logical views; `dump` adds every cell, as set
// (or addtocell, for aggregate families) commands, so that
// `lbt --db copy -f dump.cbt` rebuilds it. What no command can recreate
// (backups, IAM policies, a table's deletion protection, ...) each says
// before it writes anything.

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/command_sets.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"
#include "commands/core/read_pipeline.h"
#include "commands/io/dump_contents.h"
#include "commands/render/text_format.h"

namespace lbt {

namespace {

// The commands that recreate `table`'s schema: its families in creation
// order, with their GC policies and value types, its granularity, its
// row-key schema and its tiered storage rule.
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
  std::string create = fmt::format("createtable {}", Word(table.name));
  if (!families.empty()) create += " " + Word("families=" + families);
  if (table.granularity != TimestampGranularity::kMillis) {
    create += fmt::format(" granularity={}", GranularityName(table.granularity));
  }
  if (table.row_key_schema) {
    create += " " + Word("row-key=" + RowKeyFieldsText(*table.row_key_schema));
    create += " " + Word("row-key-encoding=" + RowKeyEncodingText(*table.row_key_schema));
  }
  std::vector<std::string> statements = {std::move(create)};
  // A bundle's descriptors are binary and a typed family needs its bundle
  // first: the dump says what it leaves for the user to restore.
  for (const SchemaBundleSpec& bundle : table.schema_bundles) {
    after.push_back(
        fmt::format("# schema bundle {} of {} is not in the dump: restore it with createschemabundle {} {} "
                    "<its .proto or descriptor set>",
                    bundle.id, table.name, Word(table.name), bundle.id));
  }
  for (const FamilySpec* f : table.FamiliesInCreationOrder()) {
    if (!f->type_name.empty()) {
      after.push_back(fmt::format("# column family {} of {} holds {} {} of schema bundle {}; dumped as bytes", f->name,
                                  table.name, f->value_type == ValueType::kProto ? "message" : "enum", f->type_name,
                                  f->schema_bundle_id));
    }
  }
  if (table.tiered_storage) {
    after.push_back(fmt::format("settieredstorage {} {}", Word(table.name),
                                FormatSpan(table.tiered_storage->infrequent_access_older_than_micros)));
  }
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
    // An HLL++ cell's sketch is set back as it is (a set of a sketch is
    // taken whole).
    if (family != nullptr && IsIntAggregate(family->value_type)) {
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

// Where a script's statements go: schema renders them, dump writes them
// to its file with its rows between them.
struct ScriptSink {
  std::function<void(const std::string& statement)> statement;
  std::function<void(const std::string& comment)> comment;  // dump's alone
  // Writes a table's rows (dump's); unset for schema.
  std::function<Status(Bigtable* bigtable, const TableSpec& table)> rows;
};

// Does the script name each instance (useinstance)? Not when it holds one
// instance that was never created: it then runs into whichever instance
// it is run in, as before instances.
bool NamesInstances(const DatabaseContents& contents) {
  return contents.instances.size() > 1 || contents.instances.front().record.has_value();
}

Status WriteTables(const InstanceContents& in, const ScriptSink& sink) {
  for (const TableContents& t : in.tables) {
    sink.comment(fmt::format("# table {}", t.spec.name));
    for (const std::string& statement : SchemaStatements(t.spec)) sink.statement(statement);
    if (sink.rows) LBT_RETURN_IF_ERROR(sink.rows(in.bigtable, t.spec));
    // After the rows: their writes need not be recorded.
    if (t.spec.change_stream) sink.statement(ChangeStreamStatement(t.spec));
    for (const AuthorizedViewSpec& view : t.authorized_views) {
      if (std::optional<std::string> statement = AuthorizedViewStatement(t.spec.name, view)) sink.statement(*statement);
    }
  }
  return Status::OK();
}

// Materialized views after the tables they read (and their rows, which
// their first build reads), then logical views, which may read them.
void WriteViews(const InstanceContents& in, const ScriptSink& sink) {
  for (const MaterializedViewSpec& view : in.materialized_views) {
    sink.statement(fmt::format("creatematerializedview {} {}", Word(view.id), QueryLine(view.query)));
    if (view.deletion_protection) {
      sink.statement(fmt::format("updatematerializedview {} deletion-protection=true", Word(view.id)));
    }
  }
  for (const LogicalViewSpec& view : in.logical_views) {
    sink.statement(fmt::format("createlogicalview {} {}", Word(view.id), QueryLine(view.query)));
    if (view.deletion_protection) {
      sink.statement(fmt::format("updatelogicalview {} deletion-protection=true", Word(view.id)));
    }
  }
}

Status WriteScript(const DatabaseContents& contents, const ScriptSink& sink) {
  for (const std::string& item : contents.left_out) sink.comment("# left out: " + item);
  const bool named = NamesInstances(contents);
  for (const InstanceContents& in : contents.instances) {
    if (named) {
      sink.comment(fmt::format("# instance {}", in.name.Full()));
      sink.statement(fmt::format("useinstance {} project={}", Word(in.name.instance), Word(in.name.project)));
    }
    if (in.record) {
      for (const std::string& statement : InstanceStatements(*in.record)) sink.statement(statement);
    }
    LBT_RETURN_IF_ERROR(WriteTables(in, sink));
    WriteViews(in, sink);
  }
  return Status::OK();
}

// Says, before anything is written, what the script cannot recreate.
void SayLeftOut(CommandContext& ctx, const DatabaseContents& contents) {
  if (contents.left_out.empty()) return;
  std::string text = fmt::format("{} leaves out what no command recreates:\n", ctx.spec->name);
  for (const std::string& item : contents.left_out) text += "  " + item + "\n";
  ctx.err->Write(text);
}

Status Schema(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(DatabaseContents contents, GatherContents(ctx, args));
  SayLeftOut(ctx, contents);
  ScriptSink sink;
  sink.statement = [&](const std::string& statement) { ctx.renderer->Statement(statement); };
  sink.comment = [](const std::string&) {};
  return WriteScript(contents, sink);
}

// Writes the whole script to `out`; the number of rows.
Result<int64_t> WriteDump(CommandContext& ctx, const DatabaseContents& contents, Output* out) {
  int64_t rows = 0;
  Progress progress(ctx.err, "dumping");
  ScriptSink sink;
  sink.statement = [&](const std::string& statement) { out->Write(statement + "\n"); };
  sink.comment = sink.statement;
  sink.rows = [&](Bigtable* bigtable, const TableSpec& table) -> Status {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, bigtable->OpenTable(TableRef::Table(table.name)));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, data->ReadRows(ReadRequest{}));
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
    return failed;
  };
  LBT_RETURN_IF_ERROR(WriteScript(contents, sink));
  return rows;
}

// A disabled table's rows cannot be read: said before anything is written.
Status CheckReadable(const DatabaseContents& contents) {
  for (const InstanceContents& in : contents.instances) {
    for (const TableContents& t : in.tables) {
      if (!t.spec.enabled) {
        return Status::FailedPrecondition(
            fmt::format("table '{}' is disabled and its rows cannot be read; enable it to dump it", t.spec.name));
      }
    }
  }
  return Status::OK();
}

size_t TableCount(const DatabaseContents& contents) {
  size_t tables = 0;
  for (const InstanceContents& in : contents.instances) tables += in.tables.size();
  return tables;
}

Status Dump(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(DatabaseContents contents, GatherContents(ctx, {}));
  LBT_RETURN_IF_ERROR(CheckReadable(contents));
  SayLeftOut(ctx, contents);
  const bool to_stdout = args.empty() || args[0] == "-";
  if (to_stdout) return WriteDump(ctx, contents, ctx.out).status();
  // Written beside the file and renamed over it once whole: a dump that
  // fails leaves no partial script behind.
  const std::string temporary = args[0] + ".partial";
  FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return Status::IOError(fmt::format("cannot write '{}': {}", temporary, std::strerror(errno)));
  Result<int64_t> rows = [&] {
    Output out(file);
    return WriteDump(ctx, contents, &out);
  }();
  if (std::fclose(file) != 0 && rows.ok()) rows = Status::IOError(fmt::format("cannot write '{}'", temporary));
  if (rows.ok() && std::rename(temporary.c_str(), args[0].c_str()) != 0) {
    rows = Status::IOError(fmt::format("cannot write '{}': {}", args[0], std::strerror(errno)));
  }
  if (!rows.ok()) {
    std::remove(temporary.c_str());
    return rows.status();
  }
  const size_t tables = TableCount(contents);
  ctx.err->Write(fmt::format("Dumped {} table{} and {} row{} to {}.\n", tables, tables == 1 ? "" : "s", *rows,
                             *rows == 1 ? "" : "s", args[0]));
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> DumpCommands() {
  return {
      {.name = "dump",
       .summary = "Write the whole database as a script lbt runs back (lbt)",
       .args = {{.text = "<file>", .noun = "a file", .kind = ArgKind::kFile, .arity = Arity::kOptional}},
       .details = "  Every instance (useinstance, and createinstance with its clusters and app\n"
                  "  profiles for one that was created), every table's schema (createtable\n"
                  "  with its families in creation order, GC policies and value types), every\n"
                  "  cell as set, or addtocell for an aggregate family, with its timestamp;\n"
                  "  then its change stream and authorized views, and the instance's\n"
                  "  materialized and logical views. What no command recreates (backups, IAM\n"
                  "  policies, a table's deletion protection, ...) is said first, on standard\n"
                  "  error, and in the script's first comments. Without a file, or with -, to\n"
                  "  standard output. Run it back with: lbt --db copy -f dump.cbt\n"
                  "  For large tables, export and import are faster.\n\n"
                  "  Example: dump backup.cbt",
       .cbt = Dump},
      {.name = "schema",
       .summary = "Print the commands that recreate the database, or tables (lbt)",
       .args = {{.text = "table", .noun = "a table", .kind = ArgKind::kTable, .arity = Arity::kOptionalRepeated}},
       .details = "  What dump writes but the rows: every instance with its tables (createtable\n"
                  "  with the families in creation order, their GC policies and value types),\n"
                  "  their change streams and authorized views, and its materialized and\n"
                  "  logical views; or, for the tables named, theirs alone.\n\n"
                  "  Example: schema mobile_time_series",
       .cbt = Schema},
  };
}

}  // namespace lbt
