// The lexer of Bigtable's GoogleSQL: a query's text as tokens, for the
// parser (parser.h). Literals come out decoded (escapes, raw and bytes
// prefixes, triple quotes), comments (#, --, /* */) and spaces dropped.

#ifndef LBT_SQL_LEXER_H_
#define LBT_SQL_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt::sql {

enum class TokenKind { kIdent, kQuotedIdent, kInt, kFloat, kString, kBytes, kParam, kOp, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // identifiers as written; literals decoded; operators
  size_t pos = 0;    // byte offset of the token's first character in the text
};

// The tokens of `text`, ending with one kEnd token at text.size(). Errors
// read "Syntax error: <what> [at <line>:<column>]", as the parser's do.
Result<std::vector<Token>> Lex(std::string_view text);

// "[at 1:15]" for a byte offset into `sql`. Declared for callers in
// parser.h too; defined here, where the first syntax errors arise.
std::string Location(std::string_view sql, size_t pos);

}  // namespace lbt::sql

#endif  // LBT_SQL_LEXER_H_
