#include "commands/core/tokenizer.h"

#include <fmt/format.h>

namespace lbt {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes one escape of a $'...' string starting after the backslash at
// text[*i]; appends the byte(s) and advances *i past the escape.
Status DecodeAnsiEscape(std::string_view text, size_t* i, std::string* out) {
  if (*i >= text.size()) return Status::InvalidArgument("unterminated $'...' string");
  char c = text[(*i)++];
  switch (c) {
    case 'n': out->push_back('\n'); return Status::OK();
    case 't': out->push_back('\t'); return Status::OK();
    case 'r': out->push_back('\r'); return Status::OK();
    case 'a': out->push_back('\a'); return Status::OK();
    case 'b': out->push_back('\b'); return Status::OK();
    case 'e':
    case 'E': out->push_back('\x1b'); return Status::OK();
    case 'f': out->push_back('\f'); return Status::OK();
    case 'v': out->push_back('\v'); return Status::OK();
    case '\\':
    case '\'':
    case '"':
    case '?': out->push_back(c); return Status::OK();
    case 'x': {
      int value = 0, digits = 0;
      while (digits < 2 && *i < text.size() && HexValue(text[*i]) >= 0) {
        value = value * 16 + HexValue(text[(*i)++]);
        ++digits;
      }
      if (digits == 0) {
        return Status::InvalidArgument("invalid escape \\x in $'...': expected one or two hex digits");
      }
      out->push_back(static_cast<char>(value));
      return Status::OK();
    }
    default:
      if (c >= '0' && c <= '7') {
        int value = c - '0', digits = 1;
        while (digits < 3 && *i < text.size() && text[*i] >= '0' && text[*i] <= '7') {
          value = value * 8 + (text[(*i)++] - '0');
          ++digits;
        }
        out->push_back(static_cast<char>(value & 0xff));
        return Status::OK();
      }
      // Like bash, an unknown escape keeps its backslash.
      out->push_back('\\');
      out->push_back(c);
      return Status::OK();
  }
}

// Reads a "..." string starting at text[*i] (the opening quote) into
// *out, leaving *i after the closing quote. As in bash, a backslash escapes
// only \\, ", $ and ` (and joins lines before a newline).
Status ReadDoubleQuoted(std::string_view text, size_t* i, std::string* out) {
  for (++*i;; ++*i) {
    if (*i >= text.size()) return Status::InvalidArgument("unterminated double quote");
    const char d = text[*i];
    if (d == '"') break;
    if (d == '\\' && *i + 1 < text.size()) {
      const char e = text[*i + 1];
      if (e == '\\' || e == '"' || e == '$' || e == '`') {
        out->push_back(e);
        ++*i;
        continue;
      }
      if (e == '\n') {
        ++*i;
        continue;
      }
    }
    out->push_back(d);
  }
  ++*i;
  return Status::OK();
}

// Reads a $'...' string starting at text[*i] (the '$') into *out, with
// its escapes decoded, leaving *i after the closing quote.
Status ReadAnsiQuoted(std::string_view text, size_t* i, std::string* out) {
  *i += 2;
  while (true) {
    if (*i >= text.size()) return Status::InvalidArgument("unterminated $'...' string");
    const char d = text[*i];
    if (d == '\'') break;
    ++*i;
    if (d == '\\') {
      LBT_RETURN_IF_ERROR(DecodeAnsiEscape(text, i, out));
    } else {
      out->push_back(d);
    }
  }
  ++*i;
  return Status::OK();
}

// Scans `text`; calls on_word for each finished word and on_break at each
// unquoted ';' or newline. Returns an error for an unterminated quote.
template <typename OnWord, typename OnBreak>
Status Scan(std::string_view text, OnWord on_word, OnBreak on_break) {
  std::string word;
  bool in_word = false;
  size_t i = 0;
  auto finish = [&](size_t end) {
    if (in_word) on_word(std::move(word), end);
    word.clear();
    in_word = false;
  };
  while (i < text.size()) {
    char c = text[i];
    if (IsSpace(c) || c == ';') {
      finish(i);
      if (c == ';' || c == '\n') on_break(i);
      ++i;
    } else if (c == '#' && !in_word) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '\\') {
      if (i + 1 >= text.size()) return Status::InvalidArgument("a line cannot end with a backslash");
      if (text[i + 1] != '\n') {  // backslash-newline only joins lines
        in_word = true;
        word.push_back(text[i + 1]);
      }
      i += 2;
    } else if (c == '\'') {
      in_word = true;
      size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) return Status::InvalidArgument("unterminated single quote");
      word.append(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (c == '"') {
      in_word = true;
      LBT_RETURN_IF_ERROR(ReadDoubleQuoted(text, &i, &word));
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '\'') {
      in_word = true;
      LBT_RETURN_IF_ERROR(ReadAnsiQuoted(text, &i, &word));
    } else {
      in_word = true;
      word.push_back(c);
      ++i;
    }
  }
  finish(text.size());
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> Tokenize(std::string_view line) {
  std::vector<std::string> words;
  LBT_RETURN_IF_ERROR(Scan(
      line, [&](std::string w, size_t) { words.push_back(std::move(w)); }, [](size_t) {}));
  return words;
}

bool IsIncomplete(std::string_view text) {
  Status s = Scan(
      text, [](std::string, size_t) {}, [](size_t) {});
  return !s.ok();
}

std::vector<std::string> SplitStatements(std::string_view text) {
  std::vector<std::string> statements;
  size_t start = 0;
  auto cut = [&](size_t end) {
    std::string_view piece = text.substr(start, end - start);
    size_t first = piece.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos) statements.emplace_back(piece);
    start = end + 1;
  };
  Status s = Scan(
      text, [](std::string, size_t) {}, cut);
  if (!s.ok()) {
    // Unterminated quotes: hand the rest over whole so that Tokenize reports it.
    statements.emplace_back(text.substr(start));
    return statements;
  }
  if (start < text.size()) cut(text.size());
  return statements;
}

}  // namespace lbt
