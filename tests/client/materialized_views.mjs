// Continuous materialized views through `lbt serve`, as clients use them:
// views created with the Instance Admin API (@grpc/grpc-js over
// bigtable_instance_admin.proto, from the pinned google-proto-files the
// build fetched), a random workload written through the Node library's
// handwritten API, and the views read with the library's executeQuery and
// with ReadRows naming materialized_view_name. The emulator has no views:
// the expected answer is the view's own query run directly on the table,
// once the server's maintainer has caught up (views are eventually
// consistent, as production's are).
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=h:p node materialized_views.mjs PROTOS BACKFILLED
// where table `sensors` of projects/lbt/instances/local already holds
// BACKFILLED rows (the shell wrote them before the server started). One
// line per check; exit 1 if one failed.

import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const [protos, backfilled] = process.argv.slice(2);
const INSTANCE = 'projects/lbt/instances/local';
const host = process.env.BIGTABLE_EMULATOR_HOST;
const load = file =>
  grpc.loadPackageDefinition(
      protoLoader.loadSync(file, {includeDirs: [protos], longs: String, enums: String, defaults: true, oneofs: true}));
const admin = new (load('google/bigtable/admin/v2/bigtable_instance_admin.proto').google.bigtable.admin.v2
                       .BigtableInstanceAdmin)(host, grpc.credentials.createInsecure());
const data = new (load('google/bigtable/v2/bigtable.proto').google.bigtable.v2.Bigtable)(
    host, grpc.credentials.createInsecure());
const bigtable = new Bigtable({projectId: 'lbt', metricsEnabled: false});
const instance = bigtable.instance('local');
const table = instance.table('sensors');

const call = (client, method, request) =>
    new Promise((resolve, reject) => client[method](request, (e, r) => (e ? reject(e) : resolve(r))));
const sleep = ms => new Promise(r => setTimeout(r, ms));

const BY_DEVICE = "SELECT SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(0)] AS device, COUNT(*) AS readings, " +
    "SUM(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS total, MIN(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS low, " +
    "MAX(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS high, AVG(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS mean " +
    "FROM sensors WHERE m['temp'] IS NOT NULL GROUP BY device";
const BY_NOTE = "SELECT CAST(m['note'] AS STRING) AS note, _key AS reading, CAST(m['temp'] AS STRING) AS temp " +
    "FROM sensors WHERE m['note'] IS NOT NULL ORDER BY note, reading";

// A query's rows as sorted text lines, through the library's executeQuery.
async function rows(query) {
  const [statement] = await instance.prepareStatement({query});
  const stream = instance.createExecuteQueryStream({preparedStatement: statement});
  const out = [];
  for await (const row of stream) {
    const columns = stream.getMetadata().columns;
    out.push(columns.map((c, i) => {
      const v = row.get(i);
      if (v === null || v === undefined) return 'NULL';
      if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString();
      if (typeof v === 'number') return String(Math.round(v * 1e6) / 1e6);
      return String(v);
    }).join('|'));
  }
  return out.sort();
}

// Waits until the view holds what its query returns on the table.
async function caughtUp(view, query) {
  let last;
  for (const deadline = Date.now() + 20000; Date.now() < deadline; await sleep(100)) {
    try {
      const [got, want] = [await rows(`SELECT * FROM ${view}`), await rows(query)];
      if (JSON.stringify(got) === JSON.stringify(want)) return got;
      last = new Error(`${view} differs from its query: ${got.length} rows, want ${want.length}`);
    } catch (e) {
      last = e;  // FAILED_PRECONDITION while the backfill runs
    }
  }
  throw last;
}

async function createView(id, query) {
  const op = await call(admin, 'CreateMaterializedView',
                        {parent: INSTANCE, materializedViewId: id, materializedView: {query}});
  expect(`${id}: operation done`, op.done, true);
}

// A random write, delete or increment among a few devices.
function randomMutation(random) {
  const device = ['dev1', 'dev2', 'dev3', 'dev4'][random(4)];
  const key = `${device}#${String(random(15)).padStart(2, '0')}`;
  switch (random(6)) {
    case 0:
    case 1:
      return table.insert([{key, data: {m: {temp: String(random(60) - 20)}}}]);
    case 2:
      return table.insert([{key, data: {m: {note: ['hot', 'cold', 'ok'][random(3)]}}}]);
    case 3:
      return table.row(key).deleteCells(['m:note']);
    case 4:
      return table.row(key).delete();
    default:
      return table.mutate([{key, method: 'insert', data: {m: {temp: '7', note: 'ok'}}},
                           {key: `${key}x`, method: 'insert', data: {m: {temp: String(random(9))}}}]);
  }
}

async function main() {
  let seed = 29;
  const random = n => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };

  await check('views over a table with rows are created (done operations)', async () => {
    await createView('by_device', BY_DEVICE);
    await createView('by_note', BY_NOTE);
    const listed = await call(admin, 'ListMaterializedViews', {parent: INSTANCE});
    expect('listed', listed.materializedViews.map(v => v.name),
           [`${INSTANCE}/materializedViews/by_device`, `${INSTANCE}/materializedViews/by_note`]);
  });
  await check(`the backfill brings in the ${backfilled} rows already there`, async () => {
    const got = await caughtUp('by_device', BY_DEVICE);
    const readings = got.reduce((n, line) => n + Number(line.split('|')[1]), 0);
    expect('readings counted', readings, Number(backfilled));
    await caughtUp('by_note', BY_NOTE);
  });
  await check('after a random workload through the client, both views equal their queries', async () => {
    for (let i = 0; i < 300; i++) await randomMutation(random);
    await caughtUp('by_device', BY_DEVICE);
    await caughtUp('by_note', BY_NOTE);
  });
  await check('views keep up while the workload goes on', async () => {
    let started;
    const underway = new Promise(resolve => { started = resolve; });
    const writes = (async () => {
      for (let i = 0; i < 200; i++) {
        await randomMutation(random);
        if (i === 19) started();  // the read below starts once writes flow
      }
    })();
    await underway;
    await rows('SELECT * FROM by_device');  // reads while it is kept
    await writes;
    await caughtUp('by_device', BY_DEVICE);
    await caughtUp('by_note', BY_NOTE);
  });
  await check('ReadRows with materialized_view_name: a row per group, columns as cells of family default',
              async () => {
    const got = await new Promise((resolve, reject) => {
      const keys = new Set(), qualifiers = new Set();
      let family = '';
      const stream = data.ReadRows({materializedViewName: `${INSTANCE}/materializedViews/by_device`});
      stream.on('data', r => {
        for (const chunk of r.chunks) {
          if (chunk.rowKey.length) keys.add(chunk.rowKey.toString());
          if (chunk.familyName) family = chunk.familyName.value;
          if (chunk.qualifier) qualifiers.add(chunk.qualifier.value.toString());
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve({rows: keys.size, family, qualifiers: [...qualifiers].sort()}));
    });
    const groups = await rows('SELECT device FROM by_device');
    expect('rows', got.rows, groups.length);
    expect('family', got.family, 'default');
    expect('qualifiers', got.qualifiers, ['high', 'low', 'mean', 'readings', 'total']);
  });
  await check("a query a view cannot keep is INVALID_ARGUMENT with production's message", async () => {
    try {
      await createView('bad', "SELECT _key, m['temp'] AS t FROM sensors");
      throw new Error('created');
    } catch (e) {
      expect('code', e.code, grpc.status.INVALID_ARGUMENT);
      expect('message', e.details, 'queries must contain a GROUP BY or ORDER BY clause');
    }
  });
  await check('deletion protection: FAILED_PRECONDITION until it is turned off; the query is immutable', async () => {
    const name = `${INSTANCE}/materializedViews/by_note`;
    await call(admin, 'UpdateMaterializedView',
               {materializedView: {name, deletionProtection: true}, updateMask: {paths: ['deletion_protection']}});
    try {
      await call(admin, 'DeleteMaterializedView', {name});
      throw new Error('deleted');
    } catch (e) {
      expect('code', e.code, grpc.status.FAILED_PRECONDITION);
    }
    try {
      await call(admin, 'UpdateMaterializedView', {materializedView: {name, query: BY_DEVICE}, updateMask: {paths: ['query']}});
      throw new Error('updated');
    } catch (e) {
      expect('code', e.code, grpc.status.INVALID_ARGUMENT);
    }
    await call(admin, 'UpdateMaterializedView',
               {materializedView: {name, deletionProtection: false}, updateMask: {paths: ['deletion_protection']}});
    await call(admin, 'DeleteMaterializedView', {name});
    const listed = await call(admin, 'ListMaterializedViews', {parent: INSTANCE});
    expect('left', listed.materializedViews.map(v => v.name), [`${INSTANCE}/materializedViews/by_device`]);
  });
  admin.close();
  data.close();
  await bigtable.close?.();
  process.exit(failed() ? 1 : 0);
}

await main();
