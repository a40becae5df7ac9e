// cbt's table admin commands: ls, createtable, createfamily, deletefamily,
// deletetable, deleteallrows, setgcpolicy, setvaluetype,
// waitforreplication.

#include <fmt/format.h>

#include <chrono>
#include <optional>

#include "commands/cbt/args.h"
#include "commands/cbt/change_streams.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/command_sets.h"

namespace lbt {

namespace {

Status Ls(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) {
    std::vector<std::string> tables;
    if (ctx.session->ExistsOrNote(ctx.err)) {
      LBT_ASSIGN_OR_RETURN(tables, ctx.bigtable()->ListTables());
    }
    ctx.renderer->Tables(tables);
    return Status::OK();
  }
  Bigtable* bigtable = ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, bigtable->GetTable(args[0]));
  ctx.renderer->TableInfo(spec);
  return Status::OK();
}

// A value type written where the GC policy goes ("cf:intsum"): the error
// says where it belongs, since a type comes only after a policy.
std::optional<Status> MisplacedValueType(const std::string& family, const std::string& policy) {
  if (policy != "intsum" && policy != "intmin" && policy != "intmax") return std::nullopt;
  return Status::InvalidArgument(
      fmt::format("'{0}' is a value type, which goes after the GC policy: {1}:never:{0} (or {1}:maxversions=1:{0})",
                  policy, family));
}

// "<family>[:<gcpolicy>[:<type>]]", as createtable's families= and
// createfamily take it.
Result<FamilySpec> ParseFamilySpec(const std::string& text) {
  FamilySpec family;
  size_t colon = text.find(':');
  family.name = text.substr(0, colon);
  if (colon == std::string::npos) return family;
  std::string rest = text.substr(colon + 1);
  size_t type_colon = rest.find(':');
  std::string policy = rest.substr(0, type_colon);
  Result<GcRule> rule = ParseGcPolicy(policy);
  if (!rule.ok()) return MisplacedValueType(family.name, policy).value_or(rule.status());
  family.gc_rule = std::move(rule).value();
  if (type_colon != std::string::npos) {
    std::string type = rest.substr(type_colon + 1);
    LBT_ASSIGN_OR_RETURN(family.value_type, ParseValueType(type));
    if (family.value_type == ValueType::kBytes) {
      return Status::InvalidArgument(
          fmt::format("unknown value type '{}'; expected intsum, intmin, intmax, inthll or rawhll", type));
    }
  }
  return family;
}

Status CreateTable(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  std::vector<FamilySpec> families;
  if (const std::string* list = parsed.Find("families")) {
    for (const std::string& item : SplitList(*list)) {
      LBT_ASSIGN_OR_RETURN(FamilySpec f, ParseFamilySpec(item));
      families.push_back(std::move(f));
    }
  }
  // splits= shapes a service's tablets; a local database has none to shape.
  std::vector<std::string> splits;
  if (const std::string* list = parsed.Find("splits")) splits = SplitList(*list);
  // Checked before the table is made, turned on right after.
  std::optional<ChangeStreamConfig> stream;
  if (const std::string* retention = parsed.Find("change-stream-retention")) {
    Result<int64_t> micros = ParseChangeStreamRetention(*retention);
    if (!micros.ok()) return ctx.Usage(micros.status().message());
    stream = ChangeStreamConfig{*micros, 0};
  }
  NewTable spec{.families = std::move(families), .splits = std::move(splits)};
  if (const std::string* granularity = parsed.Find("granularity")) {
    Result<TimestampGranularity> g = ParseGranularity(*granularity);
    if (!g.ok()) return ctx.Usage(g.status().message());
    spec.granularity = *g;
  }
  if (const std::string* fields = parsed.Find("row-key")) {
    const std::string* encoding = parsed.Find("row-key-encoding");
    Result<RowKeySchema> schema = ParseRowKeySchemaText(*fields, encoding ? *encoding : "");
    if (!schema.ok()) return ctx.Usage(schema.status().message());
    spec.row_key_schema = std::move(*schema);
  } else if (parsed.Find("row-key-encoding") != nullptr) {
    return ctx.Usage("row-key-encoding= goes with row-key=<field>:<type>,...");
  }
  LBT_RETURN_IF_ERROR(ctx.bigtable()->CreateTable(parsed.positional[0], spec));
  if (stream) return ctx.bigtable()->SetChangeStream(parsed.positional[0], stream);
  return Status::OK();
}

Status CreateFamily(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(FamilySpec family, ParseFamilySpec(args[1]));
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->CreateFamily(args[0], family);
}

Status DeleteFamily(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DeleteFamily(args[0], args[1]);
}

Status DeleteTable(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DeleteTable(args[0]);
}

Status SetTieredStorage(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args[1] == "off") return ctx.bigtable()->SetTieredStorage(args[0], std::nullopt);
  int64_t micros = 0;
  if (!ParseSpanMicros(args[1], &micros)) {
    return ctx.Usage(fmt::format("bad age '{}': expected a span such as 30d or 90d, of at least 30 days", args[1]));
  }
  return ctx.bigtable()->SetTieredStorage(args[0], TieredStorage{micros});
}

// `off` removes the schema: Bigtable asks for ignore_warnings, since
// queries over the key's fields stop working; the command is that consent.
Status SetRowKeySchema(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  const std::string* encoding = parsed.Find("encoding");
  if (parsed.positional[1] == "off") {
    if (encoding != nullptr) return ctx.Usage("off takes no encoding=");
    return ctx.bigtable()->SetRowKeySchema(parsed.positional[0], std::nullopt, /*ignore_warnings=*/true);
  }
  Result<RowKeySchema> schema = ParseRowKeySchemaText(parsed.positional[1], encoding ? *encoding : "");
  if (!schema.ok()) return ctx.Usage(schema.status().message());
  return ctx.bigtable()->SetRowKeySchema(parsed.positional[0], *schema, /*ignore_warnings=*/false);
}

Status UndeleteTable(CommandContext& ctx, const std::vector<std::string>& args) {
  return ctx.bigtable()->UndeleteTable(args[0]);
}

Status PurgeDeleted(CommandContext& ctx, const std::vector<std::string>&) {
  LocalMaintenance* local = ctx.bigtable()->local();
  if (local == nullptr) {
    return Status::FailedPrecondition(
        "purgedeleted works on a local database; a service reclaims deleted tables itself");
  }
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> purged, local->PurgeDeletedTables(/*expired_only=*/false));
  ctx.renderer->Tables(purged);
  return Status::OK();
}

Status DeleteAllRows(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DropRowRange(args[0], "");
}

// How many cells of a local table's family `rule` collects that its
// current rule does not: those setting it makes eligible. Eligible cells
// are the oldest of their column, so the cells a read returns keep their
// positions in it. nullopt when the family cannot be read.
std::optional<int64_t> CellsMadeEligible(Bigtable* bigtable, const std::string& table, const std::string& family,
                                         const GcRule& rule) {
  Result<TableSpec> spec = bigtable->GetTable(table);
  const FamilySpec* current = spec.ok() ? spec->FindFamily(family) : nullptr;
  if (current == nullptr || !rule.CanCollect()) return std::nullopt;
  ReadRequest request;
  request.columns = {ColumnSelector{family, std::nullopt}};
  request.filter = Filter::StripValue();
  Result<std::unique_ptr<Table>> data = bigtable->OpenTable(TableRef::Table(table));
  if (!data.ok()) return std::nullopt;
  Result<std::unique_ptr<RowStream>> stream = (*data)->ReadRows(request);
  if (!stream.ok()) return std::nullopt;
  const int64_t now = bigtable->NowMicros();
  int64_t eligible = 0;
  for (Row row; (*stream)->Next(&row);) {
    int64_t index = 0;
    for (size_t i = 0; i < row.cells.size(); ++i, ++index) {
      const Cell& cell = row.cells[i];
      if (i > 0 && cell.qualifier != row.cells[i - 1].qualifier) index = 0;
      if (rule.Collects(index, cell.timestamp, now) && !current->gc_rule.Collects(index, cell.timestamp, now)) {
        ++eligible;
      }
    }
  }
  if (!(*stream)->status().ok()) return std::nullopt;
  return eligible;
}

// What becomes of the cells a new policy makes eligible, by GC mode.
std::string EligibleCellsNote(LocalMaintenance* local, const std::string& table, const std::string& family,
                              int64_t cells) {
  const std::string what = fmt::format("note: {} cell{} of {}:{} became eligible for garbage collection", cells,
                                       cells == 1 ? "" : "s", table, family);
  const char* them = cells == 1 ? "it" : "them";
  if (!local->lazy_gc()) {
    return what + fmt::format(": reads no longer return {}, and `gc {}` removes {} from disk\n", them, table, them);
  }
  const int64_t seconds = std::chrono::duration_cast<std::chrono::seconds>(local->gc_interval()).count();
  if (seconds <= 0) return what + fmt::format(": reads return {} until `gc {}` removes {}\n", them, table, them);
  return what + fmt::format(": reads return {} until the next collection pass (within {} s) or `gc {}`\n", them,
                            seconds, table);
}

Status SetGcPolicy(CommandContext& ctx, const std::vector<std::string>& args) {
  std::vector<std::string> words(args.begin() + 2, args.end());
  // "force" overrides cbt's warning about loosening a replicated policy;
  // there is nothing to override locally.
  if (words.back() == "force") words.pop_back();
  std::string policy;
  for (const std::string& w : words) policy += (policy.empty() ? "" : " ") + w;
  LBT_ASSIGN_OR_RETURN(GcRule rule, ParseGcPolicy(policy));
  Bigtable* bigtable = ctx.bigtable();
  // A local table's cells are counted before the policy hides them: a
  // table that reads empty afterwards should not be a surprise. A service
  // collects on its own schedule, and a count there would read the family.
  std::optional<int64_t> eligible;
  if (bigtable->local() != nullptr) eligible = CellsMadeEligible(bigtable, args[0], args[1], rule);
  LBT_RETURN_IF_ERROR(bigtable->SetGcRule(args[0], args[1], rule));
  if (eligible && *eligible > 0) ctx.err->Write(EligibleCellsNote(bigtable->local(), args[0], args[1], *eligible));
  return Status::OK();
}

// cbt's names for setvaluetype. "stringutf8bytes" is sent as cbt sends it,
// under the deprecated encoding, which Bigtable stores as UTF-8 bytes; the
// aggregate names are passed on for the service to refuse (or, on the
// emulator, to accept).
Result<ValueType> ParseSetValueType(const std::string& name) {
  if (name == "stringutf8bytes") return ValueType::kStringUtf8Raw;
  for (ValueType t : {ValueType::kIntSum, ValueType::kIntMin, ValueType::kIntMax}) {
    if (name == ValueTypeName(t)) return t;
  }
  return Status::InvalidArgument(fmt::format("unknown type '{}'; the supported type is stringutf8bytes", name));
}

Status SetValueType(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(ValueType type, ParseSetValueType(args[2]));
  return ctx.bigtable()->SetValueType(args[0], args[1], type);
}

Status WaitForReplication(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  const int64_t now = bigtable->NowMicros();
  ctx.renderer->WaitingForReplication(now);
  LBT_RETURN_IF_ERROR(bigtable->WaitForReplication(args[0]));
  ctx.renderer->Replicated(now);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> CbtAdminCommands() {
  const Arg family_to_create{.text = "<family>[:<gcpolicy>[:<type>]]", .noun = "a family"};
  const Arg policy{.text = "((maxage=<d> | maxversions=<n>) [(and|or) (maxage=<d> | maxversions=<n>),...] | never)",
                   .noun = "a policy",
                   .arity = Arity::kRest};
  std::vector<CommandSpec> specs = {
      {.name = "createfamily",
       .summary = "Create a column family",
       .args = {kTableArg, family_to_create},
       .details = "  A row's cells come family by family in creation order: a new family\n"
                  "  comes after the table's others (a family created again, too).\n\n"
                  "  Example: createfamily mobile_time_series device_info:maxversions=1",
       .cbt = CreateFamily},
      {.name = "createtable",
       .summary = "Create a table",
       .args = {kTableArg},
       .options = {{.key = "families", .value = "<family>:<gcpolicy>:<type>,..."},
                   {.key = "splits", .value = "<row>,..."},
                   {.key = "change-stream-retention", .value = "<retention>"},
                   {.key = "granularity", .value = "millis|micros"},
                   {.key = "row-key", .value = "<field>:<type>,..."},
                   {.key = "row-key-encoding", .value = "delimited:<d>|ordered_code|singleton"}},
       .details = "  families  Column families with optional GC policies (see setgcpolicy) and\n"
                  "            value types (intsum, intmin, intmax; inthll and rawhll count\n"
                  "            distinct integers and byte strings, see addtocell).\n"
                  "  splits    Accepted for compatibility; a local table has no tablets.\n"
                  "  change-stream-retention  Turns the table's change stream on, keeping\n"
                  "            changes this long: 1 to 7 days (see setchangestream, watch).\n"
                  "  granularity  What the table's timestamps are multiples of: millis (the\n"
                  "            default: 1000 microseconds) or micros (any microsecond).\n"
                  "  row-key   The row key's fields, most significant first, for SQL (see\n"
                  "            setrowkeyschema); row-key-encoding says how they are joined.\n"
                  "  The families are created in the order listed: a row's cells come in it.\n\n"
                  "  Example: createtable mobile_time_series_v2 "
                  "\"families=stats_summary:maxage=10d||maxversions=1,stats_detail\"",
       .cbt = CreateTable},
      {.name = "deleteallrows",
       .summary = "Delete all rows",
       .args = {kTableArg},
       .details = "  Example: deleteallrows mobile_time_series",
       .cbt = DeleteAllRows},
      {.name = "deletefamily",
       .summary = "Delete a column family and its data",
       .args = {kTableArg, kFamilyArg},
       .details = "  Example: deletefamily mobile_time_series stats_summary",
       .cbt = DeleteFamily},
      {.name = "deletetable",
       .summary = "Delete a table and its data",
       .args = {kTableArg},
       .details = "  The table can be brought back with undeletetable for 7 days, as in\n"
                  "  Bigtable; a local database keeps it hidden until then (purgedeleted\n"
                  "  reclaims the space at once).\n\n"
                  "  Example: deletetable mobile_time_series",
       .cbt = DeleteTable},
      {.name = "settieredstorage",
       .summary = "Set or remove a table's tiered storage rule",
       .args = {kTableArg, {.text = "<age>|off", .noun = "an age"}},
       .details = "  <age>  Cells older than this belong in the infrequent access tier: at\n"
                  "         least 30 days (30d, 90d), as Bigtable requires.\n"
                  "  off    Removes the rule.\n\n"
                  "  A local table has one tier: the rule is kept and shown (ls <table>,\n"
                  "  GetTable), and sent on in remote mode.\n\n"
                  "  Example: settieredstorage mobile_time_series 90d",
       .cbt = SetTieredStorage},
      {.name = "setrowkeyschema",
       .summary = "Declare the fields a table's row keys are made of, for SQL",
       .args = {kTableArg, {.text = "<field>:<type>[:<int encoding>],...|off", .noun = "row-key fields"}},
       .options = {{.key = "encoding", .value = "delimited:<d>|ordered_code|singleton"}},
       .details = "  Fields, most significant first: name:type with type string, bytes,\n"
                  "  int64 or timestamp (microseconds); integers are 8 bytes big-endian, or\n"
                  "  ordered_code with :ordered_code.\n"
                  "  encoding  How the fields make up the key: delimited by <d> (the default,\n"
                  "            '#'), ordered_code, or singleton (one field is the key).\n"
                  "  off       Removes the schema (SQL then reads the key as _key only).\n\n"
                  "  SQL then reads each field as a column (SELECT * lists them instead of\n"
                  "  _key, still selectable by name), and a WHERE that fixes the leading\n"
                  "  fields reads only their key range (see explain). A table's schema can\n"
                  "  be set once; change it by removing it first.\n\n"
                  "  Example: setrowkeyschema mobile_time_series_v2 device:string,id:string,day:string",
       .cbt = SetRowKeySchema},
      {.name = "undeletetable",
       .summary = "Bring back a table deleted in the last 7 days",
       .args = {kTableArg},
       .details = "  The table comes back with its column families, data, authorized views\n"
                  "  and settings, under its own name, which must be free.\n\n"
                  "  Example: undeletetable mobile_time_series",
       .cbt = UndeleteTable},
      {.name = "purgedeleted",
       .summary = "Delete for good the deleted tables kept for undeletetable",
       .details = "  Reclaims their space now (a local database does so by itself 7 days\n"
                  "  after each deletion) and lists them; they can no longer be undeleted.",
       .cbt = PurgeDeleted},
      {.name = "ls",
       .summary = "List tables, or a table's column families",
       .args = {{.text = "table", .noun = "a table", .kind = ArgKind::kTable, .arity = Arity::kOptional}},
       .details = "  Example: ls mobile_time_series",
       .cbt = Ls},
      {.name = "setgcpolicy",
       .summary = "Set the garbage-collection policy (age, versions) for a column family",
       .args = {kTableArg, kFamilyArg, policy},
       .details = "  maxage=<d>       Maximum age to keep; units ms, s, m, h, d\n"
                  "  maxversions=<n>  Maximum number of versions to keep\n\n"
                  "  Cells the policy makes eligible disappear from reads at once; with\n"
                  "  --gc=lazy, as in production, only once a collection pass removes them.\n\n"
                  "  Examples:\n"
                  "    setgcpolicy mobile_time_series cell_plan maxversions=1\n"
                  "    setgcpolicy mobile_time_series stats_summary maxage=10d or maxversions=2",
       .cbt = SetGcPolicy},
      {.name = "setvaluetype",
       .summary = "Set the value type of a column family",
       .args = {kTableArg, kFamilyArg, {.text = "<type>", .noun = "a type"}},
       .details = "  <type>  stringutf8bytes: a UTF-8 encoded string\n\n"
                  "  Cells are kept as they are. Changing to or from an aggregate type\n"
                  "  (intsum, intmin, intmax) is refused, as Bigtable refuses it.\n\n"
                  "  Example: setvaluetype mobile_time_series cell_plan stringutf8bytes",
       .cbt = SetValueType},
      {.name = "waitforreplication",
       .summary = "Return once writes are replicated (at once, locally)",
       .args = {kTableArg},
       .details = "  Waits until every write to the table made before the command has reached\n"
                  "  all of the instance's clusters. A local database has one copy, always caught up.",
       .cbt = WaitForReplication},
  };
  return specs;
}

}  // namespace lbt
