// Streaming reads: row sets, direction, limits, column selection, stats,
// snapshots, and long keys, checked against a brute-force model.

#include "storage/rows/row_reader.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "api/limits.h"
#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::RandomBytes;
using testing::ReadAll;
using testing::RowKeys;
using testing::TempDir;
using Keys = std::vector<std::string>;

class RowReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    ASSERT_OK(db_->CreateTable("t", {{"a", {}, ValueType::kBytes}, {"b", {}, ValueType::kBytes}}));
  }

  void Put(const std::string& row, const std::string& family = "a", const std::string& q = "q",
           const std::string& value = "v", int64_t ts = Ms(1)) {
    ASSERT_OK(db_->MutateRow("t", row, {Mutation::SetCell(family, q, value, ts)}));
  }

  Keys Read(RowSet rows, bool reversed = false, int64_t limit = 0) {
    ReadOptions options;
    options.rows = std::move(rows);
    options.reversed = reversed;
    options.rows_limit = limit;
    return RowKeys(ReadAll(db_.get(), "t", options));
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(RowReaderTest, RangesPrefixesAndKeys) {
  for (const char* k : {"a", "ab", "abc", "b", "ba", "c"}) Put(k);
  EXPECT_EQ(Read({}), (Keys{"a", "ab", "abc", "b", "ba", "c"}));
  EXPECT_EQ(Read({{}, {RowRange::Prefix("ab")}}), (Keys{"ab", "abc"}));
  EXPECT_EQ(Read({{}, {RowRange::ClosedOpen("ab", "b")}}), (Keys{"ab", "abc"}));
  EXPECT_EQ(Read({{}, {RowRange::Closed("ab", "b")}}), (Keys{"ab", "abc", "b"}));
  EXPECT_EQ(Read({{}, {RowRange{RowBound::Open("ab"), RowBound::Open("ba")}}}), (Keys{"abc", "b"}));
  EXPECT_EQ(Read({{}, {RowRange{RowBound::Open("b"), RowBound::Unbounded()}}}), (Keys{"ba", "c"}));
  EXPECT_EQ(Read({{"c", "a", "zz"}, {}}), (Keys{"a", "c"}));
  // Overlapping ranges and keys yield each row once, in order.
  EXPECT_EQ(Read({{"b", "abc"}, {RowRange::Prefix("a"), RowRange::Closed("ab", "b")}}), (Keys{"a", "ab", "abc", "b"}));
  // An inverted range is refused, as Bigtable refuses it.
  ReadOptions inverted;
  inverted.rows.row_ranges = {RowRange::Closed("c", "a")};
  EXPECT_TRUE(db_->NewReader("t", inverted).status().IsInvalidArgument());
}

TEST_F(RowReaderTest, ReversedAndLimited) {
  for (const char* k : {"a", "ab", "abc", "b", "ba", "c"}) Put(k);
  EXPECT_EQ(Read({}, true), (Keys{"c", "ba", "b", "abc", "ab", "a"}));
  EXPECT_EQ(Read({{}, {RowRange::Prefix("a")}}, true), (Keys{"abc", "ab", "a"}));
  EXPECT_EQ(Read({{"a", "c"}, {RowRange::Prefix("b")}}, true), (Keys{"c", "ba", "b", "a"}));
  EXPECT_EQ(Read({}, false, 2), (Keys{"a", "ab"}));
  EXPECT_EQ(Read({}, true, 2), (Keys{"c", "ba"}));
}

TEST_F(RowReaderTest, ReversedRowsKeepTheirCellOrder) {
  Put("r", "a", "x", "1", Ms(1));
  Put("r", "a", "x", "2", Ms(2));
  Put("r", "b", "y", "3", Ms(1));
  ReadOptions options;
  options.reversed = true;
  auto rows = ReadAll(db_.get(), "t", options);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].cells.size(), 3u);
  EXPECT_EQ(rows[0].cells[0].value, "2");
  EXPECT_EQ(rows[0].cells[1].value, "1");
  EXPECT_EQ(rows[0].cells[2].value, "3");
}

TEST_F(RowReaderTest, ColumnsAndCellsPerColumn) {
  for (int ms = 1; ms <= 3; ++ms) {
    Put("r", "a", "x", "ax" + std::to_string(ms), Ms(ms));
    Put("r", "a", "y", "ay" + std::to_string(ms), Ms(ms));
    Put("r", "b", "x", "bx" + std::to_string(ms), Ms(ms));
  }
  Put("only-b", "b", "z");
  auto values = [&](ReadOptions options) {
    Keys out;
    for (const Row& row : ReadAll(db_.get(), "t", options)) {
      for (const Cell& c : row.cells) out.push_back(row.key + ":" + c.value);
    }
    return out;
  };
  ReadOptions o;
  o.columns = {{"a", "x"}};
  EXPECT_EQ(values(o), (Keys{"r:ax3", "r:ax2", "r:ax1"}));
  o.cells_per_column_limit = 1;
  o.columns = {{"a", std::nullopt}};
  EXPECT_EQ(values(o), (Keys{"r:ax3", "r:ay3"}));
  o.columns = {{"a", "y"}, {"b", std::nullopt}};
  EXPECT_EQ(values(o), (Keys{"only-b:v", "r:ay3", "r:bx3"}));
  o.columns = {{"nope", std::nullopt}};
  EXPECT_TRUE(db_->NewReader("t", o).status().IsNotFound());
}

TEST_F(RowReaderTest, StatsCountWhatWasSeenAndReturned) {
  Put("r1", "a");
  Put("r1", "b");
  Put("r2", "b");
  ReadOptions o;
  o.columns = {{"a", std::nullopt}};
  auto reader = db_->NewReader("t", o);
  ASSERT_TRUE(reader.ok());
  auto rows = testing::Drain(reader->get());
  EXPECT_EQ(rows.size(), 1u);
  const ReadStats& s = (*reader)->stats();
  EXPECT_EQ(s.rows_seen, 2);
  EXPECT_EQ(s.cells_seen, 3);
  EXPECT_EQ(s.rows_returned, 1);
  EXPECT_EQ(s.cells_returned, 1);
}

TEST_F(RowReaderTest, AReaderSeesASnapshot) {
  Put("a");
  Put("c");
  auto reader = db_->NewReader("t", {});
  ASSERT_TRUE(reader.ok());
  Row row;
  ASSERT_TRUE((*reader)->Next(&row));
  EXPECT_EQ(row.key, "a");
  Put("b");
  ASSERT_OK(db_->MutateRow("t", "c", {Mutation::DeleteFromRow()}));
  ASSERT_TRUE((*reader)->Next(&row));
  EXPECT_EQ(row.key, "c");
  EXPECT_FALSE((*reader)->Next(&row));
  EXPECT_OK((*reader)->status());
  EXPECT_EQ(Read({}), (Keys{"a", "b"}));
}

TEST_F(RowReaderTest, MissingTableIsAnError) {
  EXPECT_TRUE(db_->NewReader("nope", {}).status().IsNotFound());
  ASSERT_OK_AND_ASSIGN(auto row, db_->ReadRow("t", "absent"));
  EXPECT_FALSE(row.has_value());
}

TEST_F(RowReaderTest, LongKeysSharingLongPrefixesSortExactly) {
  std::mt19937_64 rng(99);
  const std::string shared = RandomBytes(rng, 3000, 3000);
  std::set<std::string> keys;
  while (keys.size() < 300) {
    std::string k = shared.substr(0, 2000 + rng() % 1000) + RandomBytes(rng, 40);
    k.resize(std::min(k.size(), kMaxRowKeyBytes));
    if (!k.empty()) keys.insert(k);
  }
  keys.insert(std::string(kMaxRowKeyBytes, '\xff'));
  keys.insert(std::string(kMaxRowKeyBytes, '\0'));
  std::vector<RowMutation> batch;
  for (const std::string& k : keys) {
    batch.push_back({k, {Mutation::SetCell("a", std::string(kMaxQualifierBytes, 'q'), k.substr(0, 8), Ms(1))}});
  }
  ASSERT_OK(testing::WriteRows(db_.get(), "t", batch));
  Keys expected(keys.begin(), keys.end());
  EXPECT_EQ(Read({}), expected);
  Keys reversed(expected.rbegin(), expected.rend());
  EXPECT_EQ(Read({}, true), reversed);
  // A prefix read inside the long shared prefix.
  std::string prefix = shared.substr(0, 2500);
  Keys with_prefix;
  for (const std::string& k : keys) {
    if (k.compare(0, prefix.size(), prefix) == 0) with_prefix.push_back(k);
  }
  EXPECT_EQ(Read({{}, {RowRange::Prefix(prefix)}}), with_prefix);
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t", RowRange::Prefix(prefix)));
  EXPECT_EQ(n, static_cast<int64_t>(with_prefix.size()));
  // Every row is found by a point lookup with its full cell.
  for (const std::string& k : keys) {
    ASSERT_OK_AND_ASSIGN(auto row, db_->ReadRow("t", k));
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->cells.at(0).qualifier.size(), kMaxQualifierBytes);
  }
}

// Random binary rows and random row sets, compared with a std::map model.
TEST_F(RowReaderTest, RandomReadsMatchAModel) {
  std::mt19937_64 rng(2024);
  std::map<std::string, int> model;
  std::vector<RowMutation> batch;
  for (int i = 0; i < 400; ++i) {
    std::string key = RandomBytes(rng, 5, 1);
    if (i % 40 == 0) key = std::string(600 + rng() % 600, '\xff') + key;  // long keys too
    model[key] = 0;
    batch.push_back({key, {Mutation::SetCell("a", "q", "v", Ms(1))}});
  }
  ASSERT_OK(testing::WriteRows(db_.get(), "t", batch));

  auto random_bound = [&] {
    switch (rng() % 3) {
      case 0: return RowBound::Unbounded();
      case 1: return RowBound::Closed(RandomBytes(rng, 3));
      default: return RowBound::Open(RandomBytes(rng, 3));
    }
  };
  for (int iter = 0; iter < 300; ++iter) {
    RowSet set;
    for (int k = rng() % 3; k > 0; --k) {
      std::string key = rng() % 2 ? RandomBytes(rng, 3, 1) : std::next(model.begin(), rng() % model.size())->first;
      set.row_keys.push_back(key);
    }
    for (int r = rng() % 3; r > 0; --r) {
      if (rng() % 3 == 0) {
        set.row_ranges.push_back(RowRange::Prefix(RandomBytes(rng, 2)));
      } else {
        RowRange range{random_bound(), random_bound()};
        if (range.IsInverted()) std::swap(range.start, range.end);  // refused; RangesPrefixesAndKeys covers it
        if (range.IsInverted()) range.end = RowBound::Unbounded();
        set.row_ranges.push_back(std::move(range));
      }
    }
    Keys expected;
    for (const auto& [key, unused] : model) {
      bool in = set.IsAll();
      for (const std::string& k : set.row_keys) in = in || k == key;
      for (const RowRange& r : set.row_ranges) in = in || r.Contains(key);
      if (in) expected.push_back(key);
    }
    bool reversed = rng() % 2;
    int64_t limit = rng() % 4 == 0 ? 1 + rng() % 5 : 0;
    if (reversed) std::reverse(expected.begin(), expected.end());
    if (limit > 0 && static_cast<int64_t>(expected.size()) > limit) expected.resize(limit);
    ASSERT_EQ(Read(set, reversed, limit), expected) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace lbt
