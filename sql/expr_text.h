// SQL text of bound expressions, for EXPLAIN: operators written as the
// query writes them (`a + b`, `x IS NULL`), slots by the names the plan
// gives them.

#ifndef LBT_SQL_EXPR_TEXT_H_
#define LBT_SQL_EXPR_TEXT_H_

#include <string>
#include <vector>

#include "sql/ast.h"

namespace lbt::sql {

// `e` as SQL text. A slot reads as slot_names[slot] (for example `_key`,
// `cell['plan']` or `COUNT(*)`), or `$<slot>` when the list has no name for
// it. Operands that are operators themselves are parenthesized, so the text
// reads unambiguously without knowing precedence.
// Window call results read as window_names[index].
std::string ExprText(const Expr& e, const std::vector<std::string>& slot_names,
                     const std::vector<std::string>& window_names = {});

// A STRING literal's text: single-quoted, with ' and \ escaped.
std::string QuotedText(std::string_view text);

}  // namespace lbt::sql

#endif  // LBT_SQL_EXPR_TEXT_H_
