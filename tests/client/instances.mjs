// Instances through Google's Node client (@google-cloud/bigtable) against
// `lbt serve`: the handwritten API and the generated admin client, as
// application start-up code and integration-test fixtures use them. The
// official emulator has no Instance Admin API, so the expected answers are
// production's, from Bigtable's documentation, written here.
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=127.0.0.1:PORT node instances.mjs create
//   BIGTABLE_EMULATOR_HOST=127.0.0.1:PORT node instances.mjs check-and-delete
// `create` makes two instances, a cluster, an app profile and a table in
// each instance; the server is then killed with SIGKILL and started again,
// and `check-and-delete` finds all of it there and deletes it. Each phase
// prints one line per check and exits 1 if one failed.

import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, codeOf, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable, admin} = require('@google-cloud/bigtable');
const grpc = require('@grpc/grpc-js');

const PROJECT = 'node-project';
const A = 'node-inst-a';
const B = 'node-inst-b';
const bigtable = new Bigtable({projectId: PROJECT, metricsEnabled: false});
const [host, port] = process.env.BIGTABLE_EMULATOR_HOST.split(':');
const generated = new admin.v2.BigtableInstanceAdminClient({
  servicePath: host,
  port: Number(port),
  sslCreds: grpc.credentials.createInsecure(),
});

const tableAdmin = new admin.v2.BigtableTableAdminClient({
  servicePath: host,
  port: Number(port),
  sslCreds: grpc.credentials.createInsecure(),
});

// A client whose requests name `profile`.
function through(profile) {
  return new Bigtable({projectId: PROJECT, metricsEnabled: false, appProfileId: profile});
}
async function rowKeys(table) {
  const [rows] = await table.getRows();
  return rows.map(r => r.id);
}

async function create() {
  await check('exists() is false before the instance is created', async () => {
    const [exists] = await bigtable.instance(A).exists();
    expect('exists', exists, false);
  });
  await check('createInstance with a cluster, then waiting on its operation', async () => {
    const [instance, operation] = await bigtable.createInstance(A, {
      displayName: 'Node instance A',
      labels: {env: 'test'},
      clusters: [{id: 'node-inst-a-c1', location: 'us-central1-b', nodes: 3, storage: 'ssd'}],
    });
    const [result] = await operation.promise();
    expect('operation result', result.name, `projects/${PROJECT}/instances/${A}`);
    expect('instance id', instance.id, A);
  });
  await check('creating it again is ALREADY_EXISTS (6)', async () => {
    expect('code', await codeOf(bigtable.createInstance(A, {
      clusters: [{id: 'node-inst-a-c9', location: 'us-central1-b', nodes: 1}],
    })), 6);
  });
  await check('an instance id of 5 characters is INVALID_ARGUMENT (3)', async () => {
    expect('code', await codeOf(bigtable.createInstance('short', {
      clusters: [{id: 'short-cluster', location: 'us-central1-b', nodes: 1}],
    })), 3);
  });
  await check('the second instance, through the generated client', async () => {
    const [operation] = await generated.createInstance({
      parent: `projects/${PROJECT}`,
      instanceId: B,
      instance: {displayName: 'Node instance B'},
      clusters: {'node-inst-b-c1': {location: `projects/${PROJECT}/locations/us-east1-c`, serveNodes: 1}},
    });
    const [instance] = await operation.promise();
    expect('display name', instance.displayName, 'Node instance B');
  });
  await check('exists() is true, and getMetadata shows what was created', async () => {
    const [exists] = await bigtable.instance(A).exists();
    expect('exists', exists, true);
    const [metadata] = await bigtable.instance(A).getMetadata();
    expect('metadata', [metadata.displayName, metadata.state, metadata.type, metadata.labels],
           ['Node instance A', 'READY', 'PRODUCTION', {env: 'test'}]);
  });
  await check('a second cluster, waiting on its operation', async () => {
    const [, operation] = await bigtable.instance(A).createCluster('node-inst-a-c2', {
      location: 'us-central1-c', nodes: 2, storage: 'hdd',
    });
    await operation.promise();
  });
  await check('an app profile routed to one cluster', async () => {
    const [profile] = await bigtable.instance(A).createAppProfile('batch', {
      routing: bigtable.instance(A).cluster('node-inst-a-c2'),
      description: 'batch reads',
    });
    expect('profile id', profile.id, 'batch');
  });
  await createTables();
}

// A table of the same name in each instance, with a row of its own: each
// sees only its own.
async function createTables() {
  await check('a table named t in each instance', async () => {
    for (const id of [A, B]) {
      const [table] = await bigtable.instance(id).createTable('t', {families: ['cf']});
      await table.insert([{key: `row-of-${id}`, data: {cf: {q: id}}}]);
    }
  });
}

const DAY_MS = 24 * 3600 * 1000;

// A backup of A's table t, more writes, then a restore that holds exactly
// the rows of the backup's moment.
async function backupAndRestore() {
  await check('a backup of t in cluster c1, waiting on its operation', async () => {
    const [backup, operation] = await bigtable.instance(A).cluster('node-inst-a-c1').createBackup('t-backup', {
      table: bigtable.instance(A).table('t'),
      expireTime: new Date(Date.now() + 7 * DAY_MS),
    });
    await operation.promise();
    expect('backup id', backup.id, 't-backup');
  });
  await check('writes after the backup, then a restore into a new table', async () => {
    await bigtable.instance(A).table('t').insert([{key: 'after-backup', data: {cf: {q: 'later'}}}]);
    const [table, operation] = await bigtable.instance(A).cluster('node-inst-a-c1').backup('t-backup').restore('t-restored');
    await operation.promise();
    expect('restored id', table.id, 't-restored');
    expect('rows of the backup moment', await rowKeys(bigtable.instance(A).table('t-restored')), [`row-of-${A}`]);
    expect('rows of t now', await rowKeys(bigtable.instance(A).table('t')), ['after-backup', `row-of-${A}`]);
  });
  await check('a backup expiring in 5 hours is INVALID_ARGUMENT (3); restoring onto a table is ALREADY_EXISTS (6)', async () => {
    expect('expire code', await codeOf(bigtable.instance(A).cluster('node-inst-a-c1').createBackup('too-soon', {
      table: bigtable.instance(A).table('t'), expireTime: new Date(Date.now() + 5 * 3600 * 1000),
    })), 3);
    expect('restore code', await codeOf(
        bigtable.instance(A).cluster('node-inst-a-c1').backup('t-backup').restore('t')), 6);
  });
  await check('a copy of the backup into instance B', async () => {
    const [copy, operation] = await bigtable.instance(A).cluster('node-inst-a-c1').backup('t-backup').copy({
      cluster: bigtable.instance(B).cluster('node-inst-b-c1'),
      id: 't-copy',
      expireTime: new Date(Date.now() + 3 * DAY_MS),
    });
    await operation.promise();
    expect('copy id', copy.id, 't-copy');
  });
}

// An authorized view of A's table t: rows starting user1#, columns of cf
// starting pub. Production answers a write outside a view with
// PERMISSION_DENIED (googleapis/java-bigtable's MutateRowIT,
// CheckAndMutateIT and ReadModifyWriteIT, run against production); a read
// through it sees only what it covers.
const T_OF_A = `projects/${PROJECT}/instances/${A}/tables/t`;
const VIEW = `${T_OF_A}/authorizedViews/v`;
async function authorizedViews() {
  await check('an authorized view of t, waiting on its operation', async () => {
    const [operation] = await tableAdmin.createAuthorizedView({
      parent: T_OF_A,
      authorizedViewId: 'v',
      authorizedView: {
        subsetView: {rowPrefixes: [Buffer.from('user1#')], familySubsets: {cf: {qualifierPrefixes: [Buffer.from('pub')]}}},
        deletionProtection: true,
      },
    });
    const [view] = await operation.promise();
    expect('name', view.name, VIEW);
  });
  await check('writes through the view inside it; rows and columns outside it are PERMISSION_DENIED (7)', async () => {
    const view = bigtable.instance(A).view('t', 'v');
    await view.insert([{key: 'user1#ada', data: {cf: {'pub-name': 'Ada'}}}]);
    const [value] = await view.increment({column: 'cf:pub-visits', rowId: 'user1#ada'}, 2);
    expect('incremented', value, 2);
    expect('row outside', await codeOf(view.increment({column: 'cf:pub-visits', rowId: 'user2#bob'})), 7);
    expect('column outside', await codeOf(view.increment({column: 'cf:secret', rowId: 'user1#ada'})), 7);
    view.maxRetries = 0;
    const outside = await view.insert([{key: 'user2#bob', data: {cf: {'pub-name': 'Bob'}}}]).then(() => null, e => e);
    expect('bulk entry outside', outside?.errors?.map(e => e.code), [7]);
  });
  await check('reads through the view see only what it covers', async () => {
    await bigtable.instance(A).table('t').insert([
      {key: 'user1#ada', data: {cf: {secret: 'hidden'}}},
      {key: 'user2#bob', data: {cf: {'pub-name': 'Bob'}}},
    ]);
    await viewHoldsAda();
  });
  await check('getAuthorizedView and listAuthorizedViews; a stale etag is ABORTED (10)', async () => {
    const [view] = await tableAdmin.getAuthorizedView({name: VIEW, view: 'FULL'});
    expect('prefixes', view.subsetView.rowPrefixes.map(p => Buffer.from(p).toString()), ['user1#']);
    const [listed] = await tableAdmin.listAuthorizedViews({parent: T_OF_A});
    expect('listed', listed.map(v => v.name), [VIEW]);
    expect('stale', await codeOf(tableAdmin.updateAuthorizedView({
      authorizedView: {name: VIEW, etag: 'not-the-etag', deletionProtection: true},
      updateMask: {paths: ['deletion_protection']},
    })), 10);
  });
}

async function viewHoldsAda() {
  const [rows] = await bigtable.instance(A).view('t', 'v').getRows();
  expect('rows', rows.map(r => [r.id, Object.keys(r.data.cf).sort()]), [['user1#ada', ['pub-name', 'pub-visits']]]);
}

// After the restart: the view is there, protected; then it is deleted.
async function authorizedViewsAfterRestart() {
  await check('the view after the restart; deleting it while protected is FAILED_PRECONDITION (9)', async () => {
    await viewHoldsAda();
    expect('code', await codeOf(tableAdmin.deleteAuthorizedView({name: VIEW})), 9);
    expect('table code', await codeOf(bigtable.instance(A).table('t').delete()), 9);
    const [operation] = await tableAdmin.updateAuthorizedView({
      authorizedView: {name: VIEW, deletionProtection: false},
      updateMask: {paths: ['deletion_protection']},
    });
    await operation.promise();
    await tableAdmin.deleteAuthorizedView({name: VIEW});
    const [listed] = await tableAdmin.listAuthorizedViews({parent: T_OF_A});
    expect('listed', listed, []);
  });
}

// A logical view of A's table t: a saved query that queries read as a
// table, through the generated Instance Admin client and the handwritten
// API's prepareStatement and executeQuery.
const LV = `projects/${PROJECT}/instances/${A}/logicalViews/lv`;
async function queryView() {
  const instance = bigtable.instance(A);
  const [statement] = await instance.prepareStatement({query: 'SELECT k, q FROM lv ORDER BY k'});
  const stream = instance.createExecuteQueryStream({preparedStatement: statement});
  const rows = [];
  for await (const row of stream) rows.push([Buffer.from(row.get('k')).toString(), Buffer.from(row.get('q')).toString()]);
  return rows;
}
async function logicalViews() {
  await check('a logical view of t, waiting on its operation, and a query over it', async () => {
    const [operation] = await generated.createLogicalView({
      parent: `projects/${PROJECT}/instances/${A}`,
      logicalViewId: 'lv',
      logicalView: {query: "SELECT _key AS k, cf['q'] AS q FROM t WHERE cf['q'] IS NOT NULL", deletionProtection: true},
    });
    const [view] = await operation.promise();
    expect('name', view.name, LV);
    expect('rows', await queryView(), [['after-backup', 'later'], [`row-of-${A}`, A]]);
  });
  await check('a logical view whose query does not run is INVALID_ARGUMENT (3)', async () => {
    expect('code', await codeOf(generated.createLogicalView({
      parent: `projects/${PROJECT}/instances/${A}`, logicalViewId: 'bad', logicalView: {query: 'SELECT nope FROM t'},
    })), 3);
  });
}

async function logicalViewsAfterRestart() {
  await check('the logical view after the restart; deleting it while protected is FAILED_PRECONDITION (9)', async () => {
    const [view] = await generated.getLogicalView({name: LV});
    expect('protected', view.deletionProtection, true);
    expect('rows', await queryView(), [['after-backup', 'later'], [`row-of-${A}`, A]]);
    // An update without a mask changes the fields it sets, and only those.
    const [unmasked] = await generated.updateLogicalView({logicalView: {name: LV, query: view.query}});
    await unmasked.promise();
    const [after] = await generated.getLogicalView({name: LV});
    expect('protected after an update without a mask', after.deletionProtection, true);
    expect('code', await codeOf(generated.deleteLogicalView({name: LV})), 9);
    const [operation] = await generated.updateLogicalView({
      logicalView: {name: LV, deletionProtection: false}, updateMask: {paths: ['deletion_protection']},
    });
    await operation.promise();
    await generated.deleteLogicalView({name: LV});
    const [listed] = await generated.listLogicalViews({parent: `projects/${PROJECT}/instances/${A}`});
    expect('listed', listed, []);
  });
}

// ListHotTablets, from the schema lab's replay of the sampled writes: a
// table whose keys start with the time takes each moment's writes in its
// last tablet, which is hot; production's answers for a missing cluster
// and a range over 48 hours.
async function hotTablets() {
  const cluster = `projects/${PROJECT}/instances/${A}/clusters/node-inst-a-c1`;
  await check('listHotTablets finds the last tablet of a time-first table hot', async () => {
    const [events] = await bigtable.instance(A).createTable('events', {families: ['cf']});
    const now = Date.now();
    const rows = [];
    for (let i = 0; i < 600; i++) {
      const at = new Date(now - (600 - i) * 5000);  // one write every 5 s over the last 50 minutes
      rows.push({key: `${at.toISOString()}#sensor${i % 7}`, data: {cf: {v: {value: 'x'.repeat(100), timestamp: at}}}});
    }
    await events.insert(rows);
    const [hot] = await generated.listHotTablets({parent: cluster});
    const ofEvents = hot.filter(t => t.tableName === `projects/${PROJECT}/instances/${A}/tables/events`);
    if (ofEvents.length === 0) throw new Error(`no hot tablet of events among ${JSON.stringify(hot.map(t => t.name))}`);
    expect('hottest first', hot.every((t, i) => i === 0 || hot[i - 1].nodeCpuUsagePercent >= t.nodeCpuUsagePercent), true);
    expect('over an even share of 3 nodes', ofEvents[0].nodeCpuUsagePercent > 100 / 3, true);
  });
  await check('listHotTablets of a missing cluster is NOT_FOUND (5); over 48 hours INVALID_ARGUMENT (3)', async () => {
    expect('missing', await codeOf(generated.listHotTablets({parent: `projects/${PROJECT}/instances/${A}/clusters/nope-c9`})), 5);
    const end = Date.now() / 1000;
    expect('range', await codeOf(generated.listHotTablets({
      parent: cluster, startTime: {seconds: Math.floor(end - 49 * 3600)}, endTime: {seconds: Math.floor(end)},
    })), 3);
  });
}

// IAM policies: kept with etags, not enforced.
const READER = {role: 'roles/bigtable.reader', members: ['user:ada@example.com']};
async function iamPolicies() {
  await check('an instance policy: set, read back with a new etag; a stale etag is ABORTED (10)', async () => {
    const [empty] = await bigtable.instance(A).getIamPolicy();
    expect('bindings before', empty.bindings ?? [], []);
    const [set] = await bigtable.instance(A).setIamPolicy({bindings: [READER], etag: empty.etag});
    const [got] = await bigtable.instance(A).getIamPolicy();
    expect('bindings', got.bindings.map(b => [b.role, b.members]), [[READER.role, READER.members]]);
    expect('etag', Buffer.from(got.etag).toString(), Buffer.from(set.etag).toString());
    // Through the generated client: the handwritten setIamPolicy throws
    // outside its promise when the call fails (it decodes the missing
    // response after passing the error on).
    expect('stale', await codeOf(generated.setIamPolicy({
      resource: `projects/${PROJECT}/instances/${A}`,
      policy: {bindings: [], etag: Buffer.from(empty.etag)},
    })), 10);
  });
  await check('testIamPermissions grants what it is asked (policies are not enforced)', async () => {
    const [granted] = await bigtable.instance(A).testIamPermissions(['bigtable.tables.readRows', 'bigtable.tables.mutateRows']);
    expect('granted', granted, ['bigtable.tables.readRows', 'bigtable.tables.mutateRows']);
  });
  await check('a table policy; a missing table has none to read: NOT_FOUND (5)', async () => {
    await bigtable.instance(A).table('t').setIamPolicy({bindings: [READER]});
    expect('code', await codeOf(bigtable.instance(A).table('no-such-table').getIamPolicy()), 5);
  });
}

async function backupsAfterRestart() {
  await check('the instance and table policies lasted', async () => {
    for (const resource of [bigtable.instance(A), bigtable.instance(A).table('t')]) {
      const [policy] = await resource.getIamPolicy();
      expect('roles', policy.bindings.map(b => b.role), [READER.role]);
    }
  });
  await check('getBackups lists the backup, with its source table, and the copy in B', async () => {
    const [backups] = await bigtable.instance(A).getBackups();
    expect('backups of A', backups.map(b => [b.id, b.metadata.sourceTable, b.metadata.state]),
           [['t-backup', `projects/${PROJECT}/instances/${A}/tables/t`, 'READY']]);
    const [copies] = await bigtable.instance(B).getBackups();
    expect('backups of B', copies.map(b => [b.id, b.metadata.sourceBackup, b.metadata.sourceTable]),
           [['t-copy', `projects/${PROJECT}/instances/${A}/clusters/node-inst-a-c1/backups/t-backup`,
             `projects/${PROJECT}/instances/${A}/tables/t`]]);
  });
  await check('getBackups filters on the expire time and the source table', async () => {
    const inFiveDays = new Date(Date.now() + 5 * DAY_MS).toISOString();
    const [later] = await bigtable.instance(A).getBackups({filter: `expire_time > "${inFiveDays}"`});
    expect('expiring after 5 days', later.map(b => b.id), ['t-backup']);  // 7 days
    const [sooner] = await bigtable.instance(B).getBackups({filter: `expire_time > "${inFiveDays}"`});
    expect('the copy expires in 3', sooner.map(b => b.id), []);
    const [none] = await bigtable.instance(A).getBackups({filter: 'source_table:no-such-table'});
    expect('no match', none.map(b => b.id), []);
  });
  await check('the restored table kept the backup moment and says where it came from', async () => {
    expect('rows', await rowKeys(bigtable.instance(A).table('t-restored')), [`row-of-${A}`]);
    const [metadata] = await bigtable.instance(A).table('t-restored').getMetadata();
    expect('restore info', [metadata.restoreInfo.sourceType, metadata.restoreInfo.backupInfo.backup],
           ['BACKUP', `projects/${PROJECT}/instances/${A}/clusters/node-inst-a-c1/backups/t-backup`]);
  });
  await check('the copy restores into B', async () => {
    const [, operation] = await bigtable.instance(B).cluster('node-inst-b-c1').backup('t-copy').restore('from-a');
    await operation.promise();
    expect('rows', await rowKeys(bigtable.instance(B).table('from-a')), [`row-of-${A}`]);
  });
  await check('deleting the backup', async () => {
    await bigtable.instance(A).cluster('node-inst-a-c1').backup('t-backup').delete();
    const [backups] = await bigtable.instance(A).getBackups();
    expect('backups', backups.map(b => b.id), []);
  });
}

// `tables`: what each instance holds by now.
async function listsAndReads(tables) {
  await check('getInstances lists both instances of the project', async () => {
    const [instances] = await bigtable.getInstances();
    expect('ids', instances.map(i => i.id).sort(), [A, B]);
  });
  await check('getClusters lists the two clusters of A with their nodes', async () => {
    const [clusters] = await bigtable.instance(A).getClusters();
    expect('clusters', clusters.map(c => [c.id, c.metadata.serveNodes, c.metadata.defaultStorageType]).sort(),
           [['node-inst-a-c1', 3, 'SSD'], ['node-inst-a-c2', 2, 'HDD']]);
  });
  await check('getAppProfiles lists default and batch', async () => {
    const [profiles] = await bigtable.instance(A).getAppProfiles();
    expect('ids', profiles.map(p => p.id).sort(), ['batch', 'default']);
  });
  await check('each instance lists its own table and reads its own row', async () => {
    for (const id of [A, B]) {
      const [listed] = await bigtable.instance(id).getTables();
      expect(`${id} tables`, listed.map(t => t.id), tables[id]);
      const keys = await rowKeys(bigtable.instance(id).table('t'));
      expect(`${id} rows`, keys.filter(k => k.startsWith('row-of-')), [`row-of-${id}`]);
    }
  });
  await check('reads through the app profile batch; an unknown profile is NOT_FOUND (5)', async () => {
    expect('rows', (await rowKeys(through('batch').instance(A).table('t'))).includes(`row-of-${A}`), true);
    const table = through('no-such-profile').instance(A).table('t');
    table.maxRetries = 0;
    expect('code', await codeOf(table.getRows()), 5);
  });
  await check('a single-row transaction through batch (no transactional writes) is FAILED_PRECONDITION (9)', async () => {
    const row = through('batch').instance(A).table('t').row(`row-of-${A}`);
    expect('code', await codeOf(row.increment('cf:n', 1)), 9);
    // The default profile of an instance made with one cluster allows them.
    const counter = `cf:n-${process.argv[2]}`;  // once per phase
    const [value] = await bigtable.instance(B).table('t').row(`row-of-${B}`).increment(counter, 1);
    expect('value', value, 1);
  });
}

async function checkAndDelete() {
  await listsAndReads({[A]: ['events', 't', 't-restored'], [B]: ['t']});
  await backupsAfterRestart();
  await authorizedViewsAfterRestart();
  await logicalViewsAfterRestart();
  await check('deleting a cluster an app profile routes to is FAILED_PRECONDITION (9)', async () => {
    expect('code', await codeOf(bigtable.instance(A).cluster('node-inst-a-c2').delete()), 9);
  });
  await check('deleting the app profile, then the cluster', async () => {
    await bigtable.instance(A).appProfile('batch').delete({ignoreWarnings: true});
    await bigtable.instance(A).cluster('node-inst-a-c2').delete();
    const [clusters] = await bigtable.instance(A).getClusters();
    expect('clusters', clusters.map(c => c.id), ['node-inst-a-c1']);
  });
  await check('deleting both instances takes their tables with them', async () => {
    await bigtable.instance(A).delete();
    await generated.deleteInstance({name: `projects/${PROJECT}/instances/${B}`});
    const [instances] = await bigtable.getInstances();
    expect('instances', instances.map(i => i.id), []);
    const [tables] = await bigtable.instance(A).getTables();
    expect('tables of A', tables.map(t => t.id), []);
    const [exists] = await bigtable.instance(A).exists();
    expect('exists', exists, false);
  });
}

const phase = process.argv[2];
if (phase === 'create') {
  await create();
  await listsAndReads({[A]: ['t'], [B]: ['t']});
  await backupAndRestore();
  await authorizedViews();
  await logicalViews();
  await hotTablets();
  await iamPolicies();
} else if (phase === 'check-and-delete') {
  await checkAndDelete();
} else {
  console.error('usage: instances.mjs create|check-and-delete');
  process.exit(2);
}
await generated.close();
await tableAdmin.close();
process.exit(failed() ? 1 : 0);
