// LIMIT: skips the first OFFSET rows of its input, then hands on at most
// LIMIT rows, and stops pulling from its input once it has.

#ifndef LBT_SQL_OPERATORS_LIMIT_H_
#define LBT_SQL_OPERATORS_LIMIT_H_

#include <memory>
#include <string>

#include "sql/operators/operator.h"

namespace lbt::sql {

class Limit final : public Operator {
 public:
  // `limit` < 0: no limit, only the offset.
  Limit(std::unique_ptr<Operator> input, int64_t limit, int64_t offset)
      : Operator(std::move(input)), limit_(limit), offset_(offset) {}

  const char* name() const override { return "LIMIT"; }
  // "10", "10 OFFSET 5" or "OFFSET 5".
  std::string detail() const override;

 private:
  bool Produce(Values* row) override;

  const int64_t limit_;
  const int64_t offset_;
  int64_t skipped_ = 0;
  int64_t emitted_ = 0;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_LIMIT_H_
