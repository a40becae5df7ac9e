#include "server/fault_file.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace lbt::server {

namespace {

// The file's modification time and size, or "" when it cannot be read.
std::string StampOf(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  return fmt::format("{}.{}:{}", st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_size);
}

}  // namespace

Result<std::unique_ptr<FaultFile>> FaultFile::Watch(std::string path, FaultInjector* faults) {
  std::unique_ptr<FaultFile> file(new FaultFile(std::move(path), faults));
  LBT_RETURN_IF_ERROR(file->Load());
  FaultFile* watched = file.get();
  file->watcher_ = std::thread([watched] {
    std::unique_lock<std::mutex> lock(watched->mu_);
    while (
        !watched->stop_changed_.wait_for(lock, std::chrono::milliseconds(250), [watched] { return watched->stop_; })) {
      lock.unlock();
      watched->Poll();
      lock.lock();
    }
  });
  return file;
}

FaultFile::~FaultFile() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_changed_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

Status FaultFile::Load() {
  const std::string stamp = StampOf(path_);
  std::ifstream in(path_);
  if (stamp.empty() || !in) return Status::InvalidArgument(fmt::format("--faults {}: cannot read the file", path_));
  std::stringstream text;
  text << in.rdbuf();
  stamp_ = stamp;  // read, good or bad: a bad file is not re-read until it changes
  Result<std::vector<FaultRule>> rules = ParseFaultRules(text.str());
  if (!rules.ok()) return Status::InvalidArgument(fmt::format("--faults {}: {}", path_, rules.status().message()));
  const size_t count = rules->size();
  faults_->Replace(std::move(rules).value());
  std::fputs(fmt::format("lbt serve: {} fault rule{} from {}\n", count, count == 1 ? "" : "s", path_).c_str(), stderr);
  return Status::OK();
}

void FaultFile::Poll() {
  const std::string stamp = StampOf(path_);
  if (stamp.empty() || stamp == stamp_) return;
  if (Status loaded = Load(); !loaded.ok()) {
    std::fputs(fmt::format("lbt serve: {}; keeping the rules in force\n", loaded.message()).c_str(), stderr);
  }
}

}  // namespace lbt::server
