#include "commands/hbase/syntax.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "util/bytes.h"

namespace lbt {

const HValue* HValue::Find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string HValue::Describe() const {
  switch (kind) {
    case Kind::kString: return "'" + text + "'";
    case Kind::kInteger: return std::to_string(integer);
    case Kind::kFloat: return fmt::format("{}", real);
    case Kind::kBool: return boolean ? "true" : "false";
    case Kind::kNil: return "nil";
    case Kind::kArray: return "an array";
    case Kind::kHash: return "a hash";
  }
  return "?";
}

bool SplitHBaseCommand(std::string_view statement, std::string* name, std::string* args) {
  size_t i = 0;
  while (i < statement.size() && std::isspace(static_cast<unsigned char>(statement[i]))) ++i;
  size_t start = i;
  while (i < statement.size() && (std::isalnum(static_cast<unsigned char>(statement[i])) || statement[i] == '_')) ++i;
  if (i == start) return false;
  *name = std::string(statement.substr(start, i - start));
  *args = std::string(statement.substr(i));
  return true;
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Result<std::vector<HValue>> ParseArgs() {
    std::vector<HValue> args;
    SkipSpace();
    if (AtEnd()) return args;
    while (true) {
      SkipSpace();
      // A run of "key => value" pairs at the top level is one hash.
      size_t save = i_;
      LBT_ASSIGN_OR_RETURN(HValue v, ParseValue());
      SkipSpace();
      if (Peek("=>")) {
        i_ = save;
        LBT_ASSIGN_OR_RETURN(HValue hash, ParsePairs(/*closer=*/'\0'));
        args.push_back(std::move(hash));
      } else {
        args.push_back(std::move(v));
      }
      SkipSpace();
      if (AtEnd()) return args;
      if (s_[i_] != ',') return Error("expected ',' between arguments");
      ++i_;
    }
  }

 private:
  bool AtEnd() const { return i_ >= s_.size(); }
  bool Peek(std::string_view t) const { return s_.substr(i_, t.size()) == t; }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (!AtEnd() && s_[i_] == '#') i_ = s_.size();  // a comment runs to the end
  }
  Status Error(const std::string& what) const {
    return Status::InvalidArgument(fmt::format("syntax error at character {}: {}", i_ + 1, what));
  }

  Result<HValue> ParseValue() {
    SkipSpace();
    if (AtEnd()) return Error("expected a value");
    // Arrays and hashes recurse; a bound keeps hostile input off the stack's end.
    if (depth_ >= kMaxDepth) return Error(fmt::format("arrays and hashes nest more than {} deep", kMaxDepth));
    ++depth_;
    Result<HValue> v = ParseValueAt();
    --depth_;
    return v;
  }

  Result<HValue> ParseValueAt() {
    char c = s_[i_];
    if (c == '\'') return ParseSingle();
    if (c == '"') return ParseDouble();
    if (c == '[') return ParseArray();
    if (c == '{') {
      ++i_;
      return ParsePairs('}');
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+') return ParseNumber();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':') return ParseWord();
    return Error(fmt::format("unexpected '{}'", c));
  }

  Result<HValue> ParseSingle() {
    HValue v;
    v.kind = HValue::Kind::kString;
    ++i_;
    while (true) {
      if (AtEnd()) return Error("a single-quoted string is never closed");
      char c = s_[i_++];
      if (c == '\'') return v;
      if (c == '\\' && !AtEnd() && (s_[i_] == '\'' || s_[i_] == '\\')) c = s_[i_++];
      v.text.push_back(c);
    }
  }

  Result<HValue> ParseDouble() {
    HValue v;
    v.kind = HValue::Kind::kString;
    ++i_;
    while (true) {
      if (AtEnd()) return Error("a double-quoted string is never closed");
      char c = s_[i_++];
      if (c == '"') return v;
      if (c != '\\') {
        v.text.push_back(c);
        continue;
      }
      if (AtEnd()) return Error("a double-quoted string is never closed");
      char e = s_[i_++];
      switch (e) {
        case 'n': v.text.push_back('\n'); break;
        case 't': v.text.push_back('\t'); break;
        case 'r': v.text.push_back('\r'); break;
        case 'a': v.text.push_back('\a'); break;
        case 'b': v.text.push_back('\b'); break;
        case 'e': v.text.push_back('\x1b'); break;
        case 'f': v.text.push_back('\f'); break;
        case 'v': v.text.push_back('\v'); break;
        case 's': v.text.push_back(' '); break;
        case 'x': {
          int value = 0, digits = 0;
          while (digits < 2 && !AtEnd() && HexDigit(s_[i_]) >= 0) {
            value = value * 16 + HexDigit(s_[i_++]);
            ++digits;
          }
          if (digits == 0) return Error("\\x needs one or two hex digits");
          v.text.push_back(static_cast<char>(value));
          break;
        }
        case 'u': {
          int value = 0;
          for (int k = 0; k < 4; ++k) {
            if (AtEnd() || HexDigit(s_[i_]) < 0) return Error("\\u needs four hex digits");
            value = value * 16 + HexDigit(s_[i_++]);
          }
          AppendUtf8(&v.text, static_cast<uint32_t>(value));
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int value = e - '0', digits = 1;
            while (digits < 3 && !AtEnd() && s_[i_] >= '0' && s_[i_] <= '7') {
              value = value * 8 + (s_[i_++] - '0');
              ++digits;
            }
            v.text.push_back(static_cast<char>(value & 0xff));
          } else {
            v.text.push_back(e);  // \" \\ \# and any other character stand for themselves
          }
      }
    }
  }

  Result<HValue> ParseNumber() {
    size_t start = i_;
    if (s_[i_] == '-' || s_[i_] == '+') ++i_;
    bool real = false;
    while (!AtEnd() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.')) {
      real |= s_[i_] == '.';
      ++i_;
    }
    std::string text;
    for (char c : s_.substr(start, i_ - start)) {
      if (c != '_' && c != '+') text.push_back(c);
    }
    HValue v;
    if (real) {
      v.kind = HValue::Kind::kFloat;
      try {
        v.real = std::stod(text);
      } catch (const std::exception&) {
        return Error(fmt::format("bad number '{}'", text));
      }
      return v;
    }
    v.kind = HValue::Kind::kInteger;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v.integer);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return Error(fmt::format("bad number '{}' (integers must fit in 64 bits)", text));
    }
    return v;
  }

  Result<HValue> ParseWord() {
    if (s_[i_] == ':') ++i_;  // a Ruby symbol reads as its name
    size_t start = i_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    std::string word(s_.substr(start, i_ - start));
    if (word.empty()) return Error("expected a name");
    HValue v;
    if (word == "true" || word == "false") {
      v.kind = HValue::Kind::kBool;
      v.boolean = word == "true";
    } else if (word == "nil") {
      v.kind = HValue::Kind::kNil;
    } else {
      v.kind = HValue::Kind::kString;
      v.text = word;
    }
    return v;
  }

  Result<HValue> ParseArray() {
    HValue v;
    v.kind = HValue::Kind::kArray;
    ++i_;
    SkipSpace();
    if (!AtEnd() && s_[i_] == ']') {
      ++i_;
      return v;
    }
    while (true) {
      LBT_ASSIGN_OR_RETURN(HValue item, ParseValue());
      v.items.push_back(std::move(item));
      SkipSpace();
      if (AtEnd()) return Error("an array is never closed with ']'");
      if (s_[i_] == ']') {
        ++i_;
        return v;
      }
      if (s_[i_] != ',') return Error("expected ',' or ']' in an array");
      ++i_;
    }
  }

  // "key => value, ..." up to `closer` ('}' or the end of the arguments).
  Result<HValue> ParsePairs(char closer) {
    HValue v;
    v.kind = HValue::Kind::kHash;
    while (true) {
      SkipSpace();
      if (closer != '\0' && !AtEnd() && s_[i_] == closer) {
        ++i_;
        return v;
      }
      LBT_ASSIGN_OR_RETURN(HValue key, ParseValue());
      if (key.kind != HValue::Kind::kString) return Error("a hash key must be a name or a string");
      SkipSpace();
      if (!Peek("=>")) return Error(fmt::format("expected '=>' after {}", key.Describe()));
      i_ += 2;
      LBT_ASSIGN_OR_RETURN(HValue value, ParseValue());
      v.entries.push_back(HashEntry{key.text, std::move(value)});
      SkipSpace();
      if (AtEnd()) {
        if (closer != '\0') return Error("a hash is never closed with '}'");
        return v;
      }
      if (s_[i_] == closer) continue;
      if (s_[i_] != ',') return Error("expected ',' between hash entries");
      ++i_;
      if (closer == '\0') {
        // Without braces, the hash ends where the next entry has no '=>'.
        size_t save = i_;
        Result<HValue> next = ParseValue();
        SkipSpace();
        bool is_pair = next.ok() && Peek("=>");
        i_ = save;
        if (!is_pair) return Error("expected another 'key => value' after ','");
      }
    }
  }

  static constexpr int kMaxDepth = 64;
  std::string_view s_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<std::vector<HValue>> ParseHBaseArgs(std::string_view text) { return Parser(text).ParseArgs(); }

bool HBaseArgsAreIncomplete(std::string_view args) {
  int depth = 0;
  char quote = 0;
  size_t last = std::string_view::npos;  // the last character outside quotes and blanks
  for (size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;  // an escaped character, the closing quote included
      } else if (c == quote) {
        quote = 0;
        last = i;
      }
      continue;
    }
    if (c == '#') break;  // a comment runs to the end of the line
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      --depth;
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') last = i;
  }
  if (quote != 0 || depth > 0) return true;
  if (last == std::string_view::npos) return false;
  return args[last] == ',' || (args[last] == '>' && last > 0 && args[last - 1] == '=');
}

}  // namespace lbt
