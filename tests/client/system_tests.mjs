// Assertions of Google's Node client system tests (googleapis/nodejs-bigtable,
// system-test/, written to run against production) reproduced against
// `lbt serve`, where production's answers are what they assert: writes
// outside an authorized view, SampleRowKeys through one, autoscaling
// updates and a restore across storage types. Each check names the test
// it mirrors.
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=127.0.0.1:PORT node system_tests.mjs
// Prints one line per check and exits 1 if one failed.

import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');

const PROJECT = 'system-project';
const SSD = 'sys-inst-ssd';
const HDD = 'sys-inst-hdd';
const bigtable = new Bigtable({projectId: PROJECT, metricsEnabled: false});
// As the system tests make it: with checkOptimizeRestoredTableProgress.
const tableAdmin = bigtable.admin.getTableAdminClient();

async function createInstance(id, cluster) {
  const [, operation] = await bigtable.createInstance(id, {clusters: [cluster]});
  await operation.promise();
}

// ---- system-test/bigtable.ts, describe('AuthorizedViews') ----

const FAMILY = 'gt-column-family-name';
const ROW = 'gt-row-id-1a2b-1700000000000';
const OTHER_ROW = 'gt-row-id-3c4d-1700000000001';
const IN_VIEW = 'gt-column-id-in';
const NOT_IN_VIEW = 'gt-column-id-out';
const VIEW_TABLE = 'gt-table-views';
const VIEW_ID = 'gt-authorized-view-id';
const VIEW_NAME = `projects/${PROJECT}/instances/${SSD}/tables/${VIEW_TABLE}/authorizedViews/${VIEW_ID}`;
// getErrorMessage() of the system test.
const OUTSIDE = `Cannot mutate from ${VIEW_NAME} because the mutation contains cells outside the Authorized View.`;

// The system test's own comparison of a sample's key with the view's row.
function convertBufferToInt(buffer) {
  return buffer.reverse().reduce((accumulator, value, index) => accumulator + Math.pow(value, index), 0);
}

async function messageOf(promise, field) {
  try {
    await promise;
  } catch (e) {
    return e[field];
  }
  throw new Error('the call succeeded');
}

async function authorizedViews() {
  const table = bigtable.instance(SSD).table(VIEW_TABLE);
  const view = bigtable.instance(SSD).view(VIEW_TABLE, VIEW_ID);
  await check('AuthorizedViews: createTable() — a table of two rows and a view of one row and one column', async () => {
    await table.create({});
    await table.createFamily(FAMILY);
    const cell = value => ({value, labels: [], timestamp: '77000'});
    await table.insert([
      {key: ROW, data: {[FAMILY]: {[IN_VIEW]: cell('in'), [NOT_IN_VIEW]: cell('out')}}},
      {key: OTHER_ROW, data: {[FAMILY]: {[IN_VIEW]: cell('in')}}},
    ]);
    await tableAdmin.createAuthorizedView({
      parent: `projects/${PROJECT}/instances/${SSD}/tables/${VIEW_TABLE}`,
      authorizedViewId: VIEW_ID,
      authorizedView: {
        deletionProtection: false,
        subsetView: {rowPrefixes: [Buffer.from(ROW)], familySubsets: {[FAMILY]: {qualifiers: [Buffer.from(IN_VIEW)]}}},
      },
    });
  });
  await check('AuthorizedViews: "should fail when writing to a row not in the authorized view"', async () => {
    const mutation = {key: OTHER_ROW, data: {[FAMILY]: {[IN_VIEW]: 'new'}}, method: 'insert'};
    expect('message', await messageOf(view.mutate(mutation, {}), 'message'), OUTSIDE);
  });
  await check('AuthorizedViews: "should fail when writing to a column not in the authorized view"', async () => {
    const mutation = {key: ROW, data: {[FAMILY]: {[NOT_IN_VIEW]: 'new'}}, method: 'insert'};
    expect('message', await messageOf(view.mutate(mutation, {}), 'message'), OUTSIDE);
  });
  await check('AuthorizedViews: CheckAndMutate "should error when the request is made for the row key not in a view"',
              async () => {
                const filtered = view.filter({rowId: 'some-row-key', filter: {column: IN_VIEW}},
                                             {onMatch: [{key: ROW, method: 'delete'}]});
                expect('details', await messageOf(filtered, 'details'), OUTSIDE);
              });
  await check('AuthorizedViews: SampleRowKeys "should get a sample of row keys" (and the stream)', async () => {
    const [samples] = await view.sampleRowKeys();
    expect('samples', samples.length, 1);
    // Production's last sample is the end of the view's rows: the row
    // prefix's successor, which the system test compares as a number.
    const end = Buffer.from(ROW);
    end[end.length - 1]++;
    expect('key', Buffer.from(samples[0].key).toString('latin1'), end.toString('latin1'));
    expect('as the system test compares it', convertBufferToInt(Buffer.from(samples[0].key)),
           convertBufferToInt(Buffer.from(ROW)) + 1);
    const streamed = [];
    await new Promise((resolve, reject) => {
      view.sampleRowKeysStream().on('data', s => streamed.push(s)).on('error', reject).on('end', resolve);
    });
    expect('streamed', streamed.length, 1);
  });
  await check('AuthorizedViews: afterEach — none of it changed the table', async () => {
    const [rows] = await table.getRows();
    expect('rows', rows.map(r => [r.id, Object.keys(r.data[FAMILY]).sort()]),
           [[ROW, [IN_VIEW, NOT_IN_VIEW].sort()], [OTHER_ROW, [IN_VIEW]]]);
  });
}

// ---- system-test/cluster.ts ----

// checkMetadata() of the system test: the nodes and the autoscaling limits
// and target as GetCluster reports them.
async function scalingOf(cluster) {
  const [metadata] = await cluster.getMetadata();
  const config = metadata.clusterConfig?.clusterAutoscalingConfig;
  return {
    nodes: metadata.serveNodes,
    min: config?.autoscalingLimits?.minServeNodes ?? null,
    max: config?.autoscalingLimits?.maxServeNodes ?? null,
    cpu: config?.autoscalingTargets?.cpuUtilizationPercent ?? null,
  };
}

async function setMetadata(cluster, metadata) {
  const [operation] = await cluster.setMetadata(metadata);
  await operation.promise();
}

async function clusters() {
  const autoscaled = bigtable.instance(SSD).cluster('sys-inst-ssd-c1');
  await check('cluster.ts: "should create an instance with clusters for automatic scaling" — nodes at the minimum',
              async () => {
                await createInstance(SSD, {id: 'sys-inst-ssd-c1', location: 'us-west1-c', storage: 'ssd',
                                           minServeNodes: 3, maxServeNodes: 4, cpuUtilizationPercent: 50});
                expect('scaling', await scalingOf(autoscaled), {nodes: 3, min: 3, max: 4, cpu: 50});
              });
  await check('cluster.ts: "should change autoscaling properties" — the nodes stay as they were', async () => {
    await setMetadata(autoscaled, {minServeNodes: 5, maxServeNodes: 6, cpuUtilizationPercent: 53});
    expect('scaling', await scalingOf(autoscaled), {nodes: 3, min: 5, max: 6, cpu: 53});
  });
  const manual = bigtable.instance(HDD).cluster('sys-inst-hdd-c1');
  await check('cluster.ts: "should change cluster to autoscaling" — the nodes stay as they were', async () => {
    await createInstance(HDD, {id: 'sys-inst-hdd-c1', location: 'us-west1-c', nodes: 2, storage: 'hdd'});
    await setMetadata(manual, {minServeNodes: 3, maxServeNodes: 4, cpuUtilizationPercent: 50});
    expect('scaling', await scalingOf(manual), {nodes: 2, min: 3, max: 4, cpu: 50});
  });
  await check('cluster.ts: "should change cluster to manual scaling"', async () => {
    await setMetadata(manual, {nodes: 5});
    expect('scaling', await scalingOf(manual), {nodes: 5, min: null, max: null, cpu: null});
  });
}

// ---- system-test/bigtable.ts, the restores across backing types ----

async function restores() {
  const hddTable = `projects/${PROJECT}/instances/${HDD}/tables/gt-table-hdd`;
  let backup;
  await check('backups: a backup of a table of the HDD instance', async () => {
    await bigtable.instance(HDD).createTable('gt-table-hdd', {families: ['cf']});
    await bigtable.instance(HDD).table('gt-table-hdd').insert([{key: 'r', data: {cf: {q: 'v'}}}]);
    const [operation] = await tableAdmin.createBackup({
      parent: `projects/${PROJECT}/instances/${HDD}/clusters/sys-inst-hdd-c1`,
      backupId: 'gt-backup-hdd',
      backup: {expireTime: {seconds: Math.floor(Date.now() / 1000) + 8 * 3600, nanos: 0}, sourceTable: hddTable},
    });
    [backup] = await operation.promise();
  });
  await check('backups: "should not optimize when restoring from the same backing type"', async () => {
    const [operation] = await tableAdmin.restoreTable({
      parent: `projects/${PROJECT}/instances/${HDD}`, tableId: 'gt-restored-hdd', backup: backup.name,
    });
    const [, metadata] = await operation.promise();
    expect('optimizeTableOperationName', metadata.optimizeTableOperationName ?? '', '');
  });
  await check('backups: "should optimize when restoring from a different backing type"', async () => {
    const [operation] = await tableAdmin.restoreTable({
      parent: `projects/${PROJECT}/instances/${SSD}`, tableId: 'gt-restored-ssd', backup: backup.name,
    });
    const [, metadata] = await operation.promise();
    if (!metadata.optimizeTableOperationName) throw new Error('no optimizeTableOperationName');
    const optimize = await tableAdmin.checkOptimizeRestoredTableProgress(metadata.optimizeTableOperationName);
    await optimize.promise();
    expect('optimized table', optimize.metadata.name, `projects/${PROJECT}/instances/${SSD}/tables/gt-restored-ssd`);
  });
}

await clusters();
await authorizedViews();
await restores();
process.exit(failed() === 0 ? 0 : 1);
