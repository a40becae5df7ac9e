// How a read's filter is shared between a remote Bigtable and the client.
//
// Bigtable's RowFilter cannot express the HBase filter language's
// extensions (PageFilter, WHILE, SKIP, SingleColumnValueFilter's
// missing-column rules, substring and regex comparators, column counts and
// pages, ...). As Google's HBase adapter does, the client sends the service
// what it can express and runs the rest over the rows it receives:
//
//   - the request's columns and cells-per-column limit become filters that
//     run first, on the service;
//   - a filter Bigtable can express runs on the service whole;
//   - of a chain, the longest leading run of expressible filters runs on
//     the service and the rest on the client (a chain applies its filters
//     in turn, so the split keeps its meaning);
//   - any other filter runs on the client, over whole rows.
//
// When part of the filter runs on the client, so does the row limit: the
// service cannot know which rows the client will drop.

#ifndef LBT_REMOTE_FILTER_PLAN_H_
#define LBT_REMOTE_FILTER_PLAN_H_

#include <optional>
#include <string>

#include "api/bigtable.h"
#include "api/filter.h"

namespace lbt {

struct FilterPlan {
  std::optional<Filter> service;  // sent with the request
  std::optional<Filter> client;   // run over the stream
  // For include-stats=full: "service", "client (from PageFilter on)" or
  // "service, then client (from ... on)"; "" without a filter.
  std::string placement;
};

FilterPlan PlanFilter(const ReadRequest& request);

// True if Bigtable's RowFilter can express `filter`, all of it.
bool ServiceCanRun(const Filter& filter);

}  // namespace lbt

#endif  // LBT_REMOTE_FILTER_PLAN_H_
