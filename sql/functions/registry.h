// The registry of the scalar functions and aggregates a query can call.
//
// Functions come in families, one file each (math_functions.cc,
// string_functions.cc, ...). A family's file holds, per function, its type
// check and its evaluation side by side, and ends with the family's
// registration call. Builtins() calls every family's in one explicit list:
// nothing depends on static initializers, which a static library may drop.

#ifndef LBT_SQL_FUNCTIONS_REGISTRY_H_
#define LBT_SQL_FUNCTIONS_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sql/functions.h"

namespace lbt::sql {

// The result type for these argument types, or INVALID_ARGUMENT.
using CheckFunction = Result<TypePtr> (*)(const std::vector<TypePtr>& args);
// One call's value. REQUIRES: arguments the check accepted; none NULL
// unless the function was added WithNulls.
using EvalFunction = Result<Value> (*)(const Values& args, const EvalContext& ctx);
// A new running state for one group of an aggregate.
using CreateAccumulator = std::unique_ptr<Accumulator> (*)(const TypePtr& result, const std::vector<TypePtr>& args);

class FunctionRegistry {
 public:
  enum class Nulls { kMakeNull, kWithNulls };
  enum class Args { kUnified, kIndependent };  // Function::independent_args

  // The functions and aggregates every query can call.
  static const FunctionRegistry& Builtins();

  // Names are upper case, or "$name" for an operator (see ast.h).
  // REQUIRES: `name` not registered yet. With kMakeNull a NULL argument
  // makes the result NULL without calling `eval`; with kWithNulls `eval`
  // sees NULLs.
  void Add(const char* name, CheckFunction check, EvalFunction eval, Nulls nulls = Nulls::kMakeNull,
           Args args = Args::kUnified);
  // Lets calls of `name` pass its arguments from position `first` on by
  // name, each with its default (nullopt for one a call must give).
  // REQUIRES: `name` registered.
  void NameArguments(const char* name, size_t first, NamedArguments named);
  void AddAggregate(const char* name, CheckFunction check, CreateAccumulator create);
  // REQUIRES: `function.name` not registered yet.
  void AddWindow(WindowFunction function);

  // nullptr when there is no such function.
  const Function* Find(std::string_view name) const;
  const AggregateFunction* FindAggregate(std::string_view name) const;
  const WindowFunction* FindWindow(std::string_view name) const;
  // Every name a query can call, in order (completion, the documented list's test).
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, Function, std::less<>> functions_;
  std::map<std::string, AggregateFunction, std::less<>> aggregates_;
  std::map<std::string, WindowFunction, std::less<>> windows_;
};

// The families. Each adds its functions to `registry`.
void RegisterMathFunctions(FunctionRegistry* registry);
void RegisterTrigonometricFunctions(FunctionRegistry* registry);
void RegisterBitwiseFunctions(FunctionRegistry* registry);
void RegisterComparisonFunctions(FunctionRegistry* registry);
void RegisterStringFunctions(FunctionRegistry* registry);
void RegisterUnicodeFunctions(FunctionRegistry* registry);
void RegisterFormatFunction(FunctionRegistry* registry);
void RegisterCodePointFunctions(FunctionRegistry* registry);
void RegisterHllFunctions(FunctionRegistry* registry);
void RegisterRegexpFunctions(FunctionRegistry* registry);
void RegisterBytesFunctions(FunctionRegistry* registry);
void RegisterMapFunctions(FunctionRegistry* registry);
void RegisterArrayFunctions(FunctionRegistry* registry);
void RegisterArraySearchFunctions(FunctionRegistry* registry);
void RegisterTimestampFunctions(FunctionRegistry* registry);
void RegisterDateFunctions(FunctionRegistry* registry);
void RegisterJsonFunctions(FunctionRegistry* registry);
void RegisterAggregateFunctions(FunctionRegistry* registry);
void RegisterStatisticalFunctions(FunctionRegistry* registry);
void RegisterApproximateFunctions(FunctionRegistry* registry);
void RegisterVectorFunctions(FunctionRegistry* registry);
void RegisterGeographyFunctions(FunctionRegistry* registry);
void RegisterGeographyMeasures(FunctionRegistry* registry);
void RegisterGeographyTransforms(FunctionRegistry* registry);
void RegisterNumberingFunctions(FunctionRegistry* registry);
void RegisterNavigationFunctions(FunctionRegistry* registry);

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_REGISTRY_H_
