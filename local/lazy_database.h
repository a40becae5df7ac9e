// LazyDatabase (internal to local/): one database directory, opened on
// first use and shared by the LocalBigtable of every instance in it.
//
// Threading: safe from any thread; the open is guarded.

#ifndef LBT_LOCAL_LAZY_DATABASE_H_
#define LBT_LOCAL_LAZY_DATABASE_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "storage/database.h"

namespace lbt {

class LazyDatabase {
 public:
  LazyDatabase(std::string dir, DatabaseOptions options) : dir_(std::move(dir)), options_(std::move(options)) {}
  // One opened already, with the options it was opened with.
  LazyDatabase(std::unique_ptr<Database> opened, DatabaseOptions options)
      : dir_(opened->dir()), options_(std::move(options)), owned_(std::move(opened)), open_(owned_.get()) {}
  // One opened already and owned by the caller, which must outlive this.
  LazyDatabase(Database* borrowed, DatabaseOptions options)
      : dir_(borrowed->dir()), options_(std::move(options)), open_(borrowed) {}
  // With sync off, the one flush at the end.
  ~LazyDatabase() {
    if (owned_ != nullptr) owned_->Flush();
  }

  const std::string& dir() const { return dir_; }
  const DatabaseOptions& options() const { return options_; }

  // The database, opened now if need be. If it does not exist yet it is
  // created when `create`; otherwise nullptr is returned.
  Result<Database*> Open(bool create);
  // The database for an operation on the instance's table `table`:
  // created if `write`; for a read where no database exists yet, NotFound
  // for the table. A name with a '/' is no table of any instance.
  Result<Database*> OpenForTable(std::string_view table, bool write);
  // Flushes the database if it is open.
  Status Flush();
  // The database's clock, or the options' clock before it opens.
  int64_t NowMicros() const;

  // What runs before a materialized view of any instance here is read (a
  // server brings its views up to date). Set before the database is shared
  // between threads.
  void set_before_view_read(std::function<void()> hook) { before_view_read_ = std::move(hook); }
  void BeforeViewRead() const {
    if (before_view_read_) before_view_read_();
  }

 private:
  const std::string dir_;
  const DatabaseOptions options_;
  mutable std::mutex mu_;
  std::unique_ptr<Database> owned_;
  Database* open_ = nullptr;  // owned_, or a borrowed one; nullptr until opened
  std::function<void()> before_view_read_;
};

}  // namespace lbt

#endif  // LBT_LOCAL_LAZY_DATABASE_H_
