# The SQL corpus: queries over seeds.cbt with the rows Bigtable's documented
# semantics give. Run through the shell (sql.corpus) and through Google's
# Node client against lbt serve (client.node). Format: corpus.mjs.
#
# Rows without ORDER BY come in row key order, the order Bigtable reads
# them in; aggregates such as ARRAY_AGG see their group's rows in that order.

# ---------------------------------------------------------------- the mobile time series
# Six rows: phone#4c410523 and phone#5c10102 on 2020-05-01 and -02, and
# tablet#a0b81f74 on both days. Each family is a map from qualifier to the
# column's latest value.

-- name: a point lookup by the whole key reads the latest version
SELECT _key, stats_summary['os_build'] AS os_build FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"_key": "phone#4c410523#20200501", "os_build": "PQ2A.190405.004"}

-- name: a device's days, by key prefix
-- params: @device=b'phone#4c410523#'
SELECT _key FROM mobile WHERE STARTS_WITH(_key, @device);
{"_key": "phone#4c410523#20200501"}
{"_key": "phone#4c410523#20200502"}

-- name: LIKE with a literal prefix
SELECT _key FROM mobile WHERE _key LIKE 'tablet#%';
{"_key": "tablet#a0b81f74#20200501"}
{"_key": "tablet#a0b81f74#20200502"}

-- name: a half-open key range
SELECT _key, stats_summary['os_build'] AS os_build
FROM mobile
WHERE _key >= 'phone#4c410523#20200502' AND _key < 'phone#5c10102#20200502';
{"_key": "phone#4c410523#20200502", "os_build": "PQ2A.190405.004"}
{"_key": "phone#5c10102#20200501", "os_build": "PQ2A.190401.002"}

-- name: BETWEEN includes both ends
SELECT _key FROM mobile WHERE _key BETWEEN 'phone#5c10102#20200501' AND 'tablet#a0b81f74#20200501';
{"_key": "phone#5c10102#20200501"}
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200501"}

-- name: IN of keys, one of them absent
SELECT _key FROM mobile WHERE _key IN ('tablet#a0b81f74#20200502', 'phone#4c410523#20200501', 'phone#00000000#20200501');
{"_key": "phone#4c410523#20200501"}
{"_key": "tablet#a0b81f74#20200502"}

-- name: OR of a key and a prefix, and a condition that is not about keys
SELECT _key FROM mobile
WHERE (_key = 'tablet#a0b81f74#20200502' OR _key LIKE 'phone#5c%') AND NOT ENDS_WITH(_key, '0501');
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200502"}

-- name: a column a row lacks is NULL
SELECT _key, stats_summary['connected_wifi'] AS wifi FROM mobile WHERE _key LIKE 'phone#4c%';
{"_key": "phone#4c410523#20200501", "wifi": null}
{"_key": "phone#4c410523#20200502", "wifi": null}

-- name: SELECT * gives _key and every family, an empty family as an empty map
SELECT * FROM mobile WHERE _key = 'phone#5c10102#20200502';
{"_key": "phone#5c10102#20200502", "cell_plan": {}, "stats_summary": {"connected_cell": "1", "connected_wifi": "0", "os_build": "PQ2A.190406.000"}}

-- name: the newest phone rows first
SELECT _key, stats_summary['os_build'] AS os_build FROM mobile WHERE _key LIKE 'phone#%' ORDER BY _key DESC LIMIT 2;
{"_key": "phone#5c10102#20200502", "os_build": "PQ2A.190406.000"}
{"_key": "phone#5c10102#20200501", "os_build": "PQ2A.190401.002"}

-- name: devices by a value of a column
SELECT _key FROM mobile WHERE stats_summary['os_build'] = 'PQ2A.190401.002';
{"_key": "phone#5c10102#20200501"}
{"_key": "tablet#a0b81f74#20200501"}
{"_key": "tablet#a0b81f74#20200502"}

# ---------------------------------------------------------------- weather balloons
# One row per balloon per minute, region#balloon#minute, each measurement a
# column of text.

-- name: balloons of one region, by key prefix
SELECT _key FROM weather_balloons WHERE STARTS_WITH(_key, b'us-west2#');
{"_key": "us-west2#3698#2021-03-05-1200"}
{"_key": "us-west2#3698#2021-03-05-1201"}
{"_key": "us-west2#3698#2021-03-05-1202"}
{"_key": "us-west2#3698#2021-03-05-1203"}
{"_key": "us-west2#3698#2021-03-05-1204"}
{"_key": "us-west2#3701#2021-03-05-1200"}

-- name: text values cast to numbers
SELECT CAST(CAST(measurements['pressure'] AS STRING) AS INT64) AS pressure,
       CAST(CAST(measurements['temperature'] AS STRING) AS FLOAT64) AS temperature,
       SAFE_CAST(SAFE_CONVERT_BYTES_TO_STRING(measurements['humidity']) AS INT64) AS humidity
FROM weather_balloons WHERE _key = 'us-west2#3698#2021-03-05-1202';
{"pressure": 95992, "temperature": 9.5, "humidity": 58}

-- name: averages per balloon, grouped by an alias of a part of the key
SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(1)] AS balloon,
       COUNT(*) AS readings,
       AVG(CAST(CAST(measurements['pressure'] AS STRING) AS INT64)) AS avg_pressure,
       ROUND(AVG(CAST(CAST(measurements['temperature'] AS STRING) AS FLOAT64)), 2) AS avg_temperature
FROM weather_balloons
GROUP BY balloon
ORDER BY balloon;
{"balloon": "3698", "readings": 5, "avg_pressure": 95343.6, "avg_temperature": 9.58}
{"balloon": "3701", "readings": 1, "avg_pressure": 95012, "avg_temperature": 10.1}
{"balloon": "5212", "readings": 2, "avg_pressure": 94594, "avg_temperature": 9.4}

-- name: the lowest and highest altitude in three minutes of one balloon
SELECT MIN(CAST(CAST(measurements['altitude'] AS STRING) AS INT64)) AS lowest,
       MAX(CAST(CAST(measurements['altitude'] AS STRING) AS INT64)) AS highest,
       COUNT(*) AS readings
FROM weather_balloons
WHERE _key BETWEEN 'us-west2#3698#2021-03-05-1201' AND 'us-west2#3698#2021-03-05-1203';
{"lowest": 598, "highest": 611, "readings": 3}

-- name: readings filtered by a measurement within a balloon's rows
SELECT _key, CAST(CAST(measurements['humidity'] AS STRING) AS INT64) AS humidity
FROM weather_balloons
WHERE _key LIKE 'us-west2#3698#%' AND CAST(CAST(measurements['humidity'] AS STRING) AS INT64) > 62;
{"_key": "us-west2#3698#2021-03-05-1203", "humidity": 66}
{"_key": "us-west2#3698#2021-03-05-1204", "humidity": 63}

-- name: readings per region, grouped and ordered by position
SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(0)] AS region, COUNT(*) AS readings,
       MAX(CAST(CAST(measurements['pressure'] AS STRING) AS INT64)) AS max_pressure
FROM weather_balloons GROUP BY 1 ORDER BY 2 DESC;
{"region": "us-west2", "readings": 6, "max_pressure": 96025}
{"region": "asia-southeast1", "readings": 2, "max_pressure": 94601}

-- name: when a reading was taken, from its cell's timestamp
SELECT _key, measurements['pressure'][OFFSET(0)].timestamp AS measured_at
FROM weather_balloons(with_history => TRUE) WHERE _key LIKE 'asia-southeast1#%';
{"_key": "asia-southeast1#5212#2021-03-05-1200", "measured_at": "2021-03-05T12:00:00.000000Z"}
{"_key": "asia-southeast1#5212#2021-03-05-1201", "measured_at": "2021-03-05T12:01:00.000000Z"}

-- name: balloons reporting in each minute, by UNPACK's timestamps
SELECT _timestamp AS minute, COUNT(*) AS balloons
FROM UNPACK((SELECT _key, measurements FROM weather_balloons(with_history => TRUE)))
GROUP BY minute ORDER BY minute;
{"minute": "2021-03-05T12:00:00.000000Z", "balloons": 3}
{"minute": "2021-03-05T12:01:00.000000Z", "balloons": 2}
{"minute": "2021-03-05T12:02:00.000000Z", "balloons": 1}
{"minute": "2021-03-05T12:03:00.000000Z", "balloons": 1}
{"minute": "2021-03-05T12:04:00.000000Z", "balloons": 1}

# ---------------------------------------------------------------- history
# phone#4c410523#20200501 has os_build at 00:00 and 01:00, connected_cell at
# 00:00, and data_plan_05gb true at 00:00 then false at 02:00 (2020-05-01).

-- name: with_history makes each column an array of timestamped values, newest first
SELECT stats_summary['os_build'] AS builds FROM mobile(with_history => TRUE) WHERE _key = 'phone#4c410523#20200501';
{"builds": [{"timestamp": "2020-05-01T01:00:00.000000Z", "value": "PQ2A.190405.004"}, {"timestamp": "2020-05-01T00:00:00.000000Z", "value": "PQ2A.190405.003"}]}

-- name: latest_n keeps that many values per column
SELECT stats_summary AS summary FROM mobile(with_history => TRUE, latest_n => 1) WHERE _key = 'phone#4c410523#20200501';
{"summary": {"connected_cell": [{"timestamp": "2020-05-01T00:00:00.000000Z", "value": "1"}], "os_build": [{"timestamp": "2020-05-01T01:00:00.000000Z", "value": "PQ2A.190405.004"}]}}

-- name: after excludes its own timestamp
SELECT cell_plan['data_plan_05gb'] AS plan, stats_summary['os_build'] AS builds
FROM mobile(with_history => TRUE, after => TIMESTAMP '2020-05-01 00:00:00')
WHERE _key = 'phone#4c410523#20200501';
{"plan": [{"timestamp": "2020-05-01T02:00:00.000000Z", "value": "false"}], "builds": [{"timestamp": "2020-05-01T01:00:00.000000Z", "value": "PQ2A.190405.004"}]}

-- name: after_or_equal and before bound a window; a column with nothing in it is absent
SELECT MAP_KEYS(stats_summary) AS columns, ARRAY_LENGTH(cell_plan['data_plan_05gb']) AS plans
FROM mobile(with_history => TRUE, after_or_equal => TIMESTAMP '2020-05-01 01:00:00', before => TIMESTAMP '2020-05-01 02:00:00')
WHERE _key = 'phone#4c410523#20200501';
{"columns": ["os_build"], "plans": null}

-- name: before_or_equal includes its own timestamp
SELECT ARRAY_LENGTH(stats_summary['os_build']) AS builds, ARRAY_LENGTH(cell_plan['data_plan_05gb']) AS plans
FROM mobile(with_history => TRUE, before_or_equal => TIMESTAMP '2020-05-01 01:00:00')
WHERE _key = 'phone#4c410523#20200501';
{"builds": 2, "plans": 1}

-- name: as_of reads the latest values at or before a time
SELECT stats_summary['os_build'] AS os_build, cell_plan['data_plan_05gb'] AS plan
FROM mobile(as_of => TIMESTAMP '2020-05-01 01:00:00') WHERE _key = 'phone#4c410523#20200501';
{"os_build": "PQ2A.190405.004", "plan": "true"}

-- name: UNPACK gives one row per timestamp with the values written then
SELECT _timestamp, stats_summary['os_build'] AS os_build, cell_plan['data_plan_05gb'] AS plan
FROM UNPACK((SELECT _key, stats_summary, cell_plan FROM mobile(with_history => TRUE)))
WHERE _key = 'phone#4c410523#20200501'
ORDER BY _timestamp;
{"_timestamp": "2020-05-01T00:00:00.000000Z", "os_build": "PQ2A.190405.003", "plan": "true"}
{"_timestamp": "2020-05-01T01:00:00.000000Z", "os_build": "PQ2A.190405.004", "plan": null}
{"_timestamp": "2020-05-01T02:00:00.000000Z", "os_build": null, "plan": "false"}

-- name: UNPACK of the latest value of each column
SELECT _key, _timestamp, stats_summary['os_build'] AS os_build
FROM UNPACK((SELECT _key, stats_summary FROM mobile(with_history => TRUE, latest_n => 1)))
WHERE _key LIKE 'phone#4c410523#%'
ORDER BY _key, _timestamp DESC;
{"_key": "phone#4c410523#20200501", "_timestamp": "2020-05-01T01:00:00.000000Z", "os_build": "PQ2A.190405.004"}
{"_key": "phone#4c410523#20200501", "_timestamp": "2020-05-01T00:00:00.000000Z", "os_build": null}
{"_key": "phone#4c410523#20200502", "_timestamp": "2020-05-02T00:00:00.000000Z", "os_build": "PQ2A.190405.004"}

-- name: an aggregate family's history: inputs at one timestamp merged, another timestamp apart
SELECT views['total'] AS total FROM counters(with_history => TRUE) WHERE _key = 'page#home';
{"total": [{"timestamp": "2020-05-02T00:00:00.000000Z", "value": 3}, {"timestamp": "2020-05-01T00:00:00.000000Z", "value": 12}]}

-- name: as_of takes no other option
-- error: as_of
SELECT _key FROM mobile(with_history => TRUE, as_of => TIMESTAMP '2020-05-01 00:00:00');

-- name: latest_n needs with_history
-- error: latest_n needs with_history
SELECT _key FROM mobile(latest_n => 2);

-- name: after needs with_history
-- error: after needs with_history
SELECT _key FROM mobile(after => TIMESTAMP '2020-05-01 00:00:00');

-- name: UNPACK needs a table read with history
-- error: UNPACK needs a table read with history
SELECT _key, _timestamp FROM UNPACK((SELECT _key, stats_summary FROM mobile));

# ---------------------------------------------------------------- aggregates

-- name: COUNT(*) counts rows, COUNT(x) non-NULL values, COUNTIF true conditions
SELECT COUNT(*) AS devices, COUNT(stats_summary['connected_cell']) AS with_cell,
       COUNT(stats_summary['connected_wifi']) AS with_wifi, COUNTIF(stats_summary['connected_wifi'] = b'1') AS on_wifi
FROM mobile;
{"devices": 6, "with_cell": 3, "with_wifi": 4, "on_wifi": 2}

-- name: SUM, AVG, MIN and MAX of battery levels
SELECT SUM(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS total,
       AVG(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS average,
       MIN(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS lowest,
       MAX(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS highest
FROM battery;
{"total": 329, "average": 65.8, "lowest": 38, "highest": 98}

-- name: ARRAY_AGG and STRING_AGG per person
SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(1)] AS person,
       ARRAY_AGG(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS levels,
       STRING_AGG(CAST(METRIC['PERCENTAGE'] AS STRING), '/') AS joined
FROM battery GROUP BY person ORDER BY person;
{"person": "Corrie", "levels": [98, 96], "joined": "98/96"}
{"person": "Jo", "levels": [54], "joined": "54"}
{"person": "Sam", "levels": [43, 38], "joined": "43/38"}

-- name: GROUP BY the expression the select list names
SELECT GAME['WIN'] AS won, COUNT(*) AS games FROM games GROUP BY GAME['WIN'] ORDER BY won;
{"won": "false", "games": 1}
{"won": "true", "games": 4}

-- name: LOGICAL_AND and LOGICAL_OR per player
SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(1)] AS player,
       LOGICAL_AND(GAME['WIN'] = b'true') AS always_won, LOGICAL_OR(GAME['WIN'] = b'true') AS ever_won
FROM games GROUP BY player ORDER BY player;
{"player": "Corrie", "always_won": false, "ever_won": true}
{"player": "Eriko", "always_won": true, "ever_won": true}
{"player": "Jo", "always_won": true, "ever_won": true}
{"player": "Sam", "always_won": true, "ever_won": true}

-- name: HAVING keeps the groups whose aggregate passes
SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(1)] AS player, COUNT(*) AS games
FROM games GROUP BY player HAVING COUNT(*) > 1;
{"player": "Corrie", "games": 2}

-- name: NULLs make a group of their own, first in ascending order
SELECT stats_summary['connected_cell'] AS cell, COUNT(*) AS devices FROM mobile GROUP BY cell ORDER BY cell;
{"cell": null, "devices": 3}
{"cell": "0", "devices": 1}
{"cell": "1", "devices": 2}

-- name: ORDER BY DESC NULLS FIRST, then by key
SELECT _key, stats_summary['connected_cell'] AS cell FROM mobile ORDER BY cell DESC NULLS FIRST, _key;
{"_key": "phone#5c10102#20200501", "cell": null}
{"_key": "tablet#a0b81f74#20200501", "cell": null}
{"_key": "tablet#a0b81f74#20200502", "cell": null}
{"_key": "phone#4c410523#20200501", "cell": "1"}
{"_key": "phone#5c10102#20200502", "cell": "1"}
{"_key": "phone#4c410523#20200502", "cell": "0"}

-- name: ORDER BY ASC NULLS LAST
SELECT _key, stats_summary['connected_wifi'] AS wifi FROM mobile ORDER BY wifi NULLS LAST, _key;
{"_key": "phone#5c10102#20200502", "wifi": "0"}
{"_key": "tablet#a0b81f74#20200502", "wifi": "0"}
{"_key": "phone#5c10102#20200501", "wifi": "1"}
{"_key": "tablet#a0b81f74#20200501", "wifi": "1"}
{"_key": "phone#4c410523#20200501", "wifi": null}
{"_key": "phone#4c410523#20200502", "wifi": null}

-- name: DESC puts NULLs last unless told otherwise
SELECT _key, stats_summary['connected_wifi'] AS wifi FROM mobile ORDER BY wifi DESC, _key DESC;
{"_key": "tablet#a0b81f74#20200501", "wifi": "1"}
{"_key": "phone#5c10102#20200501", "wifi": "1"}
{"_key": "tablet#a0b81f74#20200502", "wifi": "0"}
{"_key": "phone#5c10102#20200502", "wifi": "0"}
{"_key": "phone#4c410523#20200502", "wifi": null}
{"_key": "phone#4c410523#20200501", "wifi": null}

-- name: LIMIT and OFFSET after ORDER BY
SELECT _key FROM battery ORDER BY _key DESC LIMIT 2 OFFSET 1;
{"_key": "BATTERY#Sam#20150301124501004"}
{"_key": "BATTERY#Jo#20150301124501002"}

-- name: aggregates over no rows: COUNT is 0, the others NULL
SELECT COUNT(*) AS n, SUM(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64)) AS total,
       MAX(METRIC['PERCENTAGE']) AS highest, ARRAY_AGG(_key) AS keys
FROM battery WHERE _key = 'BATTERY#Nobody';
{"n": 0, "total": null, "highest": null, "keys": null}

-- name: an aggregate (intsum) family is a map of INT64 latest values
SELECT _key, views, views['total'] + 1 AS next FROM counters;
{"_key": "page#about", "views": {"total": 2}, "next": 3}
{"_key": "page#home", "views": {"total": 3}, "next": 4}

-- name: SUM over an aggregate family's latest values
SELECT SUM(views['total']) AS latest_total FROM counters;
{"latest_total": 5}

# ---------------------------------------------------------------- maps

-- name: a whole family as a map
SELECT stats_summary FROM mobile WHERE _key = 'tablet#a0b81f74#20200502';
{"stats_summary": {"connected_wifi": "0", "os_build": "PQ2A.190401.002"}}

-- name: MAP_KEYS sorted, empty for an empty family
SELECT _key, MAP_KEYS(cell_plan) AS plans FROM mobile WHERE _key LIKE 'phone#%';
{"_key": "phone#4c410523#20200501", "plans": ["data_plan_05gb"]}
{"_key": "phone#4c410523#20200502", "plans": ["data_plan_10gb"]}
{"_key": "phone#5c10102#20200501", "plans": ["data_plan_01gb"]}
{"_key": "phone#5c10102#20200502", "plans": []}

-- name: MAP_VALUES and MAP_ENTRIES in key order
SELECT MAP_VALUES(stats_summary) AS v, MAP_ENTRIES(stats_summary) AS entries FROM mobile WHERE _key = 'tablet#a0b81f74#20200501';
{"v": ["1", "PQ2A.190401.002"], "entries": [{"key": "connected_wifi", "value": "1"}, {"key": "os_build", "value": "PQ2A.190401.002"}]}

-- name: MAP_CONTAINS_KEY as a value and as a condition
SELECT _key, MAP_CONTAINS_KEY(cell_plan, b'data_plan_05gb') AS has_05gb
FROM mobile WHERE MAP_CONTAINS_KEY(stats_summary, b'connected_cell');
{"_key": "phone#4c410523#20200501", "has_05gb": true}
{"_key": "phone#4c410523#20200502", "has_05gb": false}
{"_key": "phone#5c10102#20200502", "has_05gb": false}

-- name: MAP_EMPTY finds rows with nothing in a family
SELECT _key, cell_plan['data_plan_05gb'] AS plan FROM mobile WHERE MAP_EMPTY(cell_plan);
{"_key": "phone#5c10102#20200502", "plan": null}
{"_key": "tablet#a0b81f74#20200501", "plan": null}
{"_key": "tablet#a0b81f74#20200502", "plan": null}

-- name: a subscript by a parameter
-- params: @column=b'os_build'
SELECT _key, stats_summary[@column] AS value FROM mobile WHERE _key LIKE 'tablet#%';
{"_key": "tablet#a0b81f74#20200501", "value": "PQ2A.190401.002"}
{"_key": "tablet#a0b81f74#20200502", "value": "PQ2A.190401.002"}

-- name: bytes that are not UTF-8 come back in base64
SELECT _key, raw['tag'] AS tag, MAP_KEYS(raw) AS columns FROM counters WHERE _key = 'page#home';
{"_key": "page#home", "tag_b64": "//4=", "columns": ["hits", "tag"]}

# ---------------------------------------------------------------- functions

-- name: conversion functions
SELECT TO_INT64(raw['hits']) AS hits, TO_HEX(raw['hits']) AS hits_hex, TO_BASE64(raw['tag']) AS tag_base64,
       FROM_BASE64('//4=') = raw['tag'] AS same_tag, TO_BASE32(raw['tag']) AS tag_base32, FROM_HEX('2a') AS star,
       CAST(TRUE AS INT64) AS one,
       CAST('1.5' AS FLOAT64) AS half, SAFE_CAST('x' AS INT64) AS bad, CAST('0x1F' AS INT64) AS hex,
       CAST(2.5 AS INT64) AS up, CAST(-2.5 AS INT64) AS down, CAST(7 AS STRING) AS text
FROM counters WHERE _key = 'page#home';
{"hits": 256, "hits_hex": "0000000000000100", "tag_base64": "//4=", "same_tag": true, "tag_base32": "777A====", "star": "*", "one": 1, "half": 1.5, "bad": null, "hex": 31, "up": 3, "down": -3, "text": "7"}

-- name: string functions
SELECT CONCAT('phone', '#', '4c41') AS joined, 'a' || 'b' || 'c' AS piped, UPPER('Ab') AS up, LOWER('Ab') AS low,
       LENGTH('héllo') AS chars, BYTE_LENGTH('héllo') AS bytes, SUBSTR('phone#4c410523', 7, 4) AS middle,
       SUBSTR('phone#4c410523', -4) AS tail, STRPOS('abcabc', 'ca') AS at, REPLACE('a-b-c', '-', '+') AS replaced,
       REPEAT('ab', 3) AS repeated, REVERSE('abc') AS reversed, TRIM('  x  ') AS trimmed, LTRIM('xxy', 'x') AS ltrimmed,
       RTRIM('yxx', 'x') AS rtrimmed, SPLIT('a#b#c', '#') AS parts, STARTS_WITH('phone#1', 'phone') AS starts,
       ENDS_WITH('phone#1', '#2') AS ends
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"joined": "phone#4c41", "piped": "abc", "up": "AB", "low": "ab", "chars": 5, "bytes": 6, "middle": "4c41", "tail": "0523", "at": 3, "replaced": "a+b+c", "repeated": "ababab", "reversed": "cba", "trimmed": "x", "ltrimmed": "y", "rtrimmed": "y", "parts": ["a", "b", "c"], "starts": true, "ends": false}

-- name: regular expressions over keys
SELECT REGEXP_CONTAINS(SAFE_CONVERT_BYTES_TO_STRING(_key), r'^phone#[0-9a-f]{8}#') AS eight_hex,
       REGEXP_EXTRACT(SAFE_CONVERT_BYTES_TO_STRING(_key), r'#([0-9a-f]+)#') AS device,
       REGEXP_EXTRACT(_key, b'[0-9]{8}$') AS day,
       REGEXP_REPLACE(SAFE_CONVERT_BYTES_TO_STRING(_key), r'#', '/') AS path
FROM mobile WHERE _key LIKE 'phone#%' AND _key LIKE '%0502';
{"eight_hex": true, "device": "4c410523", "day": "20200502", "path": "phone/4c410523/20200502"}
{"eight_hex": false, "device": "5c10102", "day": "20200502", "path": "phone/5c10102/20200502"}

-- name: array functions and subscripts
SELECT ARRAY_LENGTH(SPLIT('a#b#c', '#')) AS n, SPLIT('a#b#c', '#')[OFFSET(0)] AS first,
       SPLIT('a#b#c', '#')[ORDINAL(3)] AS third, SPLIT('a#b#c', '#')[SAFE_OFFSET(5)] AS missing,
       ARRAY_REVERSE([1, 2, 3]) AS reversed, ARRAY_FIRST([4, 5]) AS head, ARRAY_LAST([4, 5]) AS last,
       ARRAY_SLICE([1, 2, 3, 4, 5], 1, 3) AS middle, ARRAY_TO_STRING(['a', 'b', 'c'], '-') AS joined,
       [1, 2] || [3] AS concatenated
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"n": 3, "first": "a", "third": "c", "missing": null, "reversed": [3, 2, 1], "head": 4, "last": 5, "middle": [2, 3, 4], "joined": "a-b-c", "concatenated": [1, 2, 3]}

-- name: time functions on a cell's timestamp
SELECT _timestamp AS at, UNIX_MILLIS(_timestamp) AS millis, UNIX_SECONDS(_timestamp) AS seconds,
       TIMESTAMP_TRUNC(_timestamp, HOUR) AS hour, TIMESTAMP_TRUNC(_timestamp, MONTH) AS month,
       EXTRACT(YEAR FROM _timestamp) AS year, EXTRACT(DAYOFWEEK FROM _timestamp) AS weekday,
       EXTRACT(MILLISECOND FROM _timestamp) AS ms, FORMAT_TIMESTAMP('%Y/%m/%d %H:%M:%S', _timestamp) AS text,
       TIMESTAMP_ADD(_timestamp, INTERVAL 15 MINUTE) AS later,
       TIMESTAMP_DIFF(TIMESTAMP '2015-03-02 00:00:00+00', _timestamp, HOUR) AS hours_left,
       TIMESTAMP_MILLIS(1425213901002) = _timestamp AS same
FROM UNPACK((SELECT _key, METRIC FROM battery(with_history => TRUE)))
WHERE _key = 'BATTERY#Jo#20150301124501002';
{"at": "2015-03-01T12:45:01.002000Z", "millis": 1425213901002, "seconds": 1425213901, "hour": "2015-03-01T12:00:00.000000Z", "month": "2015-03-01T00:00:00.000000Z", "year": 2015, "weekday": 1, "ms": 2, "text": "2015/03/01 12:45:01", "later": "2015-03-01T13:00:01.002000Z", "hours_left": 11, "same": true}

-- name: timestamps and dates from literals and text
SELECT TIMESTAMP('2021-03-05 12:34:56+00') AS parsed, TIMESTAMP_SECONDS(1614947696) AS from_seconds,
       TIMESTAMP_SUB(TIMESTAMP '2021-03-05 00:00:00', INTERVAL 1 DAY) AS day_before,
       TIMESTAMP_TRUNC(TIMESTAMP '2021-03-05 12:34:56', WEEK) AS week,
       CAST(TIMESTAMP '2021-03-05 12:34:56' AS STRING) AS text, CAST('2021-03-05' AS DATE) AS day,
       EXTRACT(DAY FROM DATE '2021-03-05') AS day_of_month, DATE '2021-02-28' + 1 AS next_day,
       CURRENT_TIMESTAMP() > TIMESTAMP '2024-01-01 00:00:00' AS now_is_later
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"parsed": "2021-03-05T12:34:56.000000Z", "from_seconds": "2021-03-05T12:34:56.000000Z", "day_before": "2021-03-04T00:00:00.000000Z", "week": "2021-02-28T00:00:00.000000Z", "text": "2021-03-05 12:34:56+00", "day": "2021-03-05", "day_of_month": 5, "next_day": "2021-03-01", "now_is_later": true}

-- name: conditional expressions
SELECT IF(stats_summary['connected_wifi'] = b'1', 'wifi', 'other') AS link,
       IFNULL(stats_summary['connected_cell'], b'-') AS cell,
       COALESCE(stats_summary['connected_wifi'], stats_summary['connected_cell']) AS first_known,
       NULLIF(stats_summary['os_build'], b'PQ2A.190401.002') AS unusual_build,
       CASE SAFE_CONVERT_BYTES_TO_STRING(stats_summary['connected_cell']) WHEN '1' THEN 'on' WHEN '0' THEN 'off' ELSE 'unknown' END AS cell_state
FROM mobile WHERE _key LIKE 'phone#5c%';
{"link": "wifi", "cell": "-", "first_known": "1", "unusual_build": null, "cell_state": "unknown"}
{"link": "other", "cell": "1", "first_known": "0", "unusual_build": "PQ2A.190406.000", "cell_state": "on"}

-- name: arithmetic and math functions
SELECT ABS(-3) AS a, MOD(7, 3) AS m, MOD(-7, 3) AS neg_m, DIV(7, 2) AS d, 7 / 2 AS q, ROUND(2.5) AS r,
       ROUND(-2.5) AS neg_r, ROUND(3.14159, 2) AS r2, FLOOR(1.7) AS f, CEIL(1.2) AS c, SQRT(16) AS s,
       POW(2, 10) AS p, GREATEST(1, 5, 3) AS g, LEAST(4, 2, 8) AS l, SIGN(-4) AS sg, 2 + 3 * 4 AS precedence
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"a": 3, "m": 1, "neg_m": -1, "d": 3, "q": 3.5, "r": 3, "neg_r": -3, "r2": 3.14, "f": 1, "c": 2, "s": 4, "p": 1024, "g": 5, "l": 2, "sg": -1, "precedence": 14}

-- name: bitwise operators on integers and bytes
SELECT 12 & 10 AS b_and, 12 | 10 AS b_or, 12 ^ 10 AS b_xor, ~0 AS b_not, 1 << 10 AS shl, 1024 >> 3 AS shr,
       -1 >> 60 AS unsigned_shr, 1 << 64 AS shifted_out, TO_HEX(b'\x0f\xf0' & b'\xff\x00') AS bytes_and,
       TO_HEX(~b'\x0f') AS bytes_not, TO_HEX(b'\x01\x02' << 8) AS bytes_shl, TO_HEX(b'\x80\x00' >> 4) AS bytes_shr
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"b_and": 8, "b_or": 14, "b_xor": 6, "b_not": -1, "shl": 1024, "shr": 128, "unsigned_shr": 15, "shifted_out": 0, "bytes_and": "0f00", "bytes_not": "f0", "bytes_shl": "0200", "bytes_shr": "0800"}

-- name: three-valued logic with NULL
SELECT NULL AND FALSE AS a, NULL AND TRUE AS b, NULL OR TRUE AS c, NULL OR FALSE AS d, NOT CAST(NULL AS BOOL) AS e,
       NULL = NULL AS f, NULL IS NULL AS g, 1 IN (1, NULL) AS h, 1 IN (2, NULL) AS i, 1 NOT IN (2, NULL) AS j,
       CAST(NULL AS BOOL) IS NOT FALSE AS k
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"a": false, "b": null, "c": true, "d": null, "e": null, "f": null, "g": true, "h": true, "i": null, "j": null, "k": true}

-- name: a condition that is NULL drops the row, as FALSE does
SELECT _key FROM mobile WHERE stats_summary['connected_wifi'] = b'1' OR stats_summary['connected_cell'] = b'1';
{"_key": "phone#4c410523#20200501"}
{"_key": "phone#5c10102#20200501"}
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200501"}

-- name: NOT of NULL is NULL, so missing columns match neither a test nor its negation
SELECT _key FROM mobile WHERE NOT (stats_summary['connected_wifi'] = b'1');
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200502"}

-- name: NOT LIKE over values
SELECT _key FROM mobile WHERE stats_summary['os_build'] NOT LIKE '%.002';
{"_key": "phone#4c410523#20200501"}
{"_key": "phone#4c410523#20200502"}
{"_key": "phone#5c10102#20200502"}

# ---------------------------------------------------------------- parameters

-- name: a STRING parameter
-- params: @player='Corrie'
SELECT _key, GAME['KDA'] AS kda FROM games WHERE STARTS_WITH(SAFE_CONVERT_BYTES_TO_STRING(_key), CONCAT('LoL#', @player, '#'));
{"_key": "LoL#Corrie#20150301", "kda": "4.25"}
{"_key": "LoL#Corrie#20150303", "kda": "9.50"}

-- name: INT64 parameters in a condition, LIMIT and OFFSET
-- params: @min=50 @n=2 @skip=1
SELECT _key, CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64) AS level
FROM battery WHERE CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64) >= @min
ORDER BY level LIMIT @n OFFSET @skip;
{"_key": "BATTERY#Corrie#20150301124501003", "level": 96}
{"_key": "BATTERY#Corrie#20150301124501001", "level": 98}

-- name: a FLOAT64 parameter
-- params: @warm=9.55
SELECT _key, CAST(CAST(measurements['temperature'] AS STRING) AS FLOAT64) AS temperature
FROM weather_balloons WHERE CAST(CAST(measurements['temperature'] AS STRING) AS FLOAT64) > @warm;
{"_key": "us-west2#3698#2021-03-05-1200", "temperature": 9.6}
{"_key": "us-west2#3698#2021-03-05-1201", "temperature": 9.7}
{"_key": "us-west2#3698#2021-03-05-1204", "temperature": 9.6}
{"_key": "us-west2#3701#2021-03-05-1200", "temperature": 10.1}

-- name: a BOOL parameter
-- params: @won=TRUE
SELECT COUNT(*) AS games FROM games WHERE (GAME['WIN'] = b'true') = @won;
{"games": 4}

-- name: a TIMESTAMP parameter against UNPACK's timestamps
-- params: @since=TIMESTAMP '2015-03-01 12:45:01.003'
SELECT _key, METRIC['PERCENTAGE'] AS level
FROM UNPACK((SELECT _key, METRIC FROM battery(with_history => TRUE)))
WHERE _timestamp >= @since;
{"_key": "BATTERY#Corrie#20150301124501003", "level": "96"}
{"_key": "BATTERY#Sam#20150301124501004", "level": "43"}
{"_key": "BATTERY#Sam#20150301124501005", "level": "38"}

-- name: a DATE parameter turned into a key suffix
-- params: @day=DATE '2020-05-02'
SELECT _key FROM mobile WHERE ENDS_WITH(_key, CAST(REPLACE(CAST(@day AS STRING), '-', '') AS BYTES));
{"_key": "phone#4c410523#20200502"}
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200502"}

-- name: a query without FROM echoes its typed parameters (Google's Node client tests do)
-- params: @i=7 @s='text' @b=b'bytes' @f=1.5 @t=TRUE @ts=TIMESTAMP '2020-05-01 00:00:00' @d=DATE '2020-05-02'
SELECT @i AS i, @s AS s, @b AS b, @f AS f, @t AS t, @ts AS ts, @d AS d, @i * 2 AS twice;
{"i": 7, "s": "text", "b": "bytes", "f": 1.5, "t": true, "ts": "2020-05-01T00:00:00.000000Z", "d": "2020-05-02", "twice": 14}

-- name: a query without FROM cannot select *
-- error: SELECT * must have a FROM clause
SELECT *;

-- name: a parameter the query was not given
-- error: Query parameter 'device' not found
SELECT _key FROM mobile WHERE _key = @device;

# ---------------------------------------------------------------- errors

-- name: an unknown function names itself
-- error: Function not found: FOO
SELECT FOO(_key) FROM mobile;

-- name: a wrong argument type names the function and the types
-- error: No matching signature for function LENGTH for argument types: INT64
SELECT LENGTH(5) AS n FROM mobile;

-- name: an unknown column
-- error: Unrecognized name: nope [at 1:14]
SELECT _key, nope FROM mobile;

-- name: an unknown table
-- error: Table not found: nope
SELECT _key FROM nope;

-- name: joins are refused
-- error: Joins are not supported
SELECT m._key FROM mobile AS m JOIN games AS g ON m._key = g._key;

-- name: set operations are refused
-- error: Set operations (UNION, INTERSECT, EXCEPT) are not supported
SELECT _key FROM mobile UNION ALL SELECT _key FROM games;

-- name: subqueries are refused
-- error: Subqueries are not supported
SELECT _key FROM mobile WHERE _key IN (SELECT _key FROM games);

-- name: WITH is refused
-- error: WITH clauses are not supported
WITH recent AS (SELECT _key FROM mobile) SELECT _key FROM recent;

-- name: a syntax error gives its line and column
-- error: Syntax error: Unexpected keyword "FROM" [at 2:1]
SELECT _key,
FROM mobile;

-- name: BYTES do not cast to INT64 directly
-- error: Invalid cast from BYTES to INT64
SELECT CAST(stats_summary['os_build'] AS INT64) AS n FROM mobile;

-- name: a cast of BYTES to a number shows the way through STRING
-- error: Invalid cast from BYTES to FLOAT64; BYTES casts only to STRING, so cast through it: CAST(CAST(... AS STRING) AS FLOAT64)
SELECT CAST(stats_summary['connected_cell'] AS FLOAT64) AS n FROM mobile;

-- name: a value that does not convert fails the query
-- error: Bad INT64 value: PQ2A.190405.004
SELECT CAST(CAST(stats_summary['os_build'] AS STRING) AS INT64) AS n FROM mobile;

-- name: a column neither grouped nor aggregated
-- error: SELECT list expression references column _key which is neither grouped nor aggregated
SELECT _key, COUNT(*) AS n FROM mobile;

-- name: an array index out of bounds
-- error: out of bounds
SELECT SPLIT('a#b', '#')[OFFSET(5)] AS x FROM mobile;

# ---------------------------------------------------------------- statistical and bitwise aggregates
# The reference pages' worked examples over the samples table, one group
# per example (seeds.cbt), each with the page's printed answer. NaN and the
# infinities print as "nan", "inf" and "-inf".

-- name: CORR of the page's pairs: NULL pairs passed over, fewer than two NULL, no variance NaN
SELECT SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS example,
       CORR(CAST(CAST(samples['y'] AS STRING) AS FLOAT64), CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS results
FROM samples WHERE _key LIKE 'corr-%' GROUP BY example ORDER BY example;
{"example": "corr-1", "results": 0.6546536707079772}
{"example": "corr-2", "results": 1}
{"example": "corr-3", "results": null}
{"example": "corr-4", "results": null}
{"example": "corr-5", "results": "nan"}
{"example": "corr-6", "results": "nan"}

-- name: COVAR_POP and COVAR_SAMP of the page's pairs: one pair gives 0 and NULL
SELECT SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS example,
       COVAR_POP(CAST(CAST(samples['y'] AS STRING) AS FLOAT64), CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS pop,
       COVAR_SAMP(CAST(CAST(samples['y'] AS STRING) AS FLOAT64), CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS samp
FROM samples WHERE _key LIKE 'covar-%' GROUP BY example ORDER BY example;
{"example": "covar-1", "pop": -1.6800000000000002, "samp": -2.1}
{"example": "covar-2", "pop": 0, "samp": null}
{"example": "covar-3", "pop": null, "samp": null}
{"example": "covar-4", "pop": -1, "samp": -1.3333333333333333}
{"example": "covar-5", "pop": "nan", "samp": "nan"}

-- name: STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP and their aliases over the page's series
SELECT SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS example,
       STDDEV_POP(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS stddev_pop,
       STDDEV_SAMP(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS stddev_samp,
       STDDEV(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS stddev,
       VAR_POP(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS var_pop,
       VAR_SAMP(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS var_samp,
       VARIANCE(CAST(CAST(samples['x'] AS STRING) AS FLOAT64)) AS variance
FROM samples WHERE _key LIKE 'var-%' GROUP BY example ORDER BY example;
{"example": "var-1", "stddev_pop": 3.265986323710904, "stddev_samp": 4, "stddev": 4, "var_pop": 10.666666666666666, "var_samp": 16, "variance": 16}
{"example": "var-2", "stddev_pop": 2, "stddev_samp": 2.8284271247461903, "stddev": 2.8284271247461903, "var_pop": 4, "var_samp": 8, "variance": 8}
{"example": "var-3", "stddev_pop": 0, "stddev_samp": null, "stddev": null, "var_pop": 0, "var_samp": null, "variance": null}
{"example": "var-4", "stddev_pop": null, "stddev_samp": null, "stddev": null, "var_pop": null, "var_samp": null, "variance": null}
{"example": "var-5", "stddev_pop": "nan", "stddev_samp": "nan", "stddev": "nan", "var_pop": "nan", "var_samp": "nan", "variance": "nan"}

-- name: BIT_AND and BIT_OR of 0xF001 and 0x00A1
SELECT BIT_AND(CAST(CAST(samples['x'] AS STRING) AS INT64)) AS bit_and,
       BIT_OR(CAST(CAST(samples['x'] AS STRING) AS INT64)) AS bit_or
FROM samples WHERE _key LIKE 'bits-1#%';
{"bit_and": 1, "bit_or": 61601}

-- name: BIT_XOR of the page's two lists
SELECT SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS example,
       BIT_XOR(CAST(CAST(samples['x'] AS STRING) AS INT64)) AS results
FROM samples WHERE _key LIKE 'bits-2#%' OR _key LIKE 'bits-3#%' GROUP BY example ORDER BY example;
{"example": "bits-2", "results": 4860}
{"example": "bits-3", "results": 5678}

-- name: a statistical aggregate of a STRING names the function
-- error: No matching signature for aggregate function STDDEV for argument types: STRING
SELECT STDDEV(CAST(samples['x'] AS STRING)) AS s FROM samples;

-- name: LPAD and RPAD of the reference's examples, and a key cut to its device
SELECT LPAD('12345', 8, 'aba') AS lpad, RPAD('12345', 8, 'aba') AS rpad, LPAD('hello world', 7) AS cut,
       LEFT(CAST(_key AS STRING), 5) AS kind, RIGHT(CAST(_key AS STRING), 8) AS day
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"lpad": "aba12345", "rpad": "12345aba", "cut": "hello w", "kind": "phone", "day": "20200501"}

-- name: INSTR forward, backward and the n-th overlapping match
SELECT INSTR('banana', 'an', 1, 2) AS second, INSTR('banana', 'an', -1, 1) AS last_one,
       INSTR('helloooo', 'oo', 1, 2) AS overlapping, INSTR(CAST(_key AS STRING), '#', 1, 2) AS second_hash
FROM mobile WHERE _key = 'phone#4c410523#20200501';
{"second": 4, "last_one": 4, "overlapping": 6, "second_hash": 15}

# ---------------------------------------------------------------- query features
-- name: COUNT(DISTINCT) counts the players of each game once
SELECT SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS game,
       COUNT(DISTINCT SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)]) AS players, COUNT(*) AS games_played
FROM games GROUP BY game ORDER BY game;
{"game": "LoL", "players": 3, "games_played": 4}
{"game": "Starcraft", "players": 1, "games_played": 1}

-- name: SELECT * EXCEPT and REPLACE
SELECT * EXCEPT (_key) REPLACE (GAME['KDA'] AS GAME) FROM games WHERE _key = 'LoL#Jo#20150302';
{"GAME": "7.00"}

-- name: EXCEPT names a column that the table does not have
-- error: Column nope in SELECT * EXCEPT list does not exist
SELECT * EXCEPT (nope) FROM games;

-- name: window functions over one balloon's minutes: rank, change, moving average
SELECT SUBSTR(CAST(_key AS STRING), 15) AS minute,
       RANK() OVER (ORDER BY CAST(CAST(measurements['pressure'] AS STRING) AS INT64) DESC) AS pressure_rank,
       CAST(CAST(measurements['pressure'] AS STRING) AS INT64)
         - LAG(CAST(CAST(measurements['pressure'] AS STRING) AS INT64)) OVER w AS change,
       AVG(CAST(CAST(measurements['humidity'] AS STRING) AS INT64)) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
         AS humidity_avg
FROM weather_balloons WHERE _key LIKE 'us-west2#3698#%'
WINDOW w AS (ORDER BY _key);
{"minute": "2021-03-05-1200", "pressure_rank": 4, "change": null, "humidity_avg": 61}
{"minute": "2021-03-05-1201", "pressure_rank": 5, "change": -436, "humidity_avg": 61.5}
{"minute": "2021-03-05-1202", "pressure_rank": 3, "change": 1870, "humidity_avg": 60}
{"minute": "2021-03-05-1203", "pressure_rank": 1, "change": 33, "humidity_avg": 62}
{"minute": "2021-03-05-1204", "pressure_rank": 2, "change": -4, "humidity_avg": 64.5}

-- name: a player's games numbered, and the share of each game's wins
SELECT _key, ROW_NUMBER() OVER (PARTITION BY SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)] ORDER BY _key) AS nth,
       COUNTIF(CAST(GAME['WIN'] AS STRING) = 'true') OVER (PARTITION BY SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)])
         AS game_wins
FROM games;
{"_key": "LoL#Corrie#20150301", "nth": 1, "game_wins": 3}
{"_key": "LoL#Corrie#20150303", "nth": 2, "game_wins": 3}
{"_key": "LoL#Jo#20150302", "nth": 1, "game_wins": 3}
{"_key": "LoL#Sam#20150302", "nth": 1, "game_wins": 3}
{"_key": "Starcraft#Eriko#20150303", "nth": 1, "game_wins": 1}

-- name: a numbering function needs the window's ORDER BY
-- error: Window ORDER BY is required for analytic function RANK
SELECT RANK() OVER () AS r FROM games;

-- name: pipe syntax: a balloon's readings filtered, extended, aggregated and filtered again
FROM weather_balloons
|> WHERE _key LIKE 'us-west2#%'
|> EXTEND SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)] AS balloon,
          CAST(CAST(measurements['pressure'] AS STRING) AS INT64) AS pressure
|> AGGREGATE COUNT(*) AS readings, MAX(pressure) AS highest GROUP BY balloon
|> WHERE readings > 1;
{"balloon": "3698", "readings": 5, "highest": 96025}

-- name: pipe syntax: select, order and limit
FROM games |> SELECT _key, CAST(GAME['KDA'] AS STRING) AS kda |> ORDER BY kda DESC |> LIMIT 2;
{"_key": "LoL#Corrie#20150303", "kda": "9.50"}
{"_key": "LoL#Jo#20150302", "kda": "7.00"}

-- name: pipe syntax: SELECT computes per row
-- error: Aggregate function COUNT not allowed in pipe SELECT; use |> AGGREGATE
FROM games |> SELECT COUNT(*) AS n;

-- name: dates of a balloon's readings: the day, a week later, the month's last day
SELECT DATE(_timestamp) AS day, DATE_ADD(DATE(_timestamp), INTERVAL 7 DAY) AS week_later,
       LAST_DAY(DATE(_timestamp)) AS month_end, FORMAT_DATE('%b %d %Y', DATE(_timestamp)) AS label
FROM UNPACK((SELECT _key, measurements FROM weather_balloons(with_history => TRUE)))
WHERE _key = 'us-west2#3698#2021-03-05-1200' LIMIT 1;
{"day": "2021-03-05", "week_later": "2021-03-12", "month_end": "2021-03-31", "label": "Mar 05 2021"}

-- name: JSON built and read back; a string's case and soundex
SELECT TO_JSON_STRING([CAST(GAME['KDA'] AS STRING), CAST(GAME['WIN'] AS STRING)]) AS json,
       JSON_VALUE(TO_JSON_STRING([CAST(GAME['KDA'] AS STRING)]), '$[0]') AS kda,
       INITCAP(SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)]) AS player, SOUNDEX(SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)]) AS sound
FROM games WHERE _key = 'LoL#Jo#20150302';
{"json": "[\"7.00\",\"true\"]", "kda": "7.00", "player": "Jo", "sound": "J000"}

-- name: IN UNNEST reads only the array's keys
SELECT _key FROM mobile WHERE _key IN UNNEST([b'phone#5c10102#20200502', b'tablet#a0b81f74#20200501']);
{"_key": "phone#5c10102#20200502"}
{"_key": "tablet#a0b81f74#20200501"}

# ---------------------------------------------------------------- the reference's function examples
-- name: string functions of the reference
SELECT INITCAP('Hello World-everyone!') AS initcap, TRANSLATE('This is a cookie', 'sco', 'zku') AS translated,
       SOUNDEX('Ashcraft') AS soundex, ASCII('abcd') AS ascii, FORMAT('|%10d|', 11) AS formatted,
       FORMAT("%'d", 123456789) AS grouped, REGEXP_EXTRACT_ALL('Try `func(x)` or `func(y)`', '`(.+?)`') AS calls,
       REGEXP_INSTR('ab@cd-ef', '@[^-]*') AS at, NORMALIZE_AND_CASEFOLD('The Club') AS folded;
{"initcap": "Hello World-Everyone!", "translated": "Thiz iz a kuukie", "soundex": "A261", "ascii": 97, "formatted": "|        11|", "grouped": "123,456,789", "calls": ["func(x)", "func(y)"], "at": 3, "folded": "the club"}

-- name: date functions of the reference
SELECT DATE(2016, 12, 25) AS d, DATE_ADD(DATE '2008-12-25', INTERVAL 5 DAY) AS added,
       DATE_DIFF(DATE '2010-07-07', DATE '2008-12-25', DAY) AS days, DATE_TRUNC(DATE '2017-11-05', WEEK(MONDAY)) AS week,
       LAST_DAY(DATE '2008-11-25') AS month_end, FORMAT_DATE('%x', DATE '2008-12-25') AS formatted,
       PARSE_DATE('%A %b %e %Y', 'Thursday Dec 25 2008') AS parsed, UNIX_DATE(DATE '2008-12-25') AS unix,
       GENERATE_DATE_ARRAY('2016-10-05', '2016-10-08') AS days_between;
{"d": "2016-12-25", "added": "2008-12-30", "days": 559, "week": "2017-10-30", "month_end": "2008-11-30", "formatted": "12/25/08", "parsed": "2008-12-25", "unix": 14238, "days_between": ["2016-10-05", "2016-10-06", "2016-10-07", "2016-10-08"]}

-- name: JSON functions over text
SELECT JSON_VALUE('{"name": "Jakob", "age": "6"}', '$.age') AS age,
       JSON_QUERY('{"class": {"students": [{"name": "Jane"}]}}', '$.class.students[0]') AS student,
       JSON_QUERY_ARRAY('[1, "x"]') AS items, TO_JSON_STRING(STRUCT(1 AS id, [10, 20] AS coordinates)) AS json;
{"age": "6", "student": "{\"name\":\"Jane\"}", "items": ["1", "\"x\""], "json": "{\"id\":1,\"coordinates\":[10,20]}"}

-- name: array functions and lambdas of the reference
SELECT ARRAY_FILTER([0, 2, 3], (e, i) -> e > i) AS filtered, ARRAY_TRANSFORM([1, 4, 3], (e, i) -> e * i) AS transformed,
       ARRAY_INCLUDES_ALL([1, 2, 3], [1, 3]) AS all_in, ARRAY_IS_DISTINCT([1, 1, 2]) AS distinct_elements,
       ARRAY_LAST_N([1, 2, 3, 4, 5], 2) AS last_two, ARRAY_OFFSETS(['a', 'b', 'a'], 'a') AS offsets;
{"filtered": [2, 3], "transformed": [0, 4, 6], "all_in": true, "distinct_elements": false, "last_two": [4, 5], "offsets": [0, 2]}

-- name: errors caught, and vectors
SELECT IFERROR(1 / 0, -1) AS caught, ISERROR(1 / 0) AS failed, NULLIFERROR(1 / 0) AS nulled,
       SAFE.SUBSTR('foo', 0, -2) AS safe, EUCLIDEAN_DISTANCE([1.0, 2.0], [3.0, 5.0]) AS distance,
       TO_VECTOR32(b'\x3f\x80\x00\x00\x40\x00\x00\x00') AS vector;
{"caught": -1, "failed": true, "nulled": null, "safe": null, "distance": 3.605551275463989, "vector": [1, 2]}

-- name: approximate aggregates over the battery readings
SELECT APPROX_COUNT_DISTINCT(SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)]) AS users,
       APPROX_QUANTILES(CAST(CAST(METRIC['PERCENTAGE'] AS STRING) AS INT64), 2) AS quantiles,
       APPROX_TOP_COUNT(SPLIT(CAST(_key AS STRING), '#')[OFFSET(1)], 1) AS top
FROM battery;
{"users": 3, "quantiles": [38, 54, 98], "top": [{"value": "Corrie", "count": 2}]}

# ---------------------------------------------------------------- places, as geographies
# tourist_points_of_interest holds WKT or GeoJSON text (Bigtable's
# geospatial guide); ST_GEOGFROM reads either. Distances are on a sphere of
# the Earth's mean radius.

-- name: distances from the Eiffel Tower to each place, nearest first
SELECT _key, CAST(poi_data['name'] AS STRING) AS name,
       ROUND(ST_DISTANCE(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)), ST_GEOGPOINT(2.2945, 48.8584))) AS meters
FROM tourist_points_of_interest ORDER BY meters, _key;
{"_key": "p1", "name": "Eiffel Tower", "meters": 0}
{"_key": "p5", "name": "Seine walk", "meters": 0}
{"_key": "p3", "name": "Place Charles de Gaulle", "meters": 1648}
{"_key": "p2", "name": "Louvre Museum", "meters": 3167}
{"_key": "p4", "name": "Notre-Dame", "meters": 4097}

-- name: places within two kilometres, whatever their shape
SELECT _key FROM tourist_points_of_interest
WHERE ST_DWITHIN(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)), ST_GEOGPOINT(2.2945, 48.8584), 2000);
{"_key": "p1"}
{"_key": "p3"}
{"_key": "p5"}

-- name: each place's kind, vertices, length and area
FROM tourist_points_of_interest
|> EXTEND ST_GEOGFROM(CAST(poi_data['location'] AS STRING)) AS g
|> SELECT _key, ST_GEOMETRYTYPE(g) AS kind, ST_NUMPOINTS(g) AS points, ROUND(ST_LENGTH(g)) AS length,
          ROUND(ST_AREA(g)) AS area;
{"_key": "p1", "kind": "ST_Point", "points": 1, "length": 0, "area": 0}
{"_key": "p2", "kind": "ST_Point", "points": 1, "length": 0, "area": 0}
{"_key": "p3", "kind": "ST_Polygon", "points": 5, "length": 0, "area": 12727}
{"_key": "p4", "kind": "ST_Point", "points": 1, "length": 0, "area": 0}
{"_key": "p5", "kind": "ST_LineString", "points": 3, "length": 4440, "area": 0}

-- name: the points' centroid, extent and count
SELECT ST_ASTEXT(ST_CENTROID_AGG(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)))) AS centroid,
       ST_EXTENT(ST_GEOGFROM(CAST(poi_data['location'] AS STRING))) AS box,
       ARRAY_LENGTH(ST_ACCUM(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)))) AS n
FROM tourist_points_of_interest WHERE ST_DIMENSION(ST_GEOGFROM(CAST(poi_data['location'] AS STRING))) = 0;
{"centroid": "POINT(2.32733396057399 48.8575024396558)", "box": {"xmin": 2.2945, "ymin": 48.853, "xmax": 2.3499, "ymax": 48.8611}, "n": 3}

-- name: clusters of places within 1.5 km of each other
SELECT _key, ST_CLUSTERDBSCAN(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)), 1500, 2) OVER () AS cluster
FROM tourist_points_of_interest;
{"_key": "p1", "cluster": 0}
{"_key": "p2", "cluster": 0}
{"_key": "p3", "cluster": null}
{"_key": "p4", "cluster": 0}
{"_key": "p5", "cluster": 0}

-- name: points as GeoJSON and S2 cells, and what a buffer meets
SELECT _key, ST_ASGEOJSON(ST_GEOGFROM(CAST(poi_data['location'] AS STRING))) AS json,
       S2_CELLIDFROMPOINT(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)), level => 13) AS cell,
       ST_INTERSECTS(ST_GEOGFROM(CAST(poi_data['location'] AS STRING)), ST_BUFFER(ST_GEOGPOINT(2.3376, 48.8611), 100)) AS near_louvre
FROM tourist_points_of_interest WHERE _key IN ('p1', 'p2');
{"_key": "p1", "json": "{ \"type\": \"Point\", \"coordinates\": [2.2945, 48.8584] }", "cell": 5180951446379560960, "near_louvre": false}
{"_key": "p2", "json": "{ \"type\": \"Point\", \"coordinates\": [2.3376, 48.8611] }", "cell": 5180949522234212352, "near_louvre": true}

-- name: a query cannot return a GEOGRAPHY
-- error: Column g is a GEOGRAPHY, which a query cannot return
SELECT ST_GEOGPOINT(1, 2) AS g;
