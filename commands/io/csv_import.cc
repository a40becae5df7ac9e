#include "commands/io/csv_import.h"

#include <fmt/format.h>

#include "commands/cbt/args.h"

namespace lbt {

Result<bool> CsvReader::Next(std::vector<std::string>* fields) {
  fields->clear();
  std::string line;
  if (!std::getline(*in_, line)) return false;
  ++line_;
  const int64_t first_line = line_;
  std::string field;
  bool quoted = false;
  size_t i = 0;
  while (true) {
    if (i >= line.size()) {
      if (!quoted) break;
      // A quoted field goes on over the newline.
      std::string more;
      if (!std::getline(*in_, more)) {
        return Status::InvalidArgument(fmt::format("line {}: a quoted field is never closed", first_line));
      }
      ++line_;
      field.push_back('\n');
      line = std::move(more);
      i = 0;
      continue;
    }
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field.push_back('"');
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field.push_back(c);
      }
    } else if (c == '"' && field.empty()) {
      quoted = true;
    } else if (c == ',') {
      fields->push_back(std::move(field));
      field.clear();
    } else if (c == '\r' && i + 1 == line.size()) {
      // CRLF line endings.
    } else {
      field.push_back(c);
    }
    ++i;
  }
  fields->push_back(std::move(field));
  return true;
}

namespace {

// The family of each column, from the header rows.
Result<std::vector<std::string>> ReadHeader(CsvReader* reader, const CsvImportOptions& options,
                                            std::vector<std::string>* qualifiers) {
  std::vector<std::string> record;
  auto header = [&](const char* what) -> Result<std::vector<std::string>> {
    LBT_ASSIGN_OR_RETURN(bool found, reader->Next(&record));
    if (!found)
      return Status::InvalidArgument(
          fmt::format("line {}: the input ends before its {} row", reader->line() + 1, what));
    if (record.empty() || !record[0].empty()) {
      return Status::InvalidArgument(
          fmt::format("line {}: the {} row must start with an empty cell (the row key column)", reader->line(), what));
    }
    return record;
  };
  std::vector<std::string> families;
  int64_t family_line = 0;
  if (options.column_family.empty()) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> family_row, header("column family"));
    family_line = reader->line();
    std::string current;
    for (size_t i = 1; i < family_row.size(); ++i) {
      if (!family_row[i].empty()) current = family_row[i];
      families.push_back(current);
    }
  }
  LBT_ASSIGN_OR_RETURN(*qualifiers, header("column qualifier"));
  qualifiers->erase(qualifiers->begin());
  if (!options.column_family.empty()) families.assign(qualifiers->size(), options.column_family);
  // A family row that stops early: its last family covers the columns to its right.
  families.resize(qualifiers->size(), families.empty() ? std::string() : families.back());
  for (size_t i = 0; i < qualifiers->size(); ++i) {
    if (families[i].empty() && !(*qualifiers)[i].empty()) {
      return Status::InvalidArgument(
          fmt::format("line {}: column '{}' has no column family; name one in the family "
                      "row or pass column-family=",
                      family_line > 0 ? family_line : reader->line(), (*qualifiers)[i]));
    }
  }
  return families;
}

// Whether each of the row's values ends in "@<timestamp>".
bool AllValuesCarryTimestamps(const RowMutation& row) {
  for (const Mutation& m : row.mutations) {
    if (!SplitTimestamp(m.value).timestamp) return false;
  }
  return !row.mutations.empty();
}

}  // namespace

Result<int64_t> ImportCsv(std::istream* in, const RowSink& sink, const CsvImportOptions& options) {
  CsvReader reader(in, options.first_line);
  std::vector<std::string> qualifiers;
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> families, ReadHeader(&reader, options, &qualifiers));
  int64_t rows = 0;
  std::vector<std::string> record;
  while (true) {
    const int64_t line = reader.line() + 1;
    LBT_ASSIGN_OR_RETURN(bool found, reader.Next(&record));
    if (!found) return rows;
    if (record.size() == 1 && record[0].empty()) continue;  // blank line
    if (record.size() - 1 > qualifiers.size()) {
      return Status::InvalidArgument(fmt::format("line {}: {} cells but only {} columns in the header", line,
                                                 record.size() - 1, qualifiers.size()));
    }
    RowMutation row{record[0], {}};
    for (size_t i = 1; i < record.size(); ++i) {
      if (record[i].empty()) continue;
      int64_t ts = kServerTime;
      std::string value = std::move(record[i]);
      if (options.value_encoded_timestamps) {
        ValueAndTimestamp split = SplitTimestamp(value);
        value = std::move(split.value);
        if (split.timestamp) ts = *split.timestamp;
      }
      row.mutations.push_back(Mutation::SetCell(families[i - 1], qualifiers[i - 1], std::move(value), ts));
    }
    if (row.mutations.empty()) continue;
    if (rows == 0 && !options.timestamps_chosen && AllValuesCarryTimestamps(row)) {
      return Status::InvalidArgument(fmt::format(
          "line {}: every value ends in @<timestamp>, as export writes CSV: add timestamp=value-encoded to take "
          "them as the cells' timestamps, or timestamp=now to keep them in the values",
          line));
    }
    ++rows;
    LBT_RETURN_IF_ERROR(sink(std::move(row), line));
  }
}

}  // namespace lbt
