#include "sql/functions/registry.h"

#include <cassert>
#include <set>

namespace lbt::sql {

const FunctionRegistry& FunctionRegistry::Builtins() {
  static const FunctionRegistry* const builtins = [] {
    auto* registry = new FunctionRegistry();
    RegisterMathFunctions(registry);
    RegisterTrigonometricFunctions(registry);
    RegisterBitwiseFunctions(registry);
    RegisterComparisonFunctions(registry);
    RegisterStringFunctions(registry);
    RegisterUnicodeFunctions(registry);
    RegisterFormatFunction(registry);
    RegisterCodePointFunctions(registry);
    RegisterRegexpFunctions(registry);
    RegisterBytesFunctions(registry);
    RegisterMapFunctions(registry);
    RegisterArrayFunctions(registry);
    RegisterArraySearchFunctions(registry);
    RegisterTimestampFunctions(registry);
    RegisterDateFunctions(registry);
    RegisterJsonFunctions(registry);
    RegisterAggregateFunctions(registry);
    RegisterStatisticalFunctions(registry);
    RegisterApproximateFunctions(registry);
    RegisterVectorFunctions(registry);
    RegisterGeographyFunctions(registry);
    RegisterGeographyMeasures(registry);
    RegisterGeographyTransforms(registry);
    RegisterHllFunctions(registry);
    RegisterNumberingFunctions(registry);
    RegisterNavigationFunctions(registry);
    return registry;
  }();
  return *builtins;
}

void FunctionRegistry::Add(const char* name, CheckFunction check, EvalFunction eval, Nulls nulls, Args args) {
  const bool added =
      functions_.emplace(name, Function{name, check, eval, nulls == Nulls::kWithNulls, args == Args::kIndependent})
          .second;
  assert(added && "a function registered twice");
  (void)added;
}

void FunctionRegistry::NameArguments(const char* name, size_t first, NamedArguments named) {
  auto it = functions_.find(name);
  assert(it != functions_.end() && "naming the arguments of a function not registered");
  it->second.first_named = first;
  it->second.named = std::move(named);
}

void FunctionRegistry::AddAggregate(const char* name, CheckFunction check, CreateAccumulator create) {
  const bool added = aggregates_.emplace(name, AggregateFunction{name, check, create}).second;
  assert(added && "an aggregate registered twice");
  (void)added;
}

void FunctionRegistry::AddWindow(WindowFunction function) {
  std::string name = function.name;
  const bool added = windows_.emplace(std::move(name), std::move(function)).second;
  assert(added && "a window function registered twice");
  (void)added;
}

const WindowFunction* FunctionRegistry::FindWindow(std::string_view name) const {
  auto it = windows_.find(name);
  return it == windows_.end() ? nullptr : &it->second;
}

std::vector<std::string> FunctionRegistry::Names() const {
  std::set<std::string> names;
  for (const auto& [name, f] : functions_) {
    if (!name.starts_with("$")) names.insert(name);
  }
  for (const auto& [name, f] : aggregates_) names.insert(name);
  for (const auto& [name, f] : windows_) names.insert(name);
  return {names.begin(), names.end()};
}

const Function* FunctionRegistry::Find(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

const AggregateFunction* FunctionRegistry::FindAggregate(std::string_view name) const {
  auto it = aggregates_.find(name);
  return it == aggregates_.end() ? nullptr : &it->second;
}

const Function* FindFunction(std::string_view name) { return FunctionRegistry::Builtins().Find(name); }

const WindowFunction* FindWindowFunction(std::string_view name) {
  return FunctionRegistry::Builtins().FindWindow(name);
}

const AggregateFunction* FindAggregate(std::string_view name) {
  return FunctionRegistry::Builtins().FindAggregate(name);
}

}  // namespace lbt::sql
