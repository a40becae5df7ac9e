// What `dump` and `schema` write, gathered before a word of it is: every
// instance of the database (or service) with its record, its tables and
// their authorized views and change streams, and its materialized and
// logical views; and what their commands cannot recreate, which they say
// first.

#ifndef LBT_COMMANDS_IO_DUMP_CONTENTS_H_
#define LBT_COMMANDS_IO_DUMP_CONTENTS_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/bigtable.h"
#include "api/instance.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "api/status.h"
#include "commands/core/command_table.h"

namespace lbt {

struct TableContents {
  TableSpec spec;
  std::vector<AuthorizedViewSpec> authorized_views;  // by id
};

struct InstanceContents {
  InstanceName name;
  // A created instance's clusters and app profiles; nullopt for one that
  // came into being with its first table, and for the default instance.
  std::optional<InstanceSpec> record;
  // Its tables: the session's own Bigtable, or `owned`.
  Bigtable* bigtable = nullptr;
  std::unique_ptr<Bigtable> owned;
  std::vector<TableContents> tables;  // by name
  std::vector<MaterializedViewSpec> materialized_views;
  // Each after every view its query names: the order to create them in.
  std::vector<LogicalViewSpec> logical_views;
};

struct DatabaseContents {
  // The session's instance first, then the others with anything in them,
  // by name.
  std::vector<InstanceContents> instances;
  // What the commands cannot recreate, one item each: "<resource>: <what>".
  std::vector<std::string> left_out;
};

// Every instance's contents of a local database; just the session's in
// remote mode (a service's other instances are not the session's to
// dump), or where instances cannot be managed. With `tables` named, only
// those tables of the session's instance (and no views of the instance).
Result<DatabaseContents> GatherContents(CommandContext& ctx, const std::vector<std::string>& tables);

// The commands that recreate a created instance: createinstance with its
// first cluster, createcluster for the others, and its app profiles.
std::vector<std::string> InstanceStatements(const InstanceSpec& instance);

// createauthorizedview's words for `view` of `table`; nullopt when its
// options cannot say the view's subset (a ',' in a prefix or qualifier, a
// qualifier ending in '*').
std::optional<std::string> AuthorizedViewStatement(const std::string& table, const AuthorizedViewSpec& view);

// setchangestream's words for `table`'s retention. REQUIRES: its stream is on.
std::string ChangeStreamStatement(const TableSpec& table);

// A view's query as its create command reads it: the rest of its line, so
// written as it is, line breaks as blanks (which they are to SQL outside
// string literals; QueryFitsOneLine says when one is inside).
std::string QueryLine(std::string_view query);
bool QueryFitsOneLine(std::string_view query);

// `bytes` as one word the tokenizer reads back exactly: bare when it is
// made of plain characters, else in $'...' with escapes.
std::string Word(std::string_view bytes);

}  // namespace lbt

#endif  // LBT_COMMANDS_IO_DUMP_CONTENTS_H_
