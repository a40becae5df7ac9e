# The SQL corpus: queries over seeds.cbt with the rows Bigtable's documented
# semantics give. Run through the shell (sql.corpus) and through Google's
# Node client against lbt serve (client.node). Format: corpus.mjs.

-- name: a point lookup by the whole key
SELECT _key, stats_summary['os_build'] AS os_build FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"_key": "phone#4c410523#20200501", "os_build": "PQ2A.190405.004"}

-- name: a device's days, by key prefix
-- params: @device=b'phone#4c410523#'
SELECT _key FROM mobile WHERE STARTS_WITH(_key, @device);
{"_key": "phone#4c410523#20200501"}
{"_key": "phone#4c410523#20200502"}

-- name: an unknown function names itself
-- error: Function not found: FOO
SELECT FOO(_key) FROM mobile;
