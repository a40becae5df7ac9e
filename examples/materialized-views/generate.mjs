// The weather balloons' readings (see ../weather-balloons/generate.mjs):
// balloons_tall.jsonl, one row per reading, us-west2#3698#2021-03-05-1204,
// columns m:pressure, m:temperature, m:humidity, m:altitude.
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// This lesson reads only the tall file; the generator also writes the wide
// one.

await import('../weather-balloons/generate.mjs');
