#include "commands/render/instance_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ctime>

#include "api/backup.h"
#include "commands/render/text_format.h"

namespace lbt {

namespace {

// The installed cbt's tabwriter for these lists: minimum width 10, tabs of
// 8, padding 4.
TabWriter CbtTable() { return TabWriter(10, 8, 4); }

std::string AppProfileName(const InstanceName& instance, const AppProfileSpec& profile) {
  return fmt::format("{}/appProfiles/{}", instance.Full(), profile.id);
}

// A message as Go's protobuf prints it in compact text: its set fields,
// separated as the installed cbt's protobuf separates them (two spaces).
std::string CompactText(const std::vector<std::string>& fields) { return fmt::format("{}", fmt::join(fields, "  ")); }

}  // namespace

std::string ZoneOf(const ClusterSpec& cluster) { return cluster.location.substr(cluster.location.rfind('/') + 1); }

std::string InstancesText(const std::vector<InstanceSpec>& instances) {
  TabWriter tw = CbtTable();
  tw.AddLine("Instance Name\tInfo");
  tw.AddLine("-------------\t----");
  for (const InstanceSpec& i : instances) tw.AddLine(i.name.instance + "\t" + i.display_name);
  return tw.Render();
}

std::string ClustersText(const InstanceSpec& instance) {
  TabWriter tw = CbtTable();
  tw.AddLine("Cluster Name\tZone\tState");
  tw.AddLine("------------\t----\t----");
  for (const ClusterSpec& c : instance.clusters) {
    tw.AddLine(fmt::format("{}\t{}\tREADY ({} serve nodes)", c.id, ZoneOf(c), c.serve_nodes));
  }
  return tw.Render();
}

std::string RoutingPolicyText(const AppProfileSpec& profile) {
  std::vector<std::string> fields;
  if (profile.routing == AppProfileSpec::Routing::kSingleCluster) {
    if (!profile.cluster_id.empty()) fields.push_back(fmt::format("cluster_id:{}", GoQuote(profile.cluster_id)));
    if (profile.allow_transactional_writes) fields.push_back("allow_transactional_writes:true");
  } else {
    for (const std::string& id : profile.cluster_ids) fields.push_back(fmt::format("cluster_ids:{}", GoQuote(id)));
    if (profile.row_affinity) fields.push_back("row_affinity:{}");
  }
  return "&{" + CompactText(fields) + "}";
}

std::string AppProfileText(const InstanceName& instance, const AppProfileSpec& profile, bool created) {
  if (created) {
    return fmt::format("Name: {}\nRoutingPolicy: {}\n", AppProfileName(instance, profile), RoutingPolicyText(profile));
  }
  return fmt::format("Name: {}\nEtag: {}\nDescription: {}\nRoutingPolicy: {}\n", AppProfileName(instance, profile),
                     profile.etag, profile.description, RoutingPolicyText(profile));
}

std::string AppProfilesText(const InstanceSpec& instance) {
  TabWriter tw = CbtTable();
  tw.AddLine("AppProfile\tProfile Description\tProfile Etag\tProfile Routing Policy");
  tw.AddLine("-----------\t--------------------\t------------\t----------------------");
  for (const AppProfileSpec& p : instance.app_profiles) {
    tw.AddLine(
        fmt::format("{}\t{}\t{}\t{}", AppProfileName(instance.name, p), p.description, p.etag, RoutingPolicyText(p)));
  }
  return tw.Render();
}

std::string Rfc3339(int64_t micros) {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec);
}

std::string BackupText(const BackupSpec& b) {
  std::string text = fmt::format("Name: {}\nSource Table: {}\n", b.Full(), b.SourceTableFull());
  if (!b.source_backup.empty()) text += fmt::format("Source Backup: {}\n", b.source_backup);
  text += fmt::format("State: READY\nSize: {} bytes\nStart Time: {}\nEnd Time: {}\nExpire Time: {}\n", b.size_bytes,
                      Rfc3339(b.start_time_micros), Rfc3339(b.end_time_micros), Rfc3339(b.expire_time_micros));
  return text;
}

std::string BackupsText(const std::vector<BackupSpec>& backups) {
  TabWriter tw = CbtTable();
  tw.AddLine("Cluster\tBackup\tSource Table\tSize\tStart Time\tExpire Time");
  tw.AddLine("-------\t------\t------------\t----\t----------\t-----------");
  for (const BackupSpec& b : backups) {
    tw.AddLine(fmt::format("{}\t{}\t{}\t{}\t{}\t{}", b.cluster, b.id, b.source_table, b.size_bytes,
                           Rfc3339(b.start_time_micros), Rfc3339(b.expire_time_micros)));
  }
  return tw.Render();
}

std::string AuthorizedViewText(std::string_view table, const AuthorizedViewSpec& view) {
  auto quoted = [](const std::vector<std::string>& list) {
    std::vector<std::string> shown;
    for (const std::string& item : list) shown.push_back(GoQuote(item));
    return shown.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(shown, ", "));
  };
  std::string text =
      fmt::format("Name: {}\nTable: {}\nDeletion Protection: {}\nEtag: {}\nRow Prefixes: {}\n", view.id, table,
                  view.deletion_protection ? "true" : "false", view.etag, quoted(view.subset.row_prefixes));
  for (const auto& [family, columns] : view.subset.family_subsets) {
    text += fmt::format("Family {}: qualifiers {}; qualifier prefixes {}\n", family, quoted(columns.qualifiers),
                        quoted(columns.qualifier_prefixes));
  }
  return text;
}

}  // namespace lbt
