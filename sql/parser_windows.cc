// Parsing window function calls' OVER clauses and the WINDOW clause
// (Bigtable's window-function-calls page: named windows, PARTITION BY,
// ORDER BY, ROWS/RANGE frames).

#include "sql/parser_internal.h"

namespace lbt::sql::parsing {

Result<std::shared_ptr<const WindowSpec>> Parser::OverClause() {
  if (Current().kind == TokenKind::kIdent || Current().kind == TokenKind::kQuotedIdent) {
    auto spec = std::make_shared<WindowSpec>();
    spec->pos = Current().pos;
    spec->base = Current().text;
    Advance();
    return std::shared_ptr<const WindowSpec>(std::move(spec));
  }
  if (!IsOp("(")) return Error(Current().pos, "Expected a window name or ( after OVER");
  return WindowSpecification();
}

Result<std::shared_ptr<const WindowSpec>> Parser::WindowSpecification() {
  Nesting nesting(this);
  if (nesting.too_deep()) return TooDeep();
  auto spec = std::make_shared<WindowSpec>();
  spec->pos = Current().pos;
  LBT_RETURN_IF_ERROR(ExpectOp("("));
  if ((Current().kind == TokenKind::kIdent && !IsReserved(Upper(Current().text)) && !IsWord("PARTITION") &&
       !IsWord("ROWS") && !IsWord("RANGE")) ||
      Current().kind == TokenKind::kQuotedIdent) {
    spec->base = Current().text;
    Advance();
  }
  if (AcceptWord("PARTITION")) {
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    do {
      LBT_ASSIGN_OR_RETURN(ExprPtr e, Expression());
      spec->partition_by.push_back(std::move(e));
    } while (AcceptOp(","));
  }
  if (AcceptWord("ORDER")) {
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    do {
      LBT_ASSIGN_OR_RETURN(OrderItem item, Order());
      spec->order_by.push_back(std::move(item));
    } while (AcceptOp(","));
  }
  if (IsWord("ROWS") || IsWord("RANGE")) {
    LBT_ASSIGN_OR_RETURN(spec->frame, Frame());
  }
  LBT_RETURN_IF_ERROR(ExpectOp(")"));
  return std::shared_ptr<const WindowSpec>(std::move(spec));
}

Result<std::shared_ptr<const WindowFrame>> Parser::Frame() {
  auto frame = std::make_shared<WindowFrame>();
  frame->pos = Current().pos;
  frame->rows = IsWord("ROWS");
  Advance();
  if (AcceptWord("BETWEEN")) {
    LBT_ASSIGN_OR_RETURN(frame->start, Bound());
    LBT_RETURN_IF_ERROR(ExpectWord("AND"));
    LBT_ASSIGN_OR_RETURN(frame->end, Bound());
  } else {
    // `ROWS 2 PRECEDING` is `ROWS BETWEEN 2 PRECEDING AND CURRENT ROW`.
    LBT_ASSIGN_OR_RETURN(frame->start, Bound());
    frame->end.kind = FrameBound::Kind::kCurrentRow;
  }
  return std::shared_ptr<const WindowFrame>(std::move(frame));
}

Result<FrameBound> Parser::Bound() {
  FrameBound bound;
  if (AcceptWord("CURRENT")) {
    LBT_RETURN_IF_ERROR(ExpectWord("ROW"));
    bound.kind = FrameBound::Kind::kCurrentRow;
    return bound;
  }
  if (AcceptWord("UNBOUNDED")) {
    if (AcceptWord("PRECEDING")) {
      bound.kind = FrameBound::Kind::kUnboundedPreceding;
      return bound;
    }
    LBT_RETURN_IF_ERROR(ExpectWord("FOLLOWING"));
    bound.kind = FrameBound::Kind::kUnboundedFollowing;
    return bound;
  }
  // The offset is an additive expression: `1 + 1 PRECEDING` reads as 2.
  LBT_ASSIGN_OR_RETURN(bound.offset, Additive());
  if (AcceptWord("PRECEDING")) {
    bound.kind = FrameBound::Kind::kPreceding;
  } else {
    LBT_RETURN_IF_ERROR(ExpectWord("FOLLOWING"));
    bound.kind = FrameBound::Kind::kFollowing;
  }
  return bound;
}

Status Parser::WindowClause(Select* select) {
  do {
    if (Current().kind != TokenKind::kIdent && Current().kind != TokenKind::kQuotedIdent) {
      return Error(Current().pos, "Expected a window name after WINDOW");
    }
    std::string name = Current().text;
    Advance();
    LBT_RETURN_IF_ERROR(ExpectWord("AS"));
    LBT_ASSIGN_OR_RETURN(std::shared_ptr<const WindowSpec> spec, WindowSpecification());
    select->windows.emplace_back(std::move(name), std::move(spec));
  } while (AcceptOp(","));
  return Status::OK();
}

}  // namespace lbt::sql::parsing
