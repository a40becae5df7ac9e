#include "local/lazy_database.h"

#include <fmt/format.h>

#include <chrono>

namespace lbt {

Result<Database*> LazyDatabase::Open(bool create) {
  std::lock_guard<std::mutex> lock(mu_);
  if (open_ != nullptr) return open_;
  DatabaseOptions options = options_;
  options.create_if_missing = create && !options_.read_only;
  Result<std::unique_ptr<Database>> db = Database::Open(dir_, options);
  if (!db.ok()) {
    if (db.status().IsNotFound() && !options.create_if_missing) return static_cast<Database*>(nullptr);
    return db.status();
  }
  owned_ = std::move(db).value();
  open_ = owned_.get();
  return open_;
}

Status LazyDatabase::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  return open_ == nullptr ? Status::OK() : open_->Flush();
}

int64_t LazyDatabase::NowMicros() const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (open_ != nullptr) return open_->NowMicros();
  }
  if (options_.clock) return options_.clock();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<Database*> LazyDatabase::OpenForTable(std::string_view table, bool write) {
  if (table.find('/') != std::string_view::npos) {
    return Status::NotFound(fmt::format("table '{}' does not exist", table));
  }
  LBT_ASSIGN_OR_RETURN(Database * db, Open(write));
  if (db == nullptr) return Status::NotFound(fmt::format("table '{}' does not exist", table));
  return db;
}

}  // namespace lbt
