// Authorized views through lbt serve's services: the admin RPCs, and every
// data RPC that takes authorized_view_name. Production answers a write
// outside a view with PERMISSION_DENIED (googleapis/java-bigtable's
// MutateRowIT, CheckAndMutateIT and ReadModifyWriteIT, run against
// production); the emulator has no authorized views, so the other answers
// here are worked out from the AuthorizedView messages' documentation.

#include <gtest/gtest.h>

#include <map>

#include "proto/convert.h"
#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

using grpc::StatusCode;

const std::string kView = TableName("t") + "/authorizedViews/v";

// A ReadModifyWriteRow through the view of a row it covers, appending to
// cf:secret, a column it hides.
v2::ReadModifyWriteRowRequest AppendToHiddenCell() {
  v2::ReadModifyWriteRowRequest rmw;
  rmw.set_authorized_view_name(kView);
  rmw.set_row_key("a#1");
  auto* rule = rmw.add_rules();
  rule->set_family_name("cf");
  rule->set_column_qualifier("secret");
  rule->set_append_value("!");
  return rmw;
}

class AuthorizedViewTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    CreateTable("t", {"cf", "other"});
    // Rows a#... are in the view, b#... are not; of cf, the qualifiers
    // starting "pub" and the qualifier "exact"; all of "other".
    ASSERT_TRUE(MutateRow("t", "a#1",
                          {Mutation::SetCell("cf", "pub1", "x", 1000), Mutation::SetCell("cf", "secret", "s", 1000)})
                    .ok());
    ASSERT_TRUE(MutateRow("t", "b#1", {Mutation::SetCell("cf", "pub1", "y", 1000)}).ok());
  }

  grpc::Status Delete(const std::string& table) {
    admin::DeleteTableRequest request;
    request.set_name(TableName(table));
    google::protobuf::Empty response;
    grpc::ClientContext context;
    return admin_->DeleteTable(&context, request, &response);
  }

  admin::AuthorizedView Definition(bool protect = false) {
    admin::AuthorizedView view;
    auto* subset = view.mutable_subset_view();
    subset->add_row_prefixes("a#");
    auto& cf = (*subset->mutable_family_subsets())["cf"];
    cf.add_qualifier_prefixes("pub");
    cf.add_qualifiers("exact");
    (*subset->mutable_family_subsets())["other"].add_qualifier_prefixes("");
    view.set_deletion_protection(protect);
    return view;
  }

  grpc::Status CreateView(const std::string& id, const admin::AuthorizedView& view,
                          google::longrunning::Operation* out = nullptr) {
    admin::CreateAuthorizedViewRequest request;
    request.set_parent(TableName("t"));
    request.set_authorized_view_id(id);
    *request.mutable_authorized_view() = view;
    google::longrunning::Operation operation;
    grpc::ClientContext context;
    grpc::Status s = admin_->CreateAuthorizedView(&context, request, &operation);
    if (out != nullptr) *out = operation;
    return s;
  }

  grpc::Status GetView(admin::AuthorizedView::ResponseView shown, admin::AuthorizedView* out) {
    admin::GetAuthorizedViewRequest request;
    request.set_name(kView);
    request.set_view(shown);
    grpc::ClientContext context;
    return admin_->GetAuthorizedView(&context, request, out);
  }

  grpc::Status MutateThroughView(const std::string& key, std::vector<Mutation> mutations) {
    v2::MutateRowRequest request;
    request.set_authorized_view_name(kView);
    request.set_row_key(key);
    for (const Mutation& m : mutations) *request.add_mutations() = proto::ToProto(m);
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->MutateRow(&context, request, &response);
  }

  ReadResult ReadThroughView(v2::ReadRowsRequest request = {}) {
    request.set_authorized_view_name(kView);
    return Read(std::move(request));
  }
};

// "row:family:qualifier" of each cell, in order.
std::vector<std::string> Cells(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& row : rows) {
    for (const Cell& c : row.cells) out.push_back(row.key + ":" + c.family + ":" + c.qualifier);
  }
  return out;
}

TEST_F(AuthorizedViewTest, CreateGetListUpdateAndDeleteAsTheAdminApiSays) {
  google::longrunning::Operation operation;
  ASSERT_TRUE(CreateView("v", Definition(), &operation).ok());
  EXPECT_TRUE(operation.done());
  admin::CreateAuthorizedViewMetadata metadata;
  ASSERT_TRUE(operation.metadata().UnpackTo(&metadata));
  EXPECT_EQ(metadata.original_request().authorized_view_id(), "v");
  admin::AuthorizedView made;
  ASSERT_TRUE(operation.response().UnpackTo(&made));
  EXPECT_EQ(made.name(), kView);
  EXPECT_EQ(made.subset_view().row_prefixes(0), "a#");

  EXPECT_EQ(CreateView("v", Definition()).error_code(), StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(CreateView("-bad", Definition()).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateView("w", admin::AuthorizedView()).error_code(), StatusCode::INVALID_ARGUMENT) << "no subset";

  // GetAuthorizedView shows BASIC by default: no subset.
  admin::AuthorizedView basic, full;
  ASSERT_TRUE(GetView(admin::AuthorizedView::RESPONSE_VIEW_UNSPECIFIED, &basic).ok());
  EXPECT_FALSE(basic.has_subset_view());
  EXPECT_FALSE(basic.etag().empty());
  ASSERT_TRUE(GetView(admin::AuthorizedView::FULL, &full).ok());
  EXPECT_EQ(full.subset_view().family_subsets().at("cf").qualifiers(0), "exact");

  // ListAuthorizedViews shows NAME_ONLY by default, in pages.
  ASSERT_TRUE(CreateView("w", Definition()).ok());
  std::vector<std::string> listed;
  std::string token;
  do {
    admin::ListAuthorizedViewsRequest request;
    request.set_parent(TableName("t"));
    request.set_page_size(1);
    request.set_page_token(token);
    admin::ListAuthorizedViewsResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->ListAuthorizedViews(&context, request, &response).ok());
    for (const auto& v : response.authorized_views()) {
      EXPECT_TRUE(v.etag().empty()) << "NAME_ONLY";
      listed.push_back(v.name());
    }
    token = response.next_page_token();
  } while (!token.empty());
  EXPECT_EQ(listed, (std::vector<std::string>{kView, TableName("t") + "/authorizedViews/w"}));

  // An update with a stale etag is ABORTED; with the current one it turns
  // protection on, and a protected view (or its table) cannot be deleted.
  admin::UpdateAuthorizedViewRequest update;
  update.mutable_authorized_view()->set_name(kView);
  update.mutable_authorized_view()->set_deletion_protection(true);
  update.mutable_authorized_view()->set_etag("stale");
  update.mutable_update_mask()->add_paths("deletion_protection");
  {
    grpc::ClientContext context;
    EXPECT_EQ(admin_->UpdateAuthorizedView(&context, update, &operation).error_code(), StatusCode::ABORTED);
  }
  update.mutable_authorized_view()->set_etag(basic.etag());
  {
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->UpdateAuthorizedView(&context, update, &operation).ok());
  }
  // An update without a mask changes the fields it sets, and only those:
  // its subset, not the protection it leaves false.
  admin::UpdateAuthorizedViewRequest unmasked;
  unmasked.mutable_authorized_view()->set_name(kView);
  *unmasked.mutable_authorized_view()->mutable_subset_view() = Definition().subset_view();
  {
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->UpdateAuthorizedView(&context, unmasked, &operation).ok());
  }
  admin::DeleteAuthorizedViewRequest drop;
  drop.set_name(kView);
  google::protobuf::Empty empty;
  {
    grpc::ClientContext context;
    EXPECT_EQ(admin_->DeleteAuthorizedView(&context, drop, &empty).error_code(), StatusCode::FAILED_PRECONDITION);
  }
  EXPECT_EQ(Delete("t").error_code(), StatusCode::FAILED_PRECONDITION);
  update.mutable_authorized_view()->set_deletion_protection(false);
  update.mutable_authorized_view()->clear_etag();
  {
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->UpdateAuthorizedView(&context, update, &operation).ok());
  }
  {
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->DeleteAuthorizedView(&context, drop, &empty).ok());
  }
  EXPECT_EQ(GetView(admin::AuthorizedView::BASIC, &basic).error_code(), StatusCode::NOT_FOUND);
}

TEST_F(AuthorizedViewTest, ReadsSeeOnlyTheRowsAndColumnsTheViewCovers) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  ReadResult all = ReadThroughView();
  ASSERT_TRUE(all.status.ok()) << all.status.error_message();
  EXPECT_EQ(Cells(all.rows), std::vector<std::string>{"a#1:cf:pub1"});
  // A range that meets the view's prefix nowhere reads nothing.
  v2::ReadRowsRequest outside;
  outside.mutable_rows()->add_row_ranges()->set_start_key_closed("b");
  EXPECT_TRUE(ReadThroughView(outside).rows.empty());
  v2::ReadRowsRequest by_key;
  by_key.mutable_rows()->add_row_keys("b#1");
  by_key.mutable_rows()->add_row_keys("a#1");
  EXPECT_EQ(Cells(ReadThroughView(by_key).rows), std::vector<std::string>{"a#1:cf:pub1"});
  // The table itself still shows everything.
  EXPECT_EQ(Read({}).rows.size(), 2u);
}

TEST_F(AuthorizedViewTest, WritesOutsideTheViewArePermissionDeniedAndChangeNothing) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  const std::string before = Dump();
  EXPECT_EQ(MutateThroughView("b#2", {Mutation::SetCell("cf", "pub1", "z", 2000)}).error_code(),
            StatusCode::PERMISSION_DENIED);
  // One mutation outside refuses the whole row's.
  grpc::Status mixed = MutateThroughView(
      "a#1", {Mutation::SetCell("cf", "pub2", "z", 2000), Mutation::SetCell("cf", "secret", "z", 2000)});
  EXPECT_EQ(mixed.error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_NE(mixed.error_message().find("outside the Authorized View"), std::string::npos);
  // A whole row is never covered; a whole family only with a "" prefix.
  EXPECT_EQ(MutateThroughView("a#1", {Mutation::DeleteFromRow()}).error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(MutateThroughView("a#1", {Mutation::DeleteFromFamily("cf")}).error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Dump(), before);
  EXPECT_TRUE(MutateThroughView("a#1", {Mutation::DeleteFromFamily("other")}).ok());
  EXPECT_TRUE(MutateThroughView("a#2", {Mutation::SetCell("cf", "exact", "e", 2000)}).ok());
  EXPECT_EQ(Cells(ReadThroughView().rows), (std::vector<std::string>{"a#1:cf:pub1", "a#2:cf:exact"}));

  // MutateRows: each entry outside fails alone.
  v2::MutateRowsRequest bulk;
  bulk.set_authorized_view_name(kView);
  for (const char* key : {"a#3", "b#3"}) {
    auto* entry = bulk.add_entries();
    entry->set_row_key(key);
    *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "pub1", "m", 3000));
  }
  grpc::ClientContext context;
  auto stream = bigtable_->MutateRows(&context, bulk);
  std::map<int64_t, int> codes;
  for (v2::MutateRowsResponse response; stream->Read(&response);) {
    for (const auto& e : response.entries()) codes[e.index()] = e.status().code();
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(codes, (std::map<int64_t, int>{{0, 0}, {1, static_cast<int>(StatusCode::PERMISSION_DENIED)}}));
}

// nodejs-bigtable's system-test/bigtable.ts (AuthorizedViews, run against
// production) asserts the message verbatim: "should fail when writing to a
// row not in the authorized view", "... to a column not in the authorized
// view", and CheckAndMutate's "should error when the request is made for
// the row key not in a view". The server names the view in full, as
// production does (tests/client/system_tests.mjs).
TEST_F(AuthorizedViewTest, WritesOutsideTheViewFailInProductionsWords) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  const std::string refused =
      "Cannot mutate from projects/p/instances/i/tables/t/authorizedViews/v because the mutation contains cells "
      "outside "
      "the Authorized View.";
  EXPECT_EQ(MutateThroughView("b#1", {Mutation::SetCell("cf", "pub1", "z", 2000)}).error_message(), refused);
  EXPECT_EQ(MutateThroughView("a#1", {Mutation::SetCell("cf", "secret", "z", 2000)}).error_message(), refused);

  v2::MutateRowsRequest bulk;
  bulk.set_authorized_view_name(kView);
  auto* entry = bulk.add_entries();
  entry->set_row_key("b#1");
  *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "pub1", "m", 3000));
  grpc::ClientContext bulk_context;
  auto stream = bigtable_->MutateRows(&bulk_context, bulk);
  std::vector<std::string> messages;
  for (v2::MutateRowsResponse response; stream->Read(&response);) {
    for (const auto& e : response.entries()) messages.push_back(e.status().message());
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(messages, std::vector<std::string>{refused});

  v2::CheckAndMutateRowRequest check;
  check.set_authorized_view_name(kView);
  check.set_row_key("some-row-key");
  *check.add_true_mutations() = proto::ToProto(Mutation::DeleteFromRow());
  v2::CheckAndMutateRowResponse checked;
  grpc::ClientContext check_context;
  EXPECT_EQ(bigtable_->CheckAndMutateRow(&check_context, check, &checked).error_message(), refused);

  const v2::ReadModifyWriteRowRequest rmw = AppendToHiddenCell();
  v2::ReadModifyWriteRowResponse modified;
  grpc::ClientContext rmw_context;
  EXPECT_EQ(bigtable_->ReadModifyWriteRow(&rmw_context, rmw, &modified).error_message(), refused);
}

TEST_F(AuthorizedViewTest, CheckAndMutateSeesOnlyTheViewAndReadModifyWriteStaysInIt) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  // The predicate looks for cf:secret, which the view hides: no match.
  v2::CheckAndMutateRowRequest check;
  check.set_authorized_view_name(kView);
  check.set_row_key("a#1");
  *check.mutable_predicate_filter() = proto::ToProto(Filter::QualifierRegex("secret")).value();
  *check.add_false_mutations() = proto::ToProto(Mutation::SetCell("cf", "pub-seen", "no", 4000));
  v2::CheckAndMutateRowResponse checked;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->CheckAndMutateRow(&context, check, &checked).ok());
  }
  EXPECT_FALSE(checked.predicate_matched());
  check.set_row_key("b#1");
  {
    grpc::ClientContext context;
    EXPECT_EQ(bigtable_->CheckAndMutateRow(&context, check, &checked).error_code(), StatusCode::PERMISSION_DENIED);
  }

  v2::ReadModifyWriteRowRequest rmw = AppendToHiddenCell();
  v2::ReadModifyWriteRowResponse modified;
  {
    grpc::ClientContext context;
    EXPECT_EQ(bigtable_->ReadModifyWriteRow(&context, rmw, &modified).error_code(), StatusCode::PERMISSION_DENIED);
  }
  rmw.mutable_rules(0)->set_column_qualifier("pub1");
  {
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->ReadModifyWriteRow(&context, rmw, &modified).ok());
  }
  EXPECT_EQ(modified.row().families(0).columns(0).cells(0).value(), "x!");
}

TEST_F(AuthorizedViewTest, RequestsNamingTheViewWrongAreRefused) {
  v2::ReadRowsRequest missing;
  EXPECT_EQ(ReadThroughView(missing).status.error_code(), StatusCode::NOT_FOUND);
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  v2::MutateRowRequest both;
  both.set_table_name(TableName("t"));
  both.set_authorized_view_name(kView);
  both.set_row_key("a#1");
  *both.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "pub1", "z", 5000));
  v2::MutateRowResponse response;
  grpc::ClientContext context;
  EXPECT_EQ(bigtable_->MutateRow(&context, both, &response).error_code(), StatusCode::INVALID_ARGUMENT);
}

// A bad filter through a view is named as the request named it, not as
// the link of the chain the view reads through.
TEST_F(AuthorizedViewTest, ABadFilterThroughAViewNamesTheRequestsField) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  v2::RowFilter one_link;
  *one_link.mutable_chain()->add_filters() = proto::ToProto(Filter::PassAll()).value();
  v2::ReadRowsRequest read;
  *read.mutable_filter() = one_link;
  ReadResult result = ReadThroughView(read);
  EXPECT_EQ(result.status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(result.status.error_message().rfind("filter: ", 0), 0u) << result.status.error_message();
  v2::CheckAndMutateRowRequest check;
  check.set_authorized_view_name(kView);
  check.set_row_key("a#1");
  *check.mutable_predicate_filter() = one_link;
  *check.add_true_mutations() = proto::ToProto(Mutation::SetCell("cf", "pub1", "z", 5000));
  v2::CheckAndMutateRowResponse checked;
  grpc::ClientContext context;
  grpc::Status s = bigtable_->CheckAndMutateRow(&context, check, &checked);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("predicate_filter: ", 0), 0u) << s.error_message();
}

TEST_F(AuthorizedViewTest, ViewsOutliveARestartAndGoWithTheirTable) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  Restart();
  admin::AuthorizedView full;
  ASSERT_TRUE(GetView(admin::AuthorizedView::FULL, &full).ok());
  EXPECT_EQ(full.subset_view().row_prefixes(0), "a#");
  EXPECT_EQ(Cells(ReadThroughView().rows), std::vector<std::string>{"a#1:cf:pub1"});
  ASSERT_TRUE(Delete("t").ok());
  CreateTable("t", {"cf"});
  EXPECT_EQ(GetView(admin::AuthorizedView::BASIC, &full).error_code(), StatusCode::NOT_FOUND);
}

std::vector<v2::SampleRowKeysResponse> SampleThrough(v2::Bigtable::Stub* stub, const std::string& view) {
  v2::SampleRowKeysRequest request;
  request.set_authorized_view_name(view);
  grpc::ClientContext context;
  auto stream = stub->SampleRowKeys(&context, request);
  std::vector<v2::SampleRowKeysResponse> samples;
  for (v2::SampleRowKeysResponse response; stream->Read(&response);) samples.push_back(response);
  EXPECT_TRUE(stream->Finish().ok());
  return samples;
}

std::vector<std::pair<std::string, int64_t>> KeysAndOffsets(const std::vector<v2::SampleRowKeysResponse>& samples) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& s : samples) out.emplace_back(s.row_key(), s.offset_bytes());
  return out;
}

// Samples through a view describe the view alone: keys of its rows, offsets
// of its cells, and last the end of its rows (nodejs-bigtable's system-test/
// bigtable.ts, "should get a sample of row keys" through an authorized view,
// expects one sample, a key shaped like the view's row key). Whatever lies
// outside the view changes nothing in them.
TEST_F(AuthorizedViewTest, SamplesDescribeOnlyTheView) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  // a#1's cf:pub1 "x" alone is covered: 2 + 4 + 1 + 8 bytes.
  EXPECT_EQ(KeysAndOffsets(SampleThrough(bigtable_.get(), kView)),
            (std::vector<std::pair<std::string, int64_t>>{{"a$", 15}}));

  // Over 4 MiB of covered cells: samples inside the view's rows.
  const std::string mib(1 << 20, 'v');
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(MutateRow("t", "a#big" + std::to_string(i), {Mutation::SetCell("cf", "pub", mib, 1000)}).ok());
  }
  const std::vector<v2::SampleRowKeysResponse> view_samples = SampleThrough(bigtable_.get(), kView);
  ASSERT_GE(view_samples.size(), 2u);
  for (size_t i = 0; i + 1 < view_samples.size(); ++i) EXPECT_EQ(view_samples[i].row_key().substr(0, 2), "a#");
  EXPECT_EQ(view_samples.back().row_key(), "a$");
  EXPECT_EQ(view_samples.back().offset_bytes(), 15 + 6 * (2 + 3 + (1 << 20) + 8));

  // Much more outside it: rows it does not cover, columns it does not
  // cover in its rows, and a row of its prefix with no column it covers.
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(MutateRow("t", "b#big" + std::to_string(i), {Mutation::SetCell("cf", "pub", mib, 1000)}).ok());
    ASSERT_TRUE(MutateRow("t", "a#big" + std::to_string(i), {Mutation::SetCell("cf", "secret", mib, 1000)}).ok());
    ASSERT_TRUE(MutateRow("t", "a#hidden" + std::to_string(i), {Mutation::SetCell("cf", "secret", mib, 1000)}).ok());
  }
  EXPECT_EQ(KeysAndOffsets(SampleThrough(bigtable_.get(), kView)), KeysAndOffsets(view_samples));
}

// REQUEST_STATS_FULL through a view counts only the cells it covers, and
// rows only when they have one: what lies outside it does not show.
TEST_F(AuthorizedViewTest, RequestStatsCountOnlyWhatTheViewCovers) {
  ASSERT_TRUE(CreateView("v", Definition()).ok());
  v2::ReadRowsRequest request;
  request.set_request_stats_view(v2::ReadRowsRequest::REQUEST_STATS_FULL);
  auto stats_of = [&] {
    ReadResult result = ReadThroughView(request);
    EXPECT_TRUE(result.status.ok());
    const auto& s = result.stats.full_read_stats_view().read_iteration_stats();
    return std::vector<int64_t>{s.rows_seen_count(), s.cells_seen_count(), s.rows_returned_count(),
                                s.cells_returned_count()};
  };
  // a#1: cf:pub1 covered, cf:secret not; b#1 outside the rows.
  const std::vector<int64_t> before = stats_of();
  EXPECT_EQ(before, (std::vector<int64_t>{1, 1, 1, 1}));
  ASSERT_TRUE(MutateRow("t", "a#1", {Mutation::SetCell("cf", "secret", "t", 2000)}).ok());
  ASSERT_TRUE(MutateRow("t", "a#2", {Mutation::SetCell("cf", "secret", "s", 1000)}).ok());
  ASSERT_TRUE(MutateRow("t", "b#2", {Mutation::SetCell("cf", "pub1", "y", 1000)}).ok());
  EXPECT_EQ(stats_of(), before);

  // A filter that drops the covered cell: seen, not returned.
  *request.mutable_filter() = proto::ToProto(Filter::ValueRegex("nothing")).value();
  EXPECT_EQ(stats_of(), (std::vector<int64_t>{1, 1, 0, 0}));
}

}  // namespace
}  // namespace lbt::testing
