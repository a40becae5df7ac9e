#include "commands/hbase/filter.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <cctype>

#include "commands/cbt/args.h"

namespace lbt {

namespace {

struct Token {
  enum class Kind { kIdent, kString, kNumber, kOp, kLParen, kRParen, kComma, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  size_t pos = 0;
};

Result<std::vector<Token>> Lex(std::string_view s) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    size_t start = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(' || c == ')' || c == ',') {
      tokens.push_back({c == '('   ? Token::Kind::kLParen
                        : c == ')' ? Token::Kind::kRParen
                                   : Token::Kind::kComma,
                        std::string(1, c), start});
      ++i;
    } else if (c == '\'') {
      std::string value;
      ++i;
      while (true) {
        if (i >= s.size())
          return Status::InvalidArgument(fmt::format("FILTER: the quote at {} is never closed", start));
        if (s[i] == '\'') {
          if (i + 1 < s.size() && s[i + 1] == '\'') {  // '' is a quote
            value.push_back('\'');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        value.push_back(s[i++]);
      }
      tokens.push_back({Token::Kind::kString, std::move(value), start});
    } else if (c == '<' || c == '>' || c == '=' || c == '!') {
      std::string op(1, c);
      if (i + 1 < s.size() && s[i + 1] == '=') op.push_back('=');
      if (op == "!") return Status::InvalidArgument(fmt::format("FILTER: '!' at {} must be '!='", start));
      tokens.push_back({Token::Kind::kOp, op, start});
      i += op.size();
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      tokens.push_back({Token::Kind::kNumber, std::string(s.substr(start, i - start)), start});
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      tokens.push_back({Token::Kind::kIdent, std::string(s.substr(start, i - start)), start});
    } else {
      return Status::InvalidArgument(fmt::format("FILTER: unexpected '{}' at {}", c, start));
    }
  }
  tokens.push_back({Token::Kind::kEnd, "", s.size()});
  return tokens;
}

// Quotes bytes for a Latin-1 RE2 pattern.
std::string Literal(const std::string& bytes) { return RE2::QuoteMeta(re2::StringPiece(bytes.data(), bytes.size())); }

Result<Filter::CompareOp> ParseOp(const std::string& op) {
  using O = Filter::CompareOp;
  if (op == "<") return O::kLess;
  if (op == "<=") return O::kLessOrEqual;
  if (op == "=") return O::kEqual;
  if (op == "!=") return O::kNotEqual;
  if (op == ">=") return O::kGreaterOrEqual;
  if (op == ">") return O::kGreater;
  return Status::InvalidArgument(fmt::format("FILTER: unknown operator '{}'", op));
}

struct ComparatorSpec {
  Filter::Comparator comparator;
  std::string value;
};

Result<ComparatorSpec> ParseComparator(const std::string& text) {
  size_t colon = text.find(':');
  std::string type = text.substr(0, colon);
  std::string value = colon == std::string::npos ? "" : text.substr(colon + 1);
  using C = Filter::Comparator;
  if (colon != std::string::npos) {
    if (type == "binary") return ComparatorSpec{C::kBinary, value};
    if (type == "binaryprefix") return ComparatorSpec{C::kBinaryPrefix, value};
    if (type == "regexstring") return ComparatorSpec{C::kRegex, value};
    if (type == "substring") return ComparatorSpec{C::kSubstring, value};
  }
  return Status::InvalidArgument(fmt::format(
      "FILTER: bad comparator '{}'; expected binary:, binaryprefix:, regexstring: or substring: and a value", text));
}

const std::vector<std::string> kFilterNames = {"ColumnCountGetFilter",
                                               "ColumnPaginationFilter",
                                               "ColumnPrefixFilter",
                                               "ColumnRangeFilter",
                                               "ColumnValueFilter",
                                               "DependentColumnFilter",
                                               "FamilyFilter",
                                               "FirstKeyOnlyFilter",
                                               "InclusiveStopFilter",
                                               "KeyOnlyFilter",
                                               "MultiRowRangeFilter",
                                               "MultipleColumnPrefixFilter",
                                               "PageFilter",
                                               "PrefixFilter",
                                               "QualifierFilter",
                                               "RowFilter",
                                               "SingleColumnValueExcludeFilter",
                                               "SingleColumnValueFilter",
                                               "TimestampsFilter",
                                               "ValueFilter"};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Filter> ParseAll() {
    LBT_ASSIGN_OR_RETURN(Filter f, ParseOr());
    if (Peek().kind != Token::Kind::kEnd) return Unexpected("AND, OR or the end");
    return f;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Take() { return tokens_[pos_++]; }
  bool IsWord(const char* word) const { return Peek().kind == Token::Kind::kIdent && Peek().text == word; }

  Status Unexpected(const std::string& expected) const {
    const Token& t = Peek();
    std::string got = t.kind == Token::Kind::kEnd ? "the end" : "'" + t.text + "'";
    return Status::InvalidArgument(fmt::format("FILTER: expected {} at {}, got {}", expected, t.pos, got));
  }

  Result<Filter> ParseOr() {
    std::vector<Filter> parts;
    LBT_ASSIGN_OR_RETURN(Filter first, ParseAnd());
    parts.push_back(std::move(first));
    while (IsWord("OR")) {
      Take();
      LBT_ASSIGN_OR_RETURN(Filter next, ParseAnd());
      parts.push_back(std::move(next));
    }
    if (parts.size() == 1) return std::move(parts[0]);
    return Filter::Union(std::move(parts));
  }

  Result<Filter> ParseAnd() {
    std::vector<Filter> parts;
    LBT_ASSIGN_OR_RETURN(Filter first, ParseUnary());
    parts.push_back(std::move(first));
    while (IsWord("AND")) {
      Take();
      LBT_ASSIGN_OR_RETURN(Filter next, ParseUnary());
      parts.push_back(std::move(next));
    }
    if (parts.size() == 1) return std::move(parts[0]);
    return Filter::Chain(std::move(parts));
  }

  Result<Filter> ParseUnary() {
    if (depth_ >= kMaxDepth) {
      return Status::InvalidArgument(
          fmt::format("FILTER: parentheses, SKIP and WHILE nest more than {} deep", kMaxDepth));
    }
    ++depth_;
    Result<Filter> f = ParseUnaryAt();
    --depth_;
    return f;
  }

  Result<Filter> ParseUnaryAt() {
    if (IsWord("SKIP") || IsWord("WHILE")) {
      bool skip = Take().text == "SKIP";
      LBT_ASSIGN_OR_RETURN(Filter inner, ParseUnary());
      return skip ? Filter::Skip(std::move(inner)) : Filter::While(std::move(inner));
    }
    if (Peek().kind == Token::Kind::kLParen) {
      Take();
      LBT_ASSIGN_OR_RETURN(Filter inner, ParseOr());
      if (Peek().kind != Token::Kind::kRParen) return Unexpected("')'");
      Take();
      return inner;
    }
    return ParseCall();
  }

  Result<Filter> ParseCall() {
    if (Peek().kind != Token::Kind::kIdent) return Unexpected("a filter such as PrefixFilter('p')");
    const Token name = Take();
    if (Peek().kind != Token::Kind::kLParen) return Unexpected("'(' after " + name.text);
    Take();
    std::vector<Token> args;
    if (Peek().kind != Token::Kind::kRParen) {
      while (true) {
        const Token& t = Peek();
        if (t.kind != Token::Kind::kString && t.kind != Token::Kind::kNumber && t.kind != Token::Kind::kOp &&
            t.kind != Token::Kind::kIdent) {
          return Unexpected("an argument");
        }
        args.push_back(Take());
        if (Peek().kind == Token::Kind::kComma) {
          Take();
          continue;
        }
        break;
      }
    }
    if (Peek().kind != Token::Kind::kRParen) return Unexpected("',' or ')'");
    Take();
    return Build(name.text, args);
  }

  // Argument accessors; `i` counts from 0.
  Status ArgCount(const std::string& name, const std::vector<Token>& args, size_t min, size_t max) {
    if (args.size() < min || args.size() > max) {
      std::string want = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
      return Status::InvalidArgument(
          fmt::format("FILTER: {} takes {} argument{}, got {}", name, want, max == 1 ? "" : "s", args.size()));
    }
    return Status::OK();
  }
  Result<std::string> String(const std::string& name, const Token& t) {
    if (t.kind != Token::Kind::kString) {
      return Status::InvalidArgument(fmt::format("FILTER: {} expects a quoted string, got '{}'", name, t.text));
    }
    return t.text;
  }
  Result<int64_t> Number(const std::string& name, const Token& t) {
    int64_t n;
    if (t.kind != Token::Kind::kNumber || !ParseInt64(t.text, &n)) {
      return Status::InvalidArgument(fmt::format("FILTER: {} expects a number, got '{}'", name, t.text));
    }
    return n;
  }
  Result<bool> Bool(const std::string& name, const Token& t) {
    if (t.kind == Token::Kind::kIdent && (t.text == "true" || t.text == "false")) return t.text == "true";
    return Status::InvalidArgument(fmt::format("FILTER: {} expects true or false, got '{}'", name, t.text));
  }
  Result<Filter::CompareOp> Op(const std::string& name, const Token& t) {
    if (t.kind != Token::Kind::kOp) {
      return Status::InvalidArgument(
          fmt::format("FILTER: {} expects an operator (< <= = != >= >), got '{}'", name, t.text));
    }
    return ParseOp(t.text);
  }

  Result<Filter> Build(const std::string& name, const std::vector<Token>& a) {
    using T = Filter::Target;
    if (name == "KeyOnlyFilter" || name == "FirstKeyOnlyFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 0, 0));
      return name == "KeyOnlyFilter" ? Filter::StripValue() : Filter::CellsPerRowLimit(1);
    }
    if (name == "PrefixFilter" || name == "ColumnPrefixFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 1, 1));
      LBT_ASSIGN_OR_RETURN(std::string prefix, String(name, a[0]));
      std::string regex = Literal(prefix) + "(?s:.*)";
      return name == "PrefixFilter" ? Filter::RowKeyRegex(regex) : Filter::QualifierRegex(regex);
    }
    if (name == "MultipleColumnPrefixFilter") {
      if (a.empty()) return Status::InvalidArgument("FILTER: MultipleColumnPrefixFilter needs at least one prefix");
      std::string alternatives;
      for (const Token& t : a) {
        LBT_ASSIGN_OR_RETURN(std::string prefix, String(name, t));
        alternatives += (alternatives.empty() ? "" : "|") + Literal(prefix);
      }
      return Filter::QualifierRegex("(?:" + alternatives + ")(?s:.*)");
    }
    if (name == "ColumnRangeFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 4, 4));
      LBT_ASSIGN_OR_RETURN(std::string min, String(name, a[0]));
      LBT_ASSIGN_OR_RETURN(bool min_inclusive, Bool(name, a[1]));
      LBT_ASSIGN_OR_RETURN(std::string max, String(name, a[2]));
      LBT_ASSIGN_OR_RETURN(bool max_inclusive, Bool(name, a[3]));
      ByteBound low = min.empty()     ? ByteBound::Unbounded()
                      : min_inclusive ? ByteBound::Closed(min)
                                      : ByteBound::Open(min);
      ByteBound high = max.empty()     ? ByteBound::Unbounded()
                       : max_inclusive ? ByteBound::Closed(max)
                                       : ByteBound::Open(max);
      return Filter::QualifierRange(std::move(low), std::move(high));
    }
    if (name == "RowFilter" || name == "FamilyFilter" || name == "QualifierFilter" || name == "ValueFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 2, 2));
      LBT_ASSIGN_OR_RETURN(Filter::CompareOp op, Op(name, a[0]));
      LBT_ASSIGN_OR_RETURN(std::string text, String(name, a[1]));
      LBT_ASSIGN_OR_RETURN(ComparatorSpec cmp, ParseComparator(text));
      T target = name == "RowFilter"         ? T::kRowKey
                 : name == "FamilyFilter"    ? T::kFamily
                 : name == "QualifierFilter" ? T::kQualifier
                                             : T::kValue;
      return Filter::Compare(target, op, cmp.comparator, std::move(cmp.value));
    }
    if (name == "ColumnValueFilter" || name == "SingleColumnValueFilter" || name == "SingleColumnValueExcludeFilter") {
      return ColumnValue(name, a);
    }
    if (name == "TimestampsFilter" || name == "PageFilter" || name == "ColumnCountGetFilter" ||
        name == "ColumnPaginationFilter") {
      return Paging(name, a);
    }
    if (name == "DependentColumnFilter") return DependentColumn(name, a);
    if (name == "MultiRowRangeFilter") return MultiRowRange(name, a);
    if (name == "InclusiveStopFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 1, 1));
      LBT_ASSIGN_OR_RETURN(std::string stop, String(name, a[0]));
      return Filter::Compare(T::kRowKey, Filter::CompareOp::kLessOrEqual, Filter::Comparator::kBinary, stop);
    }
    std::string known;
    for (const std::string& n : kFilterNames) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument(fmt::format("FILTER: unknown filter '{}'; lbt knows {}", name, known));
  }

  // ColumnValueFilter and SingleColumnValue(Exclude)Filter: a test of one column's value.
  Result<Filter> ColumnValue(const std::string& name, const std::vector<Token>& a) {
    using T = Filter::Target;
    if (name == "ColumnValueFilter") {
      // The cells of one column whose value passes the test, and nothing
      // else of the row (unlike SingleColumnValueFilter, which keeps it).
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 4, 4));
      LBT_ASSIGN_OR_RETURN(std::string family, String(name, a[0]));
      LBT_ASSIGN_OR_RETURN(std::string qualifier, String(name, a[1]));
      LBT_ASSIGN_OR_RETURN(Filter::CompareOp op, Op(name, a[2]));
      LBT_ASSIGN_OR_RETURN(std::string text, String(name, a[3]));
      LBT_ASSIGN_OR_RETURN(ComparatorSpec cmp, ParseComparator(text));
      return Filter::Chain(
          {Filter::ColumnRange(std::move(family), ByteBound::Closed(qualifier), ByteBound::Closed(qualifier)),
           Filter::Compare(T::kValue, op, cmp.comparator, std::move(cmp.value))});
    }
    if (name == "SingleColumnValueFilter" || name == "SingleColumnValueExcludeFilter") {
      if (a.size() != 4 && a.size() != 6) {
        return Status::InvalidArgument(
            fmt::format("FILTER: {} takes 4 or 6 arguments ('family', 'qualifier', op, 'comparator'[, filterIfMissing, "
                        "latestVersionOnly]), got {}",
                        name, a.size()));
      }
      LBT_ASSIGN_OR_RETURN(std::string family, String(name, a[0]));
      LBT_ASSIGN_OR_RETURN(std::string qualifier, String(name, a[1]));
      LBT_ASSIGN_OR_RETURN(Filter::CompareOp op, Op(name, a[2]));
      LBT_ASSIGN_OR_RETURN(std::string text, String(name, a[3]));
      LBT_ASSIGN_OR_RETURN(ComparatorSpec cmp, ParseComparator(text));
      bool if_missing = false, latest_only = true;
      if (a.size() == 6) {
        LBT_ASSIGN_OR_RETURN(if_missing, Bool(name, a[4]));
        LBT_ASSIGN_OR_RETURN(latest_only, Bool(name, a[5]));
      }
      return Filter::ColumnValue(std::move(family), std::move(qualifier), op, cmp.comparator, std::move(cmp.value),
                                 if_missing, latest_only, name == "SingleColumnValueExcludeFilter");
    }
    return Status::InvalidArgument(fmt::format("FILTER: unknown filter '{}'", name));
  }

  // TimestampsFilter, PageFilter, ColumnCountGetFilter, ColumnPaginationFilter.
  Result<Filter> Paging(const std::string& name, const std::vector<Token>& a) {
    if (name == "TimestampsFilter") {
      std::vector<int64_t> micros;
      for (const Token& t : a) {
        LBT_ASSIGN_OR_RETURN(int64_t ms, Number(name, t));
        if (ms < 0 || ms > INT64_MAX / 1000) {
          return Status::InvalidArgument(fmt::format("FILTER: TimestampsFilter: timestamp {} is out of range", ms));
        }
        micros.push_back(ms * 1000);
      }
      return Filter::Timestamps(std::move(micros));
    }
    if (name == "PageFilter" || name == "ColumnCountGetFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 1, 1));
      LBT_ASSIGN_OR_RETURN(int64_t n, Number(name, a[0]));
      return name == "PageFilter" ? Filter::Page(n) : Filter::ColumnCount(n);
    }
    if (name == "ColumnPaginationFilter") {
      LBT_RETURN_IF_ERROR(ArgCount(name, a, 2, 2));
      LBT_ASSIGN_OR_RETURN(int64_t limit, Number(name, a[0]));
      LBT_ASSIGN_OR_RETURN(int64_t offset, Number(name, a[1]));
      return Filter::ColumnPage(limit, offset);
    }
    return Status::InvalidArgument(fmt::format("FILTER: unknown filter '{}'", name));
  }

  // DependentColumnFilter('f', 'q'[, dropDependentColumn[, op, 'comparator']]).
  Result<Filter> DependentColumn(const std::string& name, const std::vector<Token>& a) {
    if (a.size() != 2 && a.size() != 3 && a.size() != 5) {
      return Status::InvalidArgument(
          fmt::format("FILTER: {} takes 2, 3 or 5 arguments ('family', 'qualifier'[, dropDependentColumn[, op, "
                      "'comparator']]), got {}",
                      name, a.size()));
    }
    LBT_ASSIGN_OR_RETURN(std::string family, String(name, a[0]));
    LBT_ASSIGN_OR_RETURN(std::string qualifier, String(name, a[1]));
    bool drop = false;
    if (a.size() >= 3) {
      LBT_ASSIGN_OR_RETURN(drop, Bool(name, a[2]));
    }
    if (a.size() < 5) return Filter::DependentColumn(std::move(family), std::move(qualifier), drop);
    LBT_ASSIGN_OR_RETURN(Filter::CompareOp op, Op(name, a[3]));
    LBT_ASSIGN_OR_RETURN(std::string text, String(name, a[4]));
    LBT_ASSIGN_OR_RETURN(ComparatorSpec cmp, ParseComparator(text));
    return Filter::DependentColumn(std::move(family), std::move(qualifier), drop, op, cmp.comparator,
                                   std::move(cmp.value));
  }

  // MultiRowRangeFilter('start', startInclusive, 'stop', stopInclusive, ...):
  // rows within any of the ranges; an empty start or stop is unbounded.
  Result<Filter> MultiRowRange(const std::string& name, const std::vector<Token>& a) {
    if (a.empty() || a.size() % 4 != 0) {
      return Status::InvalidArgument(
          fmt::format("FILTER: {} takes ranges of 4 arguments ('start', startInclusive, 'stop', stopInclusive), got {}",
                      name, a.size()));
    }
    using T = Filter::Target;
    using Op = Filter::CompareOp;
    std::vector<Filter> ranges;
    for (size_t i = 0; i < a.size(); i += 4) {
      LBT_ASSIGN_OR_RETURN(std::string start, String(name, a[i]));
      LBT_ASSIGN_OR_RETURN(bool start_inclusive, Bool(name, a[i + 1]));
      LBT_ASSIGN_OR_RETURN(std::string stop, String(name, a[i + 2]));
      LBT_ASSIGN_OR_RETURN(bool stop_inclusive, Bool(name, a[i + 3]));
      // A row key is at least "" and below no bound: an empty end is open.
      std::vector<Filter> bounds = {Filter::Compare(T::kRowKey, start_inclusive ? Op::kGreaterOrEqual : Op::kGreater,
                                                    Filter::Comparator::kBinary, start)};
      if (!stop.empty()) {
        bounds.push_back(Filter::Compare(T::kRowKey, stop_inclusive ? Op::kLessOrEqual : Op::kLess,
                                         Filter::Comparator::kBinary, stop));
      }
      ranges.push_back(bounds.size() == 1 ? std::move(bounds[0]) : Filter::Chain(std::move(bounds)));
    }
    return ranges.size() == 1 ? std::move(ranges[0]) : Filter::Union(std::move(ranges));
  }

  static constexpr int kMaxDepth = 20;  // Bigtable's limit for filter nesting
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<Filter> ParseHBaseFilter(std::string_view text) {
  LBT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(std::move(tokens)).ParseAll();
}

const std::vector<std::string>& HBaseFilterNames() { return kFilterNames; }

}  // namespace lbt
