// Fault rules (lbt serve --faults FILE) through Google's Node client: the
// client's own retry and error paths meet the failures a test suite asks
// for. MutateRows is retried through UNAVAILABLE and succeeds, with every
// row written once; failed entries of a batch are retried alone; a read
// stream broken after N rows is resumed and returns every row once, and
// so is a query's (ExecuteQuery, from its resume token);
// PERMISSION_DENIED reaches the caller; a latency rule
// shows in the call's duration; the file rewritten between steps takes
// effect for the next call.
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=h:p node faults.mjs RULES_FILE SERVER_LOG
// where lbt serve runs with --faults RULES_FILE, its stderr in SERVER_LOG.
// One line per check; exit 1 if one failed.

import {readFileSync, renameSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, codeOf, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');

const [rulesFile, serverLog] = process.argv.slice(2);
const bigtable = new Bigtable({projectId: 'p', metricsEnabled: false});
const table = bigtable.instance('i').table('faults');

const count = (pattern) => (readFileSync(serverLog, 'utf8').match(pattern) || []).length;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Rewrites the rule file (a new file moved over the old) and waits, 10 s
// at most, for the server to say it read it.
let loads = 1;  // the server read the file once at start
async function rules(list) {
  writeFileSync(`${rulesFile}.new`, JSON.stringify(list));
  renameSync(`${rulesFile}.new`, rulesFile);
  loads++;
  for (let waited = 0; count(/fault rules? from /g) < loads; waited += 50) {
    if (waited > 10000) throw new Error(`lbt serve did not re-read ${rulesFile}`);
    await sleep(50);
  }
}

const rows = Array.from({length: 20}, (_, i) => ({key: `k${String(i).padStart(2, '0')}`, data: {cf: {q: `v${i}`}}}));

await table.create({families: ['cf']});

await check('MutateRows is retried through two UNAVAILABLE answers and every row is written once', async () => {
  await rules([{rpc: 'MutateRows', table: 'faults', code: 'UNAVAILABLE', times: 2}]);
  const before = count(/fails with UNAVAILABLE/g);
  await table.insert(rows);
  expect('faults fired', count(/fails with UNAVAILABLE/g) - before, 2);
  const [read] = await table.getRows({prefix: 'k'});
  expect('rows', read.map((r) => r.id), rows.map((r) => r.key));
});

await check('entries failed in a batch are retried, and only they', async () => {
  // Twice: the first call fails the b entries among all, the retry fails
  // them again, and it holds the b entries alone.
  await rules([{rpc: 'MutateRows', table: 'faults', row_prefix: 'b', entries: true, code: 'UNAVAILABLE', times: 2}]);
  const batch = Array.from({length: 10}, (_, i) => ({key: `${i % 2 ? 'b' : 'a'}${i}`, data: {cf: {q: 'x'}}}));
  const before = readFileSync(serverLog, 'utf8').length;
  await table.insert(batch);
  const lines = readFileSync(serverLog, 'utf8').slice(before).match(/fails \d+ of \d+ entries/g) || [];
  expect('entries failed per call', lines, ['fails 5 of 10 entries', 'fails 5 of 5 entries']);
  const [read] = await table.getRows({prefixes: ['a', 'b']});
  expect('rows', read.map((r) => r.id).sort(), batch.map((r) => r.key).sort());
});

await check('a read stream broken after 5 rows resumes, every row once', async () => {
  await rules([{rpc: 'ReadRows', table: 'faults', after_rows: 5, code: 'UNAVAILABLE', times: 1}]);
  const before = count(/fails with UNAVAILABLE after 5 rows/g);
  const [read] = await table.getRows({prefix: 'k'});
  expect('faults fired', count(/fails with UNAVAILABLE after 5 rows/g) - before, 1);
  expect('rows', read.map((r) => r.id), rows.map((r) => r.key));
});

await check('a query stream broken after 5 rows resumes from its token, every row once', async () => {
  await rules([{rpc: 'ExecuteQuery', after_rows: 5, code: 'UNAVAILABLE', times: 1}]);
  const before = count(/ExecuteQuery fails with UNAVAILABLE after 5 rows/g);
  const instance = bigtable.instance('i');
  const [statement] = await instance.prepareStatement({query: "SELECT _key FROM faults WHERE STARTS_WITH(_key, 'k')"});
  const keys = [];
  for await (const row of instance.createExecuteQueryStream({preparedStatement: statement})) {
    keys.push(Buffer.from(row.get(0)).toString());
  }
  expect('faults fired', count(/ExecuteQuery fails with UNAVAILABLE after 5 rows/g) - before, 1);
  expect('rows', keys, rows.map((r) => r.key));
});

await check('PERMISSION_DENIED reaches the caller, with the rule message', async () => {
  await rules([{rpc: 'ReadRows', table: 'faults', code: 'PERMISSION_DENIED', message: 'no access for the test'}]);
  let error;
  try {
    await table.getRows();
  } catch (e) {
    error = e;
  }
  expect('code', error?.code, 7);
  if (!String(error?.message).includes('no access for the test')) throw new Error(`message: ${error?.message}`);
});

await check('a latency rule shows in the call duration, and the call succeeds', async () => {
  await rules([{rpc: 'ReadRows', latency_ms: 400}]);
  const started = Date.now();
  const [read] = await table.getRows({prefix: 'k'});
  expect('rows', read.length, rows.length);
  // A delay cannot be shorter than asked: a lower bound, never flaky.
  if (Date.now() - started < 400) throw new Error(`took ${Date.now() - started} ms`);
});

await check('with the rules cleared, calls go through', async () => {
  await rules([]);
  expect('code', await codeOf(table.getRows()), 0);
});

process.exit(failed() ? 1 : 0);
