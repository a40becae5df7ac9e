// What production's newest clients send, through `lbt serve`: @grpc/grpc-js
// over the pinned protos (the Node library of package.json predates these
// fields), as Google's newest libraries send them. The emulator has none of
// it: the expected answers are those the protos' comments state.
//   - A Java-style write (google-cloud-bigtable 2.82 on): a SetCell without
//     a user's timestamp is stamped with the client's microsecond clock and
//     timestamp_origin CLIENT_AUTO_GENERATED; a MILLIS table keeps it cut to
//     the millisecond (data.proto), and still refuses a user's that does not
//     fit.
//   - A MICROS table (table.proto's granularity), made with CreateTable,
//     keeps every microsecond and says so in GetTable.
//   - GetClientConfiguration keeps clients on the classic RPCs.
//   - UndeleteTable brings a deleted table back, cells and settings.
//   - An AddToCell sent twice with one idempotency token (a retry after a
//     lost answer) counts once.
//   - A prepared statement of the Node library whose table changed answers
//     PREPARED_QUERY_EXPIRED; the library prepares it again by itself.
//   - A row-key schema set at CreateTable makes the key's fields columns of
//     SQL through the library; removing it needs ignore_warnings.
//   - A parameterized view reads VIEW_PARAMETERS from view_parameters.
//   - An HLL++ family of raw input counts AddToCell's bytes and merges a
//     sketch with MergeToCell.
//   - Schema bundles are kept with their table, checked, updated by etag.
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=h:p node newest_surface.mjs PROTOS
// One line per check; exit 1 if one failed.

import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, codeOf, expect, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable, SqlTypes} = require('@google-cloud/bigtable');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const [protos] = process.argv.slice(2);
const INSTANCE = 'projects/lbt/instances/local';
const host = process.env.BIGTABLE_EMULATOR_HOST;
const load = file =>
  grpc.loadPackageDefinition(
      protoLoader.loadSync(file, {includeDirs: [protos], longs: String, enums: String, defaults: true, oneofs: true}));
const tables = new (load('google/bigtable/admin/v2/bigtable_table_admin.proto').google.bigtable.admin.v2
                        .BigtableTableAdmin)(host, grpc.credentials.createInsecure());
const data = new (load('google/bigtable/v2/bigtable.proto').google.bigtable.v2.Bigtable)(
    host, grpc.credentials.createInsecure());

const call = (client, method, request) =>
    new Promise((resolve, reject) => client[method](request, (e, r) => (e ? reject(e) : resolve(r))));
// The cells of a table as "row family:qualifier@timestamp=value" lines.
function readAll(table) {
  return new Promise((resolve, reject) => {
    const out = [];
    let key = '', family = '', qualifier = '', timestamp = '', value = '';
    const stream = data.ReadRows({tableName: `${INSTANCE}/tables/${table}`});
    stream.on('data', response => {
      for (const chunk of response.chunks) {
        if (chunk.rowKey.length) key = chunk.rowKey.toString();
        if (chunk.familyName) family = chunk.familyName.value;
        if (chunk.qualifier) qualifier = chunk.qualifier.value.toString();
        timestamp = chunk.timestampMicros;
        value += chunk.value.toString('latin1');
        if (chunk.valueSize > 0) continue;
        out.push(`${key} ${family}:${qualifier}@${timestamp}=${value}`);
        value = '';
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(out));
  });
}
// A SetCell as Java's client sends it: `micros` and where it came from.
function setCell(table, row, micros, origin, value = 'v') {
  return call(data, 'MutateRow', {
    tableName: `${INSTANCE}/tables/${table}`,
    rowKey: Buffer.from(row),
    mutations: [{
      setCell: {familyName: 'cf', columnQualifier: Buffer.from('q'), timestampMicros: String(micros), value: Buffer.from(value)},
      timestampOrigin: origin,
    }],
  });
}
function createTable(tableId, granularity) {
  const table = {columnFamilies: {cf: {}}};
  if (granularity) table.granularity = granularity;
  return call(tables, 'CreateTable', {parent: INSTANCE, tableId, table});
}

const STAMPED = 1795694220123456;

await check('a Java-style write into a MILLIS table is kept cut to the millisecond', async () => {
  const created = await createTable('millis');
  expect('granularity', created.granularity, 'MILLIS');
  await setCell('millis', 'java', STAMPED, 'CLIENT_AUTO_GENERATED');
  expect('cells', await readAll('millis'), [`java cf:q@${STAMPED - 456}=v`]);
});
await check('a user\'s timestamp that is not whole milliseconds is INVALID_ARGUMENT (3)', async () => {
  expect('USER_SPECIFIED', await codeOf(setCell('millis', 'user', STAMPED, 'USER_SPECIFIED')), 3);
  expect('unstated', await codeOf(setCell('millis', 'user', STAMPED, 'TIMESTAMP_ORIGIN_UNSPECIFIED')), 3);
  expect('cells', (await readAll('millis')).length, 1);
});
await check('a MutateRows entry is cut the same way', async () => {
  await new Promise((resolve, reject) => {
    const stream = data.MutateRows({
      tableName: `${INSTANCE}/tables/millis`,
      entries: [{
        rowKey: Buffer.from('batch'),
        mutations: [{
          setCell: {familyName: 'cf', columnQualifier: Buffer.from('q'), timestampMicros: String(STAMPED + 1), value: Buffer.from('b')},
          timestampOrigin: 'CLIENT_AUTO_GENERATED',
        }],
      }],
    });
    stream.on('data', r => r.entries.forEach(e => e.status.code !== 0 && reject(new Error(e.status.message))));
    stream.on('error', reject);
    stream.on('end', resolve);
  });
  expect('cells', await readAll('millis'), [`batch cf:q@${STAMPED - 456}=b`, `java cf:q@${STAMPED - 456}=v`]);
});
await check('a MICROS table keeps every microsecond, and GetTable says MICROS', async () => {
  const created = await createTable('micros', 'MICROS');
  expect('created', created.granularity, 'MICROS');
  await setCell('micros', 'java', STAMPED, 'CLIENT_AUTO_GENERATED');
  await setCell('micros', 'user', STAMPED + 1, 'USER_SPECIFIED');
  expect('cells', await readAll('micros'), [`java cf:q@${STAMPED}=v`, `user cf:q@${STAMPED + 1}=v`]);
  const got = await call(tables, 'GetTable', {name: `${INSTANCE}/tables/micros`, view: 'SCHEMA_VIEW'});
  expect('GetTable', got.granularity, 'MICROS');
});
await check('GetClientConfiguration keeps clients on the classic RPCs', async () => {
  const config = await call(data, 'GetClientConfiguration', {instanceName: INSTANCE});
  expect('polling', [config.polling, config.stopPolling], ['stopPolling', true]);
  // An instance comes into being with its first table (README: implicit-instances); an
  // app profile it lacks is NOT_FOUND (5), as for PingAndWarm.
  expect('unknown app profile',
         await codeOf(call(data, 'GetClientConfiguration', {instanceName: INSTANCE, appProfileId: 'nope'})), 5);
  expect('bad name', await codeOf(call(data, 'GetClientConfiguration', {instanceName: 'instances/x'})), 3);
});

await check('UndeleteTable brings a deleted table back, its cells and granularity with it', async () => {
  await call(tables, 'DeleteTable', {name: `${INSTANCE}/tables/micros`});
  expect('read after delete', await codeOf(readAll('micros')), 5);
  const operation = await call(tables, 'UndeleteTable', {name: `${INSTANCE}/tables/micros`});
  expect('done', operation.done, true);
  expect('cells', await readAll('micros'), [`java cf:q@${STAMPED}=v`, `user cf:q@${STAMPED + 1}=v`]);
  const got = await call(tables, 'GetTable', {name: `${INSTANCE}/tables/micros`, view: 'SCHEMA_VIEW'});
  expect('granularity', got.granularity, 'MICROS');
  expect('again', await codeOf(call(tables, 'UndeleteTable', {name: `${INSTANCE}/tables/micros`})), 5);
});

function addOnce(row, token) {
  return call(data, 'MutateRow', {
    tableName: `${INSTANCE}/tables/counts`,
    rowKey: Buffer.from(row),
    mutations: [{addToCell: {familyName: 'n', columnQualifier: {rawValue: Buffer.from('c')},
                             timestamp: {rawTimestampMicros: '1000'}, input: {intValue: '1'}}}],
    idempotency: {token: Buffer.from(token), startTime: {seconds: String(Math.floor(Date.now() / 1000))}},
  });
}
await check('an AddToCell retried with its idempotency token counts once', async () => {
  await call(tables, 'CreateTable', {
    parent: INSTANCE, tableId: 'counts',
    table: {columnFamilies: {n: {valueType: {aggregateType: {inputType: {int64Type: {}}, sum: {}}}}}},
  });
  await addOnce('r', 'retry-token-1');
  await addOnce('r', 'retry-token-1');
  await addOnce('r', 'retry-token-2');
  const cells = await readAll('counts');
  expect('cells', cells.length, 1);
  expect('sum', Buffer.from(cells[0].split('=')[1], 'latin1').readBigInt64BE().toString(), '2');
  expect('a token of 7 bytes', await codeOf(addOnce('r', 'short!!')), 3);
});

// A statement's rows through the library, as "column=value" lists.
async function run(statement) {
  const instance = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local');
  const stream = instance.createExecuteQueryStream({preparedStatement: statement});
  const out = [];
  for await (const row of stream) {
    const metadata = stream.getMetadata();
    out.push(metadata.columns.map((c, i) => `${metadata.getFieldNameAtIndex(i)}=${row.get(i) === null ? 'NULL' : typeof row.get(i)}`)
                 .join(' '));
  }
  return out;
}
await check('a prepared statement whose table changed is prepared again by the library', async () => {
  const instance = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local');
  const [statement] = await instance.prepareStatement({query: 'SELECT * FROM millis WHERE _key = \'java\''});
  expect('before', await run(statement), ['_key=object cf=object']);
  await call(tables, 'ModifyColumnFamilies',
             {name: `${INSTANCE}/tables/millis`, modifications: [{id: 'added', create: {}}]});
  // The old plan's columns would not hold `added`: the rows come from the plan prepared again.
  expect('after', await run(statement), ['_key=object cf=object added=object']);
});

// The seeds' row key, device#reverse-timestamp, declared as a row-key
// schema (table.proto's row_key_schema): SQL reads its fields as columns.
await check('a row-key schema makes the key\'s fields columns of SQL', async () => {
  const utf8 = {stringType: {encoding: {utf8Bytes: {}}}};
  await call(tables, 'CreateTable', {
    parent: INSTANCE, tableId: 'sensors',
    table: {
      columnFamilies: {stats: {}},
      rowKeySchema: {fields: [{fieldName: 'device', type: utf8}, {fieldName: 'rts', type: utf8}],
                     encoding: {delimitedBytes: {delimiter: Buffer.from('#')}}},
    },
  });
  const got = await call(tables, 'GetTable', {name: `${INSTANCE}/tables/sensors`, view: 'SCHEMA_VIEW'});
  expect('GetTable fields', got.rowKeySchema.fields.map(f => f.fieldName), ['device', 'rts']);
  for (const key of ['phone1#9000', 'phone1#8000', 'phone10#1', 'tablet#7000']) {
    await call(data, 'MutateRow', {
      tableName: `${INSTANCE}/tables/sensors`, rowKey: Buffer.from(key),
      mutations: [{setCell: {familyName: 'stats', columnQualifier: Buffer.from('t'), timestampMicros: '1000',
                             value: Buffer.from('v')}}],
    });
  }
  const instance = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local');
  const [statement] = await instance.prepareStatement(
      {query: 'SELECT _key, device, rts FROM sensors WHERE device = @d', parameterTypes: {d: SqlTypes.String()}});
  const rows = [];
  const stream = instance.createExecuteQueryStream({preparedStatement: statement, parameters: {d: 'phone1'}});
  for await (const row of stream) rows.push(`${Buffer.from(row.get('_key')).toString()} ${row.get('device')} ${row.get('rts')}`);
  expect('rows', rows, ['phone1#8000 phone1 8000', 'phone1#9000 phone1 9000']);
  const [star] = await instance.prepareStatement({query: 'SELECT * FROM sensors WHERE device = \'tablet\''});
  expect('SELECT * columns', await run(star), ['device=string rts=string stats=object']);
  const remove = {table: {name: `${INSTANCE}/tables/sensors`}, updateMask: {paths: ['row_key_schema']}};
  expect('removal without ignore_warnings', await codeOf(call(tables, 'UpdateTable', remove)), 3);
  await call(tables, 'UpdateTable', {...remove, ignoreWarnings: true});
  const after = await call(tables, 'GetTable', {name: `${INSTANCE}/tables/sensors`, view: 'SCHEMA_VIEW'});
  expect('schema removed', after.rowKeySchema, null);
});

// A parameterized view (VIEW_PARAMETERS in a logical view's query) through
// grpc-js: ExecuteQueryRequest.view_parameters (field 12) scopes its rows;
// the Node library does not send the field yet.
const protobuf = require('protobufjs');
const protoRoot = new protobuf.Root();
protoRoot.resolvePath = (origin, target) => join(protos, target);
protoRoot.loadSync('google/bigtable/v2/data.proto');
const ProtoRows = protoRoot.lookupType('google.bigtable.v2.ProtoRows');
// A prepared query's rows as lists of their values' text.
async function execute(preparedQuery, columns, viewParameters) {
  return new Promise((resolve, reject) => {
    const values = [];
    const stream = data.ExecuteQuery({instanceName: INSTANCE, preparedQuery, params: {}, viewParameters});
    stream.on('data', response => {
      const batch = response.results?.protoRowsBatch?.batchData;
      if (batch && batch.length) values.push(...ProtoRows.decode(batch).values);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      const rows = [];
      for (let i = 0; i < values.length; i += columns) {
        rows.push(values.slice(i, i + columns).map(v => (v.bytesValue ? Buffer.from(v.bytesValue).toString() : v.stringValue)).join(' '));
      }
      resolve(rows);
    });
  });
}
await check('VIEW_PARAMETERS takes its values from the request\'s view_parameters', async () => {
  await call(tables, 'CreateTable', {parent: INSTANCE, tableId: 'purchases', table: {columnFamilies: {p: {}}}});
  for (const key of ['alice#1', 'alice#2', 'bob#1']) {
    await call(data, 'MutateRow', {
      tableName: `${INSTANCE}/tables/purchases`, rowKey: Buffer.from(key),
      mutations: [{setCell: {familyName: 'p', columnQualifier: Buffer.from('item'), timestampMicros: '1000',
                             value: Buffer.from(`item-of-${key}`)}}],
    });
  }
  const instances = new (load('google/bigtable/admin/v2/bigtable_instance_admin.proto').google.bigtable.admin.v2
                            .BigtableInstanceAdmin)(host, grpc.credentials.createInsecure());
  await call(instances, 'CreateLogicalView', {
    parent: INSTANCE, logicalViewId: 'my_purchases',
    logicalView: {query: 'SELECT _key FROM purchases WHERE STARTS_WITH(_key, CAST(VIEW_PARAMETERS(\'user\') AS BYTES))'},
  });
  const prepared = await call(data, 'PrepareQuery',
                              {instanceName: INSTANCE, query: 'SELECT _key FROM my_purchases', protoFormat: {}});
  expect('alice', await execute(prepared.preparedQuery, 1, {user: {stringValue: 'alice#'}}), ['alice#1', 'alice#2']);
  expect('bob', await execute(prepared.preparedQuery, 1, {user: {stringValue: 'bob#'}}), ['bob#1']);
  // Bound, not spliced into text: a value that would widen a spliced query matches nothing.
  expect('an injection', await execute(prepared.preparedQuery, 1, {user: {stringValue: "') OR TRUE OR ('"}}), []);
  expect('missing', await codeOf(execute(prepared.preparedQuery, 1, {})), 3);
  expect('not a string', await codeOf(execute(prepared.preparedQuery, 1, {user: {intValue: '5'}})), 3);
  // A client's own query cannot read the view parameters.
  expect('in a client query', await codeOf(call(data, 'PrepareQuery', {
           instanceName: INSTANCE, query: 'SELECT VIEW_PARAMETERS(\'user\') AS u FROM purchases', protoFormat: {},
         })), 3);
});

// An hllpp_unique_count family of raw input (types.proto: "omit for
// Raw"): AddToCell's raw_value bytes are counted, MergeToCell merges
// another cell's sketch, and SQL's HLL_COUNT.EXTRACT reads the count.
await check('an hllpp_unique_count family counts raw bytes and merges sketches', async () => {
  await call(tables, 'CreateTable', {
    parent: INSTANCE, tableId: 'uniques',
    table: {columnFamilies: {u: {valueType: {aggregateType: {hllppUniqueCount: {}}}}}},
  });
  const add = (row, qualifier, input, merge) => call(data, 'MutateRow', {
    tableName: `${INSTANCE}/tables/uniques`, rowKey: Buffer.from(row),
    mutations: [{[merge ? 'mergeToCell' : 'addToCell']: {
      familyName: 'u', columnQualifier: {rawValue: Buffer.from(qualifier)},
      timestamp: {rawTimestampMicros: '1000'}, input: {rawValue: input}}}],
  });
  for (const name of ['alice', 'bob', 'alice', 'carol']) await add('a', 'who', Buffer.from(name));
  for (const name of ['carol', 'dave']) await add('b', 'who', Buffer.from(name));
  expect('an int input', await codeOf(call(data, 'MutateRow', {
           tableName: `${INSTANCE}/tables/uniques`, rowKey: Buffer.from('a'),
           mutations: [{addToCell: {familyName: 'u', columnQualifier: {rawValue: Buffer.from('who')},
                                    timestamp: {rawTimestampMicros: '1000'}, input: {intValue: '5'}}}],
         })), 3);
  const cells = await readAll('uniques');
  const sketchOfB = Buffer.from(cells.find(c => c.startsWith('b ')).split('=').slice(1).join('='), 'latin1');
  await add('a', 'who', sketchOfB, true);
  const instance = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local');
  const [statement] = await instance.prepareStatement(
      {query: 'SELECT _key, HLL_COUNT.EXTRACT(u[\'who\']) AS n FROM uniques ORDER BY _key'});
  const counts = [];
  for await (const row of instance.createExecuteQueryStream({preparedStatement: statement})) {
    counts.push(`${Buffer.from(row.get('_key')).toString()}=${row.get('n')}`);
  }
  expect('counts', counts, ['a=4', 'b=2']);
});

// Schema bundles (table.proto's SchemaBundle): a FileDescriptorSet kept
// with its table, checked when created, updated with its etag, listed and
// deleted, as the pinned bigtable_table_admin.proto describes.
await check('schema bundles are kept, checked, updated with their etag and deleted', async () => {
  require('protobufjs/ext/descriptor');
  const {FileDescriptorSet} = require('protobufjs/ext/descriptor');
  const descriptors = text => FileDescriptorSet.encode(protobuf.parse(text).root.toDescriptor('proto3')).finish();
  const v1 = descriptors('syntax = "proto3"; package shop; message Order { string id = 1; int64 cents = 2; }');
  const v2 = descriptors('syntax = "proto3"; package shop; message Order { string id = 1; int64 cents = 2; string sku = 3; }');
  await call(tables, 'CreateTable', {parent: INSTANCE, tableId: 'orders', table: {columnFamilies: {o: {}}}});
  const parent = `${INSTANCE}/tables/orders`;
  const created = await call(tables, 'CreateSchemaBundle', {
    parent, schemaBundleId: 'shop', schemaBundle: {protoSchema: {protoDescriptors: v1}},
  });
  expect('operation done', created.done, true);
  const got = await call(tables, 'GetSchemaBundle', {name: `${parent}/schemaBundles/shop`});
  expect('name', got.name, `${parent}/schemaBundles/shop`);
  expect('descriptors kept', Buffer.from(got.protoSchema.protoDescriptors).equals(Buffer.from(v1)), true);
  expect('garbage descriptors', await codeOf(call(tables, 'CreateSchemaBundle', {
           parent, schemaBundleId: 'bad', schemaBundle: {protoSchema: {protoDescriptors: Buffer.from('junk')}},
         })), 3);
  expect('an id in use', await codeOf(call(tables, 'CreateSchemaBundle', {
           parent, schemaBundleId: 'shop', schemaBundle: {protoSchema: {protoDescriptors: v1}},
         })), 6);
  const stale = {schemaBundle: {name: got.name, protoSchema: {protoDescriptors: v2}, etag: 'not-the-etag'}};
  expect('a stale etag', await codeOf(call(tables, 'UpdateSchemaBundle', stale)), 10);
  await call(tables, 'UpdateSchemaBundle', {schemaBundle: {name: got.name, protoSchema: {protoDescriptors: v2}, etag: got.etag}});
  const listed = await call(tables, 'ListSchemaBundles', {parent});
  expect('listed', listed.schemaBundles.map(b => b.name.split('/').pop()), ['shop']);
  expect('updated', Buffer.from(listed.schemaBundles[0].protoSchema.protoDescriptors).equals(Buffer.from(v2)), true);
  await call(tables, 'DeleteSchemaBundle', {name: got.name});
  expect('deleted', await codeOf(call(tables, 'GetSchemaBundle', {name: got.name})), 5);
});

// SQL reads a cell's protobuf message through its table's schema bundle:
// CAST(bytes AS bundle.package.Message) is a STRUCT of its fields, nested
// messages, repeated fields as arrays and enums by name.
await check('SQL reads protobuf cells through a schema bundle', async () => {
  const {FileDescriptorSet} = require('protobufjs/ext/descriptor');
  const schema = `syntax = "proto3"; package shop;
    enum Size { SIZE_UNSPECIFIED = 0; SMALL = 1; LARGE = 2; }
    message Item { string sku = 1; Size size = 2; }
    message Order { string id = 1; int64 cents = 2; repeated Item items = 3; Item gift = 4; }`;
  const root = protobuf.parse(schema).root;
  await call(tables, 'CreateTable', {parent: INSTANCE, tableId: 'sales', table: {columnFamilies: {o: {}}}});
  await call(tables, 'CreateSchemaBundle', {
    parent: `${INSTANCE}/tables/sales`, schemaBundleId: 'store',
    schemaBundle: {protoSchema: {protoDescriptors: FileDescriptorSet.encode(root.toDescriptor('proto3')).finish()}},
  });
  const Order = root.lookupType('shop.Order');
  const order = Order.encode(Order.create(
      {id: 'A17', cents: 2599, items: [{sku: 'pen', size: 1}, {sku: 'ink', size: 2}]})).finish();
  await call(data, 'MutateRow', {
    tableName: `${INSTANCE}/tables/sales`, rowKey: Buffer.from('r1'),
    mutations: [{setCell: {familyName: 'o', columnQualifier: Buffer.from('order'), timestampMicros: '1000', value: order}}],
  });
  const instance = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local');
  const [statement] = await instance.prepareStatement({query: `SELECT
      CAST(o['order'] AS store.shop.Order).id AS id, CAST(o['order'] AS store.shop.Order).cents AS cents,
      ARRAY_LENGTH(CAST(o['order'] AS store.shop.Order).items) AS items,
      CAST(o['order'] AS store.shop.Order).items[OFFSET(1)].size AS second_size,
      CAST(o['order'] AS store.shop.Order).gift IS NULL AS no_gift FROM sales`});
  const rows = [];
  for await (const row of instance.createExecuteQueryStream({preparedStatement: statement})) {
    rows.push([row.get('id'), String(row.get('cents')), String(row.get('items')), row.get('second_size'),
               row.get('no_gift')].join(' '));
  }
  expect('decoded', rows, ['A17 2599 2 LARGE true']);
  // Families of the bundle's types (Type.Proto, Type.Enum) read decoded.
  await call(tables, 'ModifyColumnFamilies', {name: `${INSTANCE}/tables/sales`, modifications: [
    {id: 'typed', create: {valueType: {protoType: {schemaBundleId: 'store', messageName: 'shop.Order'}}}},
    {id: 'sz', create: {valueType: {enumType: {schemaBundleId: 'store', enumName: 'shop.Size'}}}},
  ]});
  const large = Buffer.alloc(8);
  large.writeBigInt64BE(2n);
  await call(data, 'MutateRow', {
    tableName: `${INSTANCE}/tables/sales`, rowKey: Buffer.from('r1'),
    mutations: [
      {setCell: {familyName: 'typed', columnQualifier: Buffer.from('q'), timestampMicros: '1000', value: order}},
      {setCell: {familyName: 'sz', columnQualifier: Buffer.from('q'), timestampMicros: '1000', value: large}},
    ],
  });
  const [typed] = await instance.prepareStatement({query: 'SELECT typed[\'q\'].id AS id, sz[\'q\'] AS size FROM sales'});
  const typedRows = [];
  for await (const row of instance.createExecuteQueryStream({preparedStatement: typed})) {
    typedRows.push(`${row.get('id')} ${row.get('size')}`);
  }
  expect('typed families', typedRows, ['A17 LARGE']);
  const table = await call(tables, 'GetTable', {name: `${INSTANCE}/tables/sales`, view: 'SCHEMA_VIEW'});
  expect('GetTable', table.columnFamilies.typed.valueType.protoType.messageName, 'shop.Order');
  expect('deleting a bundle a family uses', await codeOf(call(tables, 'DeleteSchemaBundle',
                                                            {name: `${INSTANCE}/tables/sales/schemaBundles/store`})), 9);
  expect('a family of a type the bundle lacks', await codeOf(call(tables, 'ModifyColumnFamilies', {
           name: `${INSTANCE}/tables/sales`,
           modifications: [{id: 'bad', create: {valueType: {protoType: {schemaBundleId: 'store', messageName: 'shop.Nope'}}}}],
         })), 3);
  const [unknown] = await Promise.allSettled([instance.prepareStatement(
      {query: 'SELECT CAST(o[\'order\'] AS store.shop.Nope) AS x FROM sales'})]);
  expect('an unknown message type', unknown.status, 'rejected');
});

process.exit(failed() ? 1 : 0);
