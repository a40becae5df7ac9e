#include "sql/functions/function_util.h"

#include <fmt/format.h>

#include <algorithm>

#include "sql/functions.h"

namespace lbt::sql {

Status ArgError(std::string_view fn, const Types& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) list += (i ? ", " : "") + args[i]->ToString();
  return Status::InvalidArgument(
      fmt::format("No matching signature for function {} for argument types: {}", fn, list.empty() ? "(none)" : list));
}

Value SameKind(const Value& like, std::string s) {
  return like.kind() == TypeKind::kString ? Value::String(std::move(s)) : Value::Bytes(std::move(s));
}

std::vector<std::string_view> Chars(std::string_view s, bool utf8) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    size_t n = 1;
    if (utf8) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
      n = std::min(n, s.size() - i);
    }
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

size_t ValueBytes(const Value& v) {
  if (v.is_null()) return 1;
  switch (v.kind()) {
    case TypeKind::kBytes:
    case TypeKind::kString: return v.str().size();
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      size_t total = 0;
      for (const Value& e : v.elements()) total += ValueBytes(e);
      return total;
    }
    case TypeKind::kMap: {
      size_t total = 0;
      for (const auto& [key, value] : v.entries()) total += ValueBytes(key) + ValueBytes(value);
      return total;
    }
    default: return 8;
  }
}

Status CheckComputedBytes(double bytes, std::string_view what) {
  if (bytes <= static_cast<double>(kMaxComputedBytes)) return Status::OK();
  return Status::OutOfRange(fmt::format("{} would exceed {} MiB ({:.0f} bytes)", what, kMaxComputedBytes >> 20, bytes));
}

}  // namespace lbt::sql
