#include "remote/filter_plan.h"

#include <gtest/gtest.h>

namespace lbt {
namespace {

using Kind = Filter::Kind;

TEST(FilterPlanTest, NoFilterSendsNothing) {
  FilterPlan plan = PlanFilter(ReadRequest{});
  EXPECT_FALSE(plan.service);
  EXPECT_FALSE(plan.client);
  EXPECT_EQ(plan.placement, "");
}

TEST(FilterPlanTest, ABigtableFilterRunsOnTheServiceWhole) {
  ReadRequest request;
  request.filter = Filter::Chain({Filter::FamilyNameRegex("cf"), Filter::CellsPerColumnLimit(1)});
  FilterPlan plan = PlanFilter(request);
  ASSERT_TRUE(plan.service);
  EXPECT_EQ(plan.service->kind, Kind::kChain);
  EXPECT_FALSE(plan.client);
  EXPECT_EQ(plan.placement, "service");
}

TEST(FilterPlanTest, ColumnsAndVersionLimitRunFirstOnTheService) {
  ReadRequest request;
  request.columns = {{"cf", std::string("a.b")}, {"meta", std::nullopt}};
  request.cells_per_column_limit = 2;
  FilterPlan plan = PlanFilter(request);
  ASSERT_TRUE(plan.service);
  ASSERT_EQ(plan.service->kind, Kind::kChain);
  ASSERT_EQ(plan.service->children.size(), 2u);
  const Filter& columns = plan.service->children[0];
  ASSERT_EQ(columns.kind, Kind::kInterleave);
  EXPECT_EQ(columns.children[0].kind, Kind::kColumnRange);  // an exact qualifier, no regex
  EXPECT_EQ(columns.children[0].low.value, "a.b");
  EXPECT_EQ(columns.children[1].kind, Kind::kFamilyNameRegex);
  EXPECT_EQ(columns.children[1].pattern, "meta");
  EXPECT_EQ(plan.service->children[1].kind, Kind::kCellsPerColumnLimit);
}

TEST(FilterPlanTest, AChainSplitsAfterItsLastLeadingBigtableFilter) {
  ReadRequest request;
  request.filter = Filter::Chain({Filter::RowKeyRegex("user.*"), Filter::Page(3), Filter::StripValue()});
  FilterPlan plan = PlanFilter(request);
  ASSERT_TRUE(plan.service);
  EXPECT_EQ(plan.service->kind, Kind::kRowKeyRegex);
  ASSERT_TRUE(plan.client);
  ASSERT_EQ(plan.client->kind, Kind::kChain);
  EXPECT_EQ(plan.client->children[0].kind, Kind::kPage);
  EXPECT_EQ(plan.client->children[1].kind, Kind::kStripValue);  // after the page: on the client too
  EXPECT_EQ(plan.placement, "service, then client (from PageFilter on)");
}

TEST(FilterPlanTest, AnHBaseFilterInsideAnInterleaveRunsWholeOnTheClient) {
  ReadRequest request;
  request.filter = Filter::Interleave({Filter::ValueRegex("x"), Filter::While(Filter::ValueRegex("y"))});
  FilterPlan plan = PlanFilter(request);
  EXPECT_FALSE(plan.service);
  ASSERT_TRUE(plan.client);
  EXPECT_EQ(plan.client->kind, Kind::kInterleave);
  EXPECT_EQ(plan.placement, "client (from WHILE on)");
}

TEST(FilterPlanTest, ServiceCanRunLooksIntoConditions) {
  Filter inner = Filter::Condition(Filter::ValueRegex("a"), Filter::Page(1), std::nullopt);
  EXPECT_FALSE(ServiceCanRun(inner));
  EXPECT_TRUE(ServiceCanRun(Filter::Condition(Filter::ValueRegex("a"), Filter::StripValue(), Filter::BlockAll())));
}

}  // namespace
}  // namespace lbt
