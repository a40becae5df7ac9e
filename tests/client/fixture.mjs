// The Node test fixture of examples/testing, as a suite would use it: each
// start waits for the "running" line, points Google's Node client at the
// server, and finds an empty database (--ephemeral); each stop ends the
// server with status 0.
//
// Usage (from the directory where the client package is installed):
//   node fixture.mjs LBT_BINARY FIXTURE_MODULE

import {createRequire} from 'node:module';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

import {check, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');

const [binary, fixture] = process.argv.slice(2);
const {startLbtServe} = await import(pathToFileURL(fixture).href);

for (const run of [1, 2]) {
  await check(`start ${run}: the fixture waits for the server, which holds an empty database`, async () => {
    const server = await startLbtServe({binary});
    expect('BIGTABLE_EMULATOR_HOST', process.env.BIGTABLE_EMULATOR_HOST, server.host);
    const bigtable = new Bigtable({projectId: 'p', metricsEnabled: false});
    const instance = bigtable.instance('i');
    const [before] = await instance.getTables();
    expect('tables at start', before.map((t) => t.id), []);
    await instance.table(`t${run}`).create({families: ['cf']});
    const [after] = await instance.getTables();
    expect('tables after create', after.map((t) => t.id), [`t${run}`]);
    bigtable.close();
    expect('exit status', await server.stop(), 0);
  });
}

process.exit(failed() ? 1 : 0);
