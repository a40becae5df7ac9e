#include "sql/lexer.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

namespace lbt::sql {

namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Tokens() {
    std::vector<Token> out;
    while (true) {
      LBT_RETURN_IF_ERROR(SkipSpaceAndComments());
      if (pos_ >= text_.size()) break;
      LBT_ASSIGN_OR_RETURN(Token t, Next());
      out.push_back(std::move(t));
    }
    out.push_back(Token{TokenKind::kEnd, "", text_.size()});
    return out;
  }

 private:
  Status Error(size_t pos, const std::string& what) const {
    return Status::InvalidArgument(fmt::format("Syntax error: {} {}", what, Location(text_, pos)));
  }

  Status SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '#' || (c == '-' && Peek(1) == '-')) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && Peek(1) == '*') {
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) return Error(pos_, "Unclosed comment");
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return Status::OK();
  }

  char Peek(size_t ahead) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

  Result<Token> Next() {
    const size_t start = pos_;
    char c = text_[pos_];
    // String and bytes literals, with optional r/b prefixes.
    size_t prefix = 0;
    bool raw = false, bytes = false;
    while (prefix < 2 && (std::tolower(static_cast<unsigned char>(Peek(prefix))) == 'r' ||
                          std::tolower(static_cast<unsigned char>(Peek(prefix))) == 'b')) {
      (std::tolower(static_cast<unsigned char>(Peek(prefix))) == 'r' ? raw : bytes) = true;
      ++prefix;
    }
    if (Peek(prefix) == '\'' || Peek(prefix) == '"') {
      pos_ += prefix;
      LBT_ASSIGN_OR_RETURN(std::string value, Quoted(raw));
      return Token{bytes ? TokenKind::kBytes : TokenKind::kString, std::move(value), start};
    }
    if (IsIdentStart(c)) {
      while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
      return Token{TokenKind::kIdent, std::string(text_.substr(start, pos_ - start)), start};
    }
    if (c == '`') {
      size_t end = text_.find('`', pos_ + 1);
      if (end == std::string_view::npos) return Error(start, "Unclosed identifier literal");
      pos_ = end + 1;
      return Token{TokenKind::kQuotedIdent, std::string(text_.substr(start + 1, end - start - 1)), start};
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      return Number();
    }
    if (c == '@') {
      ++pos_;
      if (pos_ >= text_.size() || !IsIdentStart(text_[pos_])) return Error(start, "Expected a parameter name after @");
      while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
      return Token{TokenKind::kParam, std::string(text_.substr(start + 1, pos_ - start - 1)), start};
    }
    for (std::string_view op : {"<>", "!=", "<=", ">=", "=>", "->", "||", "|>", "<<", ">>"}) {
      if (text_.substr(pos_, 2) == op) {
        pos_ += 2;
        return Token{TokenKind::kOp, std::string(op), start};
      }
    }
    if (std::string_view("()[],.;+-*/=<>&|^~").find(c) != std::string_view::npos) {
      ++pos_;
      return Token{TokenKind::kOp, std::string(1, c), start};
    }
    return Error(start, fmt::format("Illegal input character \"{}\"", c));
  }

  Result<Token> Number() {
    const size_t start = pos_;
    bool is_float = false;
    if (text_[pos_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      pos_ += 2;
      while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    } else {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '.') {
        is_float = true;
        ++pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      }
      if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        is_float = true;
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      }
    }
    if (pos_ < text_.size() && IsIdentChar(text_[pos_]))
      return Error(start, "Missing whitespace between literal and alias");
    return Token{is_float ? TokenKind::kFloat : TokenKind::kInt, std::string(text_.substr(start, pos_ - start)), start};
  }

  // A quoted literal at pos_ ('...', "...", or tripled), decoded.
  Result<std::string> Quoted(bool raw) {
    const size_t start = pos_;
    const char quote = text_[pos_];
    const bool triple = Peek(1) == quote && Peek(2) == quote;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) return Error(start, "Unclosed string literal");
      char c = text_[pos_];
      if (c == quote && (!triple || (Peek(1) == quote && Peek(2) == quote))) {
        pos_ += triple ? 3 : 1;
        return out;
      }
      if (c == '\n' && !triple) return Error(start, "Unclosed string literal");
      if (c == '\\' && !raw) {
        LBT_RETURN_IF_ERROR(Escape(&out));
        continue;
      }
      if (c == '\\' && raw && pos_ + 1 < text_.size()) {
        out += text_.substr(pos_, 2);
        pos_ += 2;
        continue;
      }
      out += c;
      ++pos_;
    }
  }

  static void AppendUtf8(uint32_t c, std::string* out) {
    if (c < 0x80) {
      out->push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (c >> 6)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (c >> 12)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (c >> 18)));
      out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }

  Status Escape(std::string* out) {
    const size_t start = pos_;
    char e = Peek(1);
    pos_ += 2;
    switch (e) {
      case 'n': *out += '\n'; return Status::OK();
      case 't': *out += '\t'; return Status::OK();
      case 'r': *out += '\r'; return Status::OK();
      case 'a': *out += '\a'; return Status::OK();
      case 'b': *out += '\b'; return Status::OK();
      case 'f': *out += '\f'; return Status::OK();
      case 'v': *out += '\v'; return Status::OK();
      case '\\':
      case '\'':
      case '"':
      case '`':
      case '?': *out += e; return Status::OK();
      case 'x':
      case 'X': {
        std::string hex(text_.substr(pos_, 2));
        if (hex.size() != 2 || !std::isxdigit(static_cast<unsigned char>(hex[0])) ||
            !std::isxdigit(static_cast<unsigned char>(hex[1]))) {
          return Error(start, "Illegal escape sequence: \\x needs two hex digits");
        }
        *out += static_cast<char>(std::strtol(hex.c_str(), nullptr, 16));
        pos_ += 2;
        return Status::OK();
      }
      case 'u':
      case 'U': {
        // \uhhhh and \Uhhhhhhhh: a code point, written as UTF-8.
        const size_t digits = e == 'u' ? 4 : 8;
        std::string hex(text_.substr(pos_, digits));
        if (hex.size() != digits || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
          return Error(start, fmt::format("Illegal escape sequence: \\{} needs {} hex digits", e, digits));
        }
        const unsigned long code = std::strtoul(hex.c_str(), nullptr, 16);
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          return Error(start, "Illegal escape sequence: not a Unicode code point");
        }
        AppendUtf8(static_cast<uint32_t>(code), out);
        pos_ += digits;
        return Status::OK();
      }
      default:
        if (e >= '0' && e <= '7') {
          std::string oct(text_.substr(pos_ - 1, 3));
          if (oct.size() != 3 || oct.find_first_not_of("01234567") != std::string::npos) {
            return Error(start, "Illegal escape sequence: octal escapes need three digits");
          }
          *out += static_cast<char>(std::strtol(oct.c_str(), nullptr, 8));
          pos_ += 2;
          return Status::OK();
        }
        return Error(start, fmt::format("Illegal escape sequence: \\{}", e));
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<std::vector<Token>> Lex(std::string_view text) { return Lexer(text).Tokens(); }

std::string Location(std::string_view sql, size_t pos) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < pos && i < sql.size(); ++i) {
    if (sql[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("[at {}:{}]", line, column);
}

}  // namespace lbt::sql
