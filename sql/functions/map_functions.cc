// Functions of MAPs, the type of a column family: MAP_KEYS, MAP_VALUES,
// MAP_ENTRIES, MAP_CONTAINS_KEY and MAP_EMPTY. Entries come in key order.

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

bool OneMap(const Types& a) { return a.size() == 1 && Is(a[0], TypeKind::kMap); }

// ---- MAP_KEYS, MAP_VALUES ----

Result<TypePtr> MapKeysCheck(const Types& a) {
  if (!OneMap(a)) return ArgError("MAP_KEYS", a);
  return Type::Array(a[0]->key);
}
Result<Value> MapKeysEval(const Values& a, const EvalContext&) {
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(k);
  return Value::Array(Type::Array(a[0].type()->key), std::move(out));
}

Result<TypePtr> MapValuesCheck(const Types& a) {
  if (!OneMap(a)) return ArgError("MAP_VALUES", a);
  return Type::Array(a[0]->value);
}
Result<Value> MapValuesEval(const Values& a, const EvalContext&) {
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(v);
  return Value::Array(Type::Array(a[0].type()->value), std::move(out));
}

// ---- MAP_ENTRIES: STRUCT<key, value> per entry ----

TypePtr EntryType(const TypePtr& map) { return Type::Struct({{"key", map->key}, {"value", map->value}}); }

Result<TypePtr> MapEntriesCheck(const Types& a) {
  if (!OneMap(a)) return ArgError("MAP_ENTRIES", a);
  return Type::Array(EntryType(a[0]));
}
Result<Value> MapEntriesEval(const Values& a, const EvalContext&) {
  TypePtr entry = EntryType(a[0].type());
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(Value::Struct(entry, {k, v}));
  return Value::Array(Type::Array(entry), std::move(out));
}

// ---- MAP_CONTAINS_KEY, MAP_EMPTY ----

Result<TypePtr> MapContainsKeyCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kMap) || !SameType(a[0]->key, a[1])) return ArgError("MAP_CONTAINS_KEY", a);
  return Type::Bool();
}
Result<Value> MapContainsKeyEval(const Values& a, const EvalContext&) {
  for (const auto& [k, v] : a[0].entries()) {
    if (Compare(k, a[1]) == 0) return Value::Bool(true);
  }
  return Value::Bool(false);
}

Result<TypePtr> MapEmptyCheck(const Types& a) {
  if (!OneMap(a)) return ArgError("MAP_EMPTY", a);
  return Type::Bool();
}
Result<Value> MapEmptyEval(const Values& a, const EvalContext&) { return Value::Bool(a[0].entries().empty()); }

}  // namespace

void RegisterMapFunctions(FunctionRegistry* registry) {
  registry->Add("MAP_KEYS", MapKeysCheck, MapKeysEval);
  registry->Add("MAP_VALUES", MapValuesCheck, MapValuesEval);
  registry->Add("MAP_ENTRIES", MapEntriesCheck, MapEntriesEval);
  registry->Add("MAP_CONTAINS_KEY", MapContainsKeyCheck, MapContainsKeyEval);
  registry->Add("MAP_EMPTY", MapEmptyCheck, MapEmptyEval);
}

}  // namespace lbt::sql
