// A local database to build the schema lab's datasets in, shared by the
// lab's tests.

#ifndef LBT_TESTS_LAB_LAB_FIXTURE_H_
#define LBT_TESTS_LAB_LAB_FIXTURE_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab/sample.h"
#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt::lab {

class LabTest : public ::testing::Test {
 protected:
  // Datasets are written row by row; durability is not what is tested.
  static DatabaseOptions NoSync() {
    DatabaseOptions options;
    options.sync = false;
    return options;
  }

  void SetUp() override { bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), NoSync()); }

  void Create(const std::string& table, const std::vector<std::string>& families) {
    std::vector<FamilySpec> specs;
    for (const std::string& f : families) specs.push_back({f, GcRule::Never(), ValueType::kBytes});
    ASSERT_OK(bigtable_->CreateTable(table, specs, {}, false));
  }

  void Put(const std::string& table, const std::string& row, const std::string& family, const std::string& qualifier,
           const std::string& value, int64_t micros) {
    ASSERT_OK(bigtable_->MutateRow(table, row, {Mutation::SetCell(family, qualifier, value, micros)}));
  }

  TableSample Sample(const std::string& table, SampleOptions options = {}) {
    Result<TableSample> sample = SampleTable(bigtable_.get(), table, options);
    EXPECT_TRUE(sample.ok()) << sample.status().ToString();
    return sample.ok() ? std::move(*sample) : TableSample{};
  }

  // A time series of `rows` readings, one a minute from 2023-11-14,
  // spread over 100 hosts, keyed by `key(host, millis)`.
  template <typename KeyFn>
  void TimeSeries(const std::string& table, int rows, KeyFn key) {
    Create(table, {"m"});
    constexpr int64_t kStartMillis = 1700000000000;
    std::vector<RowMutation> batch;
    for (int i = 0; i < rows; ++i) {
      const int64_t millis = kStartMillis + int64_t{i} * 60000;
      char host[16];
      snprintf(host, sizeof host, "host%04d", i % 100);
      batch.push_back(
          {key(std::string(host), millis), {Mutation::SetCell("m", "cpu", std::to_string(i % 97), millis * 1000)}});
    }
    Result<std::vector<Status>> statuses = bigtable_->MutateRows(table, batch);
    ASSERT_TRUE(statuses.ok()) << statuses.status().ToString();
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
};

inline std::string TimeFirst(const std::string& host, int64_t millis) { return std::to_string(millis) + "#" + host; }
inline std::string HostFirst(const std::string& host, int64_t millis) { return host + "#" + std::to_string(millis); }

}  // namespace lbt::lab

#endif  // LBT_TESTS_LAB_LAB_FIXTURE_H_
