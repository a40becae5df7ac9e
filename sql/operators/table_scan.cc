#include "sql/operators/table_scan.h"

#include <algorithm>

#include "api/cell.h"
#include "api/row_key_codec.h"
#include "sql/proto_values.h"

namespace lbt::sql {

namespace {

// A cell's value as the family's type has it: INT64 for an aggregate
// family (NULL when not 8 bytes), STRING or BYTES otherwise.
Value CellValue(const BoundFamily& f, const std::string& bytes) {
  if (f.proto != nullptr) return FamilyCellValue(*f.proto, bytes);
  if (f.aggregate) {
    int64_t n = 0;
    if (DecodeInt64(bytes, &n)) return Value::Int64(n);
    return Value::Null(Type::Int64());
  }
  return f.string ? Value::String(bytes) : Value::Bytes(bytes);
}

// A key field's value as its column's type.
Value FieldValue(const BoundFamily& f, const RowKeyFieldValue& v) {
  switch (f.type->kind) {
    case TypeKind::kString: return Value::String(v.bytes);
    case TypeKind::kInt64: return Value::Int64(v.number);
    case TypeKind::kTimestamp: return Value::Timestamp(v.number);
    default: return Value::Bytes(v.bytes);
  }
}

size_t CountFamilies(const BoundQuery& q) {
  size_t n = 0;
  for (const BoundFamily& f : q.families) n += f.key_field < 0 ? 1 : 0;
  return n;
}

// CellValue, written into a slot of the cell column's type.
inline void SetCellValue(const BoundFamily& f, const std::string& bytes, Value* slot) {
  if (f.proto != nullptr) {
    *slot = FamilyCellValue(*f.proto, bytes);
    return;
  }
  if (!f.aggregate) {
    slot->set_str(bytes);
    return;
  }
  int64_t n = 0;
  if (DecodeInt64(bytes, &n)) {
    slot->set_int64(n);
  } else {
    slot->set_null();
  }
}

}  // namespace

// With one family in the table, read, every cell read is of that family,
// and Flatten need not compare family names.
TableScan::TableScan(const BoundQuery& q, const ReadPlan& read, KeyRangeSet ranges)
    : Operator(nullptr),
      q_(q),
      read_(read),
      ranges_(std::move(ranges)),
      width_(1 + q.families.size() + read.cell_columns.size()),
      one_family_(CountFamilies(q) == 1 &&
                  std::any_of(read.families.begin(), read.families.end(), [](const FamilyRead& f) { return f.read; })) {
  for (size_t i = 0; i < read.families.size(); ++i) {
    if (!read.families[i].as_map) continue;
    (q.families[i].key_field >= 0 ? key_fields_ : map_families_).push_back(i);
  }
}

Status TableScan::Open(Bigtable* bigtable) {
  if (q_.table.empty()) return Status::OK();  // no FROM: Produce makes the one row
  if (ranges_.empty()) {
    rows_ = NoRows();  // no key ranges: nothing to read
    return Status::OK();
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, bigtable->OpenTable(::lbt::TableRef::Table(q_.table)));
  LBT_ASSIGN_OR_RETURN(rows_, table->ReadRows(RequestFor(read_, ranges_)));
  return Status::OK();
}

std::string TableScan::detail() const {
  std::string reads;
  auto add = [&](const std::string& what) { reads += (reads.empty() ? "" : ", ") + what; };
  const std::vector<std::string> names = InputSlotNames(q_, read_);
  if (read_.key_used) add("_key");
  for (size_t i = 0; i < q_.families.size(); ++i) {
    if (read_.families[i].as_map) add(names[1 + i]);
  }
  for (size_t i = 0; i < read_.cell_columns.size(); ++i) add(names[1 + q_.families.size() + i]);
  if (q_.table.empty()) return "no table: one row";
  return q_.table + " " + ranges_.ToString() + "; reads " + (reads.empty() ? "rows only" : reads);
}

bool TableScan::Produce(Values* out) {
  if (q_.table.empty()) {
    if (examined_ > 0) return false;
    ++examined_;
    Shape(out);
    return true;
  }
  if (q_.unpack) return ProduceUnpacked(out);
  // One input row per table row, built in place.
  if (!rows_->Next(&row_)) return EndOfRows();
  ++examined_;
  Flatten(out);
  if (!key_fields_.empty()) {
    if (!DecodeKey()) return false;
    for (size_t i : key_fields_) (*out)[1 + i] = FieldValue(q_.families[i], fields_[q_.families[i].key_field]);
  }
  return true;
}

// A query that reads a key field fails on a key the schema does not
// decode, naming it, rather than hide the row.
bool TableScan::DecodeKey() {
  Result<std::vector<RowKeyFieldValue>> fields = DecodeRowKey(*q_.row_key_schema, row_.key);
  if (!fields.ok()) return Fail(fields.status());
  fields_ = std::move(*fields);
  return true;
}

bool TableScan::ProduceUnpacked(Values* out) {
  while (next_pending_ == pending_.size()) {
    pending_.clear();
    next_pending_ = 0;
    if (!rows_->Next(&row_)) return EndOfRows();
    ++examined_;
    if (!key_fields_.empty() && !DecodeKey()) return false;
    Expand();
  }
  *out = std::move(pending_[next_pending_++]);
  return true;
}

bool TableScan::EndOfRows() { return rows_->status().ok() ? false : Fail(rows_->status()); }

// The cells of `f` in row_ as the family's column: qualifier to latest
// value, or to its history (newest first); only cells at `timestamp` when
// it is set (UNPACK).
Value TableScan::FamilyValue(const BoundFamily& f, const FamilyRead& read, std::optional<int64_t> timestamp) const {
  MapEntries entries;
  const std::vector<Cell>& cells = row_.cells;
  for (size_t i = 0; i < cells.size();) {
    const Cell& c = cells[i];
    size_t end = i;
    while (end < cells.size() && cells[end].family == c.family && cells[end].qualifier == c.qualifier) ++end;
    if (c.family == f.name && (read.only_columns.empty() || read.only_columns.count(c.qualifier) != 0)) {
      Values history;
      for (size_t k = i; k < end; ++k) {
        if (timestamp && cells[k].timestamp != *timestamp) continue;
        Value v = CellValue(f, cells[k].value);
        if (!f.with_history) {
          history.push_back(std::move(v));
          break;
        }
        history.push_back(Value::Struct(f.type->value->element, {Value::Timestamp(cells[k].timestamp), std::move(v)}));
      }
      if (!history.empty()) {
        Value column = f.with_history ? Value::Array(f.type->value, std::move(history)) : std::move(history[0]);
        entries.emplace_back(Value::Bytes(c.qualifier), std::move(column));
      }
    }
    i = end;
  }
  return Value::Map(f.type, std::move(entries));
}

// The row as [_key, families..., cell columns...]; what the query does
// not read is NULL. *out keeps its shape from row to row, so that only
// what the query reads is written, in place.
inline void TableScan::Flatten(Values* out) {
  if (out->size() != width_) Shape(out);
  Value* slots = out->data();
  if (read_.key_used) slots[0].set_str(row_.key);
  for (size_t i : map_families_) slots[1 + i] = FamilyValue(q_.families[i], read_.families[i], std::nullopt);
  const size_t cell_columns = width_ - 1 - q_.families.size();
  if (cell_columns == 1) {
    FlattenOneColumn(&slots[width_ - 1]);
  } else if (cell_columns > 1) {
    FlattenCellColumns(out);
  }
}

// Cells come grouped by column, newest first: each column's first cell is
// its latest value, and later ones are passed over as found. The search
// stops once every column is found; a slot is written only once its cell
// is found or known absent, so that a string slot keeps its buffer from
// row to row.
void TableScan::FlattenCellColumns(Values* out) {
  const std::vector<CellColumn>& columns = read_.cell_columns;
  const size_t first = 1 + q_.families.size();
  std::fill(found_.begin(), found_.end(), 0);
  size_t found = 0;
  for (size_t i = 0; i < row_.cells.size() && found < columns.size(); ++i) {
    const Cell& cell = row_.cells[i];
    for (size_t j = 0; j < columns.size(); ++j) {
      const BoundFamily& f = q_.families[columns[j].family];
      if (!found_[j] && cell.qualifier == columns[j].qualifier && (one_family_ || cell.family == f.name)) {
        SetCellValue(f, cell.value, &(*out)[first + j]);
        found_[j] = 1;
        ++found;
        break;
      }
    }
  }
  for (size_t j = 0; j < columns.size(); ++j) {
    if (!found_[j]) (*out)[first + j].set_null();
  }
}

// Flatten's search for a query that names one column, the common case,
// without its bookkeeping: the column's first cell is its latest value.
inline void TableScan::FlattenOneColumn(Value* slot) const {
  const CellColumn& c = read_.cell_columns[0];
  const BoundFamily& f = q_.families[c.family];
  for (const Cell& cell : row_.cells) {
    if (cell.qualifier == c.qualifier && (one_family_ || cell.family == f.name)) {
      SetCellValue(f, cell.value, slot);
      return;
    }
  }
  slot->set_null();
}

// Typed NULLs in every slot of an input row.
void TableScan::Shape(Values* out) {
  out->clear();
  out->reserve(width_);
  out->push_back(Value::Null(Type::Bytes()));
  for (const BoundFamily& f : q_.families) out->push_back(Value::Null(f.type));
  for (const CellColumn& c : read_.cell_columns) out->push_back(Value::Null(c.type));
  found_.assign(read_.cell_columns.size(), 0);
}

// UNPACK: one input row per timestamp of row_, newest first.
void TableScan::Expand() {
  std::vector<int64_t> stamps;
  for (const Cell& c : row_.cells) {
    for (const BoundFamily& f : q_.families) {
      if (f.name == c.family) stamps.push_back(c.timestamp);
    }
  }
  std::sort(stamps.rbegin(), stamps.rend());
  stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
  for (int64_t t : stamps) {
    Values v;
    v.push_back(Value::Bytes(row_.key));
    for (size_t i = 0; i < q_.families.size(); ++i) {
      const BoundFamily& f = q_.families[i];
      if (f.key_field >= 0) {
        v.push_back(read_.families[i].as_map ? FieldValue(f, fields_[f.key_field]) : Value::Null(f.type));
      } else {
        v.push_back(FamilyValue(f, read_.families[i], t));
      }
    }
    v.push_back(Value::Timestamp(t));
    pending_.push_back(std::move(v));
  }
}

}  // namespace lbt::sql
