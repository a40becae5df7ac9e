// Binding window function calls (`f(args) OVER (...)`): the OVER clause
// resolved against the WINDOW clause's named windows, the function's rules
// on ORDER BY, frames and IGNORE NULLS checked, and its parts bound over the
// input row (a plain query) or the grouped row (with aggregates, which the
// windows see the results of). Each call becomes a BoundWindow, and in the
// expression a kWindowResult slot.

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "sql/binder_internal.h"
#include "sql/functions.h"
#include "sql/parser.h"

namespace lbt::sql::internal {

namespace {

std::string KindList(const std::vector<TypePtr>& types) {
  std::string list;
  for (size_t i = 0; i < types.size(); ++i) list += (i ? ", " : "") + types[i]->ToString();
  return list.empty() ? "(none)" : list;
}

// Whether `e` reads no column: a literal, a parameter, or a function of them.
bool IsConstant(const Expr& e) {
  if (e.kind == ExprKind::kColumn || e.kind == ExprKind::kSlot || e.kind == ExprKind::kWindowResult ||
      e.kind == ExprKind::kStar) {
    return false;
  }
  for (const ExprPtr& a : e.args) {
    if (!IsConstant(*a)) return false;
  }
  return true;
}

int BoundRank(FrameBound::Kind k) { return static_cast<int>(k); }

}  // namespace

bool Binder::ContainsWindow(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.window != nullptr) return true;
  for (const ExprPtr& a : e.args) {
    if (ContainsWindow(*a)) return true;
  }
  return false;
}

Status Binder::ExtractWindows(ExprPtr& e) {
  if (e->kind == ExprKind::kCall && e->window != nullptr) {
    LBT_ASSIGN_OR_RETURN(e, BindWindowCall(*e, /*grouped=*/false));
    return Status::OK();
  }
  for (ExprPtr& a : e->args) LBT_RETURN_IF_ERROR(ExtractWindows(a));
  return Status::OK();
}

Result<Binder::ResolvedWindow> Binder::ResolveWindow(const WindowSpec& spec, int depth) {
  ResolvedWindow w;
  const auto& windows = q_->select_ast->windows;
  for (size_t i = 0; depth == 0 && i < windows.size(); ++i) {
    for (size_t k = 0; k < i; ++k) {
      if (Upper(windows[k].first) == Upper(windows[i].first)) {
        return Status::InvalidArgument(
            fmt::format("Duplicate window alias {} {}", windows[i].first, Location(sql_, windows[i].second->pos)));
      }
    }
  }
  if (!spec.base.empty()) {
    const WindowSpec* base = nullptr;
    for (const auto& [name, named] : q_->select_ast->windows) {
      if (named.get() == &spec) break;  // a window names only those defined before it
      if (Upper(name) == Upper(spec.base)) base = named.get();
    }
    if (base == nullptr || depth > static_cast<int>(q_->select_ast->windows.size())) {
      return Status::InvalidArgument(
          fmt::format("Unrecognized window alias {} {}", spec.base, Location(sql_, spec.pos)));
    }
    LBT_ASSIGN_OR_RETURN(w, ResolveWindow(*base, depth + 1));
    if (!spec.partition_by.empty()) {
      return Status::InvalidArgument(fmt::format("A window that names window {} cannot have its own PARTITION BY {}",
                                                 spec.base, Location(sql_, spec.pos)));
    }
    if (!spec.order_by.empty() && !w.order_by.empty()) {
      return Status::InvalidArgument(
          fmt::format("Window {} has an ORDER BY already; a window naming it cannot "
                      "have another {}",
                      spec.base, Location(sql_, spec.pos)));
    }
    if (spec.frame && w.frame) {
      return Status::InvalidArgument(
          fmt::format("Window {} has a frame already; a window naming it cannot have another {}", spec.base,
                      Location(sql_, spec.pos)));
    }
  }
  for (const ExprPtr& p : spec.partition_by) w.partition_by.push_back(p.get());
  for (const OrderItem& o : spec.order_by) w.order_by.push_back(&o);
  if (spec.frame) w.frame = spec.frame.get();
  return w;
}

Result<ExprPtr> Binder::BindWindowPart(const Expr& parsed, bool grouped, const char* clause) {
  if (ContainsWindow(parsed)) return Error(parsed, fmt::format("Analytic function not allowed in {}", clause));
  if (grouped) return Regroup(parsed, clause);
  ExprPtr bound = parsed.Clone();
  LBT_RETURN_IF_ERROR(BindInput(bound.get(), clause));
  return bound;
}

Result<ExprPtr> Binder::BindWindowCall(const Expr& parsed, bool grouped) {
  const std::string text = Unparse(parsed);
  for (size_t i = 0; i < window_texts_.size(); ++i) {
    if (window_texts_[i] == text) return WindowSlot(static_cast<int>(i), q_->windows[i].type, parsed.pos);
  }
  BoundWindow w;
  w.text = text;
  w.function = FindWindowFunction(parsed.name);
  const AggregateFunction* aggregate = w.function == nullptr ? FindAggregate(parsed.name) : nullptr;
  if (w.function == nullptr && aggregate == nullptr) {
    if (FindFunction(parsed.name) == nullptr) return Error(parsed, fmt::format("Function not found: {}", parsed.name));
    return Error(parsed, fmt::format("Function {} does not support an OVER clause", parsed.name));
  }
  LBT_ASSIGN_OR_RETURN(ResolvedWindow spec, ResolveWindow(*parsed.window, 0));
  if (w.function != nullptr) {
    LBT_RETURN_IF_ERROR(BindWindowFunctionArgs(parsed, grouped, &w));
  } else {
    LBT_RETURN_IF_ERROR(BindWindowAggregate(parsed, aggregate, grouped, spec, &w));
  }
  for (const Expr* p : spec.partition_by) {
    LBT_ASSIGN_OR_RETURN(ExprPtr e, BindWindowPart(*p, grouped, "PARTITION BY"));
    if (!e->type->IsOrderable() && e->type->kind != TypeKind::kArray) {
      return Error(*p, fmt::format("Partitioning by expressions of type {} is not allowed", e->type->ToString()));
    }
    w.partition_by.push_back(e.get());
    q_->owned.push_back(std::move(e));
  }
  for (const OrderItem* o : spec.order_by) {
    LBT_ASSIGN_OR_RETURN(ExprPtr e, BindWindowPart(*o->expr, grouped, "window ORDER BY"));
    if (!e->type->IsOrderable()) {
      return Error(*o->expr, fmt::format("ORDER BY does not support expressions of type {}", e->type->ToString()));
    }
    w.order_by.push_back(BoundOrder{e.get(), o->descending, o->nulls_first.value_or(!o->descending)});
    q_->owned.push_back(std::move(e));
  }
  LBT_RETURN_IF_ERROR(CheckWindowOrder(parsed, w));
  LBT_RETURN_IF_ERROR(BindFrame(parsed, spec.frame, &w));
  const TypePtr type = w.type;
  q_->windows.push_back(std::move(w));
  window_texts_.push_back(text);
  return WindowSlot(static_cast<int>(q_->windows.size() - 1), type, parsed.pos);
}

Status Binder::BindWindowFunctionArgs(const Expr& parsed, bool grouped, BoundWindow* w) {
  const WindowFunction& f = *w->function;
  if (parsed.distinct) return Error(parsed, fmt::format("Window function {} does not support DISTINCT", f.name));
  if (parsed.nulls != NullsMode::kDefault && !f.nulls) {
    return Error(parsed, fmt::format("IGNORE NULLS and RESPECT NULLS are not allowed for window function {}", f.name));
  }
  w->ignore_nulls = parsed.nulls == NullsMode::kIgnore || (parsed.nulls == NullsMode::kDefault && f.ignores_nulls);
  std::vector<ExprPtr> args;
  for (const ExprPtr& a : parsed.args) {
    if (a->kind == ExprKind::kStar) return Error(*a, "* is allowed only in COUNT(*)");
    LBT_ASSIGN_OR_RETURN(ExprPtr e, BindWindowPart(*a, grouped, "window function argument"));
    args.push_back(std::move(e));
  }
  // LAG(x, 1, NULL) and LEAD(f, 1, 'none'): the default takes the value's type.
  if (args.size() == 3) Coerce(args[2].get(), args[0]->type);
  std::vector<TypePtr> types;
  for (const ExprPtr& a : args) types.push_back(a->type);
  Result<TypePtr> type = f.check(types);
  if (!type.ok()) {
    return Error(parsed, fmt::format("No matching signature for window function {} for argument types: {}", f.name,
                                     KindList(types)));
  }
  w->type = *type;
  for (size_t k : f.constant_args) {
    if (k < args.size() && !IsConstant(*args[k])) {
      return Error(*parsed.args[k], fmt::format("Argument {} of {} must be a constant", k + 1, f.name));
    }
  }
  for (ExprPtr& a : args) {
    w->args.push_back(a.get());
    q_->owned.push_back(std::move(a));
  }
  return Status::OK();
}

Status Binder::BindWindowAggregate(const Expr& parsed, const AggregateFunction* aggregate, bool grouped,
                                   const ResolvedWindow& spec, BoundWindow* w) {
  if (parsed.nulls != NullsMode::kDefault) {
    return Error(parsed, fmt::format("IGNORE NULLS and RESPECT NULLS are not allowed for aggregate function {}",
                                     aggregate->name));
  }
  if (parsed.distinct && (!spec.order_by.empty() || spec.frame != nullptr)) {
    return Error(parsed, fmt::format("{}(DISTINCT ...) as a window function takes no ORDER BY or frame in its window",
                                     aggregate->name));
  }
  BoundAggregate& agg = w->aggregate;
  agg.function = aggregate;
  agg.distinct = parsed.distinct;
  for (const ExprPtr& a : parsed.args) {
    if (a->kind == ExprKind::kStar) {
      if (parsed.name != "COUNT") return Error(*a, "* is allowed only in COUNT(*)");
      continue;
    }
    if (ContainsAggregate(*a) && !grouped) return Error(*a, "Aggregate functions cannot be nested");
    LBT_ASSIGN_OR_RETURN(ExprPtr e, BindWindowPart(*a, grouped, "window function argument"));
    agg.arg_types.push_back(e->type);
    agg.args.push_back(e.get());
    q_->owned.push_back(std::move(e));
  }
  if (parsed.name == "COUNT" && parsed.args.size() == 1 && parsed.args[0]->kind == ExprKind::kStar) {
    agg.type = Type::Int64();
  } else {
    Result<TypePtr> type = aggregate->check(agg.arg_types);
    if (!type.ok()) {
      return Error(parsed, fmt::format("No matching signature for aggregate function {} for argument types: {}",
                                       parsed.name, KindList(agg.arg_types)));
    }
    agg.type = *type;
  }
  w->type = agg.type;
  return Status::OK();
}

Status Binder::CheckWindowOrder(const Expr& parsed, const BoundWindow& w) {
  if (w.function == nullptr) return Status::OK();
  if (w.function->order == WindowFunction::Order::kRequired && w.order_by.empty()) {
    return Error(parsed, fmt::format("Window ORDER BY is required for analytic function {}", w.function->name));
  }
  if (w.function->order == WindowFunction::Order::kNotAllowed && !w.order_by.empty()) {
    return Error(parsed, fmt::format("Window ORDER BY is not allowed for analytic function {}", w.function->name));
  }
  return Status::OK();
}

Status Binder::BindFrame(const Expr& parsed, const WindowFrame* frame, BoundWindow* w) {
  using Kind = FrameBound::Kind;
  const bool takes_frame = w->function == nullptr || w->function->frame;
  BoundFrame& f = w->frame;
  if (frame == nullptr) {
    // Without a frame: the whole partition, or with ORDER BY everything up
    // to the row's last peer.
    f.rows = false;
    f.start = Kind::kUnboundedPreceding;
    f.end = w->order_by.empty() || !takes_frame ? Kind::kUnboundedFollowing : Kind::kCurrentRow;
    return Status::OK();
  }
  const std::string name = w->function != nullptr ? w->function->name : w->aggregate.function->name;
  if (!takes_frame) {
    return Error(parsed, fmt::format("Window framing clause is not allowed for analytic function {}", name));
  }
  f.rows = frame->rows;
  f.start = frame->start.kind;
  f.end = frame->end.kind;
  const std::string at = Location(sql_, frame->pos);
  if (f.start == Kind::kUnboundedFollowing) {
    return Status::InvalidArgument("A window frame cannot start at UNBOUNDED FOLLOWING " + at);
  }
  if (f.end == Kind::kUnboundedPreceding) {
    return Status::InvalidArgument("A window frame cannot end at UNBOUNDED PRECEDING " + at);
  }
  if (BoundRank(f.start) > BoundRank(f.end)) {
    return Status::InvalidArgument("A window frame cannot start after its end " + at);
  }
  const bool offsets = f.start == Kind::kPreceding || f.start == Kind::kFollowing || f.end == Kind::kPreceding ||
                       f.end == Kind::kFollowing;
  if (!f.rows && offsets && (w->order_by.size() != 1 || !w->order_by[0].expr->type->IsNumeric())) {
    return Status::InvalidArgument(
        "A RANGE frame with an offset needs exactly one window ORDER BY expression, of a numeric type " + at);
  }
  LBT_ASSIGN_OR_RETURN(f.start_offset, FrameOffset(frame->start, f.rows, *w));
  LBT_ASSIGN_OR_RETURN(f.end_offset, FrameOffset(frame->end, f.rows, *w));
  return Status::OK();
}

Result<Value> Binder::FrameOffset(const FrameBound& bound, bool rows, const BoundWindow& w) {
  if (bound.offset == nullptr) return Value::Null(Type::Int64());
  ExprPtr e = bound.offset->Clone();
  LBT_RETURN_IF_ERROR(BindInput(e.get(), "window frame"));
  std::optional<Value> v = IsConstant(*e) && e->kind != ExprKind::kParameter ? constants_.Constant(*e) : std::nullopt;
  const bool number = v && !v->is_null() && (rows ? v->kind() == TypeKind::kInt64 : v->type()->IsNumeric());
  if (!number || v->AsDouble() < 0 || std::isnan(v->AsDouble())) {
    return Error(*bound.offset,
                 fmt::format("A window frame's offset must be a non-negative constant {}", rows ? "INT64" : "number"));
  }
  // A RANGE offset is compared with the ORDER BY key: as a FLOAT64 when
  // either is one.
  if (!rows && (v->kind() != TypeKind::kInt64 || w.order_by[0].expr->type->kind != TypeKind::kInt64)) {
    return Value::Float64(v->AsDouble());
  }
  return *v;
}

ExprPtr Binder::WindowSlot(int index, TypePtr type, size_t pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kWindowResult;
  e->slot = index;
  e->type = std::move(type);
  e->pos = pos;
  return e;
}

}  // namespace lbt::sql::internal
