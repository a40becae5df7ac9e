// IAM policies: kept with etags and returned as set, never enforced. The
// Instance Admin API keeps an instance's (api/instance_admin.h), the Table
// Admin API those of tables, authorized views and backups
// (api/table_admin.h).

#ifndef LBT_API_IAM_H_
#define LBT_API_IAM_H_

#include <cstdint>
#include <string>
#include <vector>

namespace lbt {

// An IAM policy on an instance, table, backup or authorized view: kept and
// returned, never enforced (lbt has no identities).
struct IamBinding {
  std::string role;
  std::vector<std::string> members;
  std::string condition_expression;  // "" when the binding has no condition
  std::string condition_title;
  std::string condition_description;
};

struct IamPolicy {
  int32_t version = 0;
  std::vector<IamBinding> bindings;
  // Changes with every SetIamPolicy; a set naming another etag fails.
  std::string etag;
};

}  // namespace lbt

#endif  // LBT_API_IAM_H_
