// InterruptibleBigtable: a Bigtable whose reads stop at the process's
// interrupt flag (interrupt.h). Commands check the flag between the rows
// they print; a read that prints nothing until it ends (an aggregate, a
// count, a filter skipping most rows) would not stop until then. Through
// this, every read a session's command makes asks the flag between rows
// and ends with Cancelled once it is raised, as Ctrl-C in the shell and
// Stop in lbt studio expect.
//
// Reads that run elsewhere (a service's own SQL engine) stop only between
// the rows they return.

#ifndef LBT_COMMANDS_CORE_INTERRUPTIBLE_BIGTABLE_H_
#define LBT_COMMANDS_CORE_INTERRUPTIBLE_BIGTABLE_H_

#include <memory>
#include <utility>

#include "api/forwarding_bigtable.h"
#include "api/forwarding_table.h"
#include "commands/core/interrupt.h"

namespace lbt {

class InterruptibleBigtable final : public ForwardingBigtable {
 public:
  explicit InterruptibleBigtable(Bigtable* target) : ForwardingBigtable(target) {}

  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ForwardingBigtable::OpenTable(ref));
    return std::unique_ptr<Table>(std::make_unique<InterruptibleTable>(std::move(table)));
  }

 private:
  class InterruptibleTable final : public ForwardingTable {
   public:
    using ForwardingTable::ForwardingTable;
    Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
      // The store asks `interrupted` while its filter skips rows; the
      // stream below asks between the rows it returns.
      ReadRequest interruptible = request;
      interruptible.interrupted = [own = request.interrupted] { return InterruptRequested() || (own && own()); };
      LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, target()->ReadRows(interruptible));
      return std::unique_ptr<RowStream>(std::make_unique<InterruptibleStream>(std::move(rows)));
    }
  };

  class InterruptibleStream final : public RowStream {
   public:
    explicit InterruptibleStream(std::unique_ptr<RowStream> rows) : rows_(std::move(rows)) {}
    bool Next(Row* row) override {
      if (!cancelled_.ok()) return false;
      if (InterruptRequested()) {
        cancelled_ = Status::Cancelled("the read was interrupted");
        return false;
      }
      return rows_->Next(row);
    }
    Status status() const override { return cancelled_.ok() ? rows_->status() : cancelled_; }
    ReadStats stats() const override { return rows_->stats(); }
    std::string FilterPlacement() const override { return rows_->FilterPlacement(); }
    void ReleaseSnapshot() override { rows_->ReleaseSnapshot(); }
    std::string LastScannedKey() const override { return rows_->LastScannedKey(); }

   private:
    std::unique_ptr<RowStream> rows_;
    Status cancelled_;
  };
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_INTERRUPTIBLE_BIGTABLE_H_
