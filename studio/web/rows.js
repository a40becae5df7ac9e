// lbt studio's page: the rows view (reads, pages, values shown and decoded, edits, export). Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

// --- rows ---
// The message types of the table's schema bundles, offered as ways to
// show values ("proto:<bundle>.<package>.<Message>").
async function loadProtoTypes(table) {
  const select = $('rows-show');
  for (const option of [...select.options]) if (option.value.startsWith('proto:')) option.remove();
  let bundles = [];
  try { bundles = (await run('listschemabundles ' + word(table)))[0].schema_bundles || []; } catch { return; }
  for (const bundle of bundles) {
    const [info] = await run(`getschemabundle ${word(table)} ${word(bundle.id)}`);
    for (const type of info.types) select.add(new Option(`as ${bundle.id}.${type}`, `proto:${bundle.id}.${type}`));
  }
}

// Decodes the values of `cells` as protobuf message `type` of the table's
// bundles, through SQL's SAFE_CAST (a value that is not one stays NULL):
// a map from each cell to its message as JSON.
// Cells past 64 KiB are left as bytes: their text would make the query big.
const DECODE_BATCH = 200, DECODE_MAX_BYTES = 64 << 10;
function base64Of(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(text);
}
async function decodeProtos(all, type) {
  const decoded = new Map();
  const cells = all.filter((c) => bytesOf(c.value, c.value_b64).length <= DECODE_MAX_BYTES);
  for (let i = 0; i < cells.length; i += DECODE_BATCH) {
    const batch = cells.slice(i, i + DECODE_BATCH);
    const columns = batch.map((c, j) =>
        `SAFE_CAST(FROM_BASE64('${base64Of(bytesOf(c.value, c.value_b64))}') AS ${type}) AS v${j}`);
    const [row] = await run(`sql SELECT ${columns.join(', ')} FROM ${sqlName(currentTable)} LIMIT 1`);
    if (!row) break;  // an empty table shows no cells
    batch.forEach((c, j) => { if (row[`v${j}`] !== null) decoded.set(c, JSON.stringify(row[`v${j}`])); });
  }
  return decoded;
}
let decodedCells = new Map();
let shownRows = [];   // the rows on screen, as the server sent them
let lastKey = null;   // bytes of the last row on screen, for the next page

// Rows a page shows: what the box says, 1 to 1000 (50 when empty); the box
// is set to what is used.
function pageSize() {
  const count = Math.max(1, Math.min(1000, Math.floor(Number($('rows-count').value)) || 50));
  $('rows-count').value = count;
  return count;
}

function readStatement(after, count) {
  if (!currentTable) throw new Error('pick a table first');
  const mode = $('rows-mode').value;
  let statement = `read ${word(currentTable)}`;
  let start = null, end = null;
  if (mode === 'prefix' && $('rows-prefix').value) {
    const prefix = encoder.encode($('rows-prefix').value);
    if (after) { start = after; end = prefixEnd(prefix); } else statement += ` prefix=${byteWord(prefix)}`;
  } else if (mode === 'range') {
    start = after || ($('rows-start').value ? encoder.encode($('rows-start').value) : null);
    end = $('rows-end').value ? encoder.encode($('rows-end').value) : null;
  } else if (mode === 'regex') {
    if (after) start = after;
    if ($('rows-regex').value) statement += ` regex=${word($('rows-regex').value)}`;
  } else if (after) {
    start = after;
  }
  if (start) statement += ` start=${byteWord(start)}`;
  if (end && end.length) statement += ` end=${byteWord(end)}`;
  // One row more than the page, to know whether another page follows; a
  // page after `after` starts at it: one more again, the first dropped.
  statement += ` count=${count + 1 + (after ? 1 : 0)}`;
  if ($('rows-versions').value === 'newest') statement += ' cells-per-column=1';
  const filter = $('rows-filter').value.trim();
  if (filter) statement += ` filter=${word(filter)}`;
  return statement;
}

function keyBytes(row) { return bytesOf(row.key, row.key_b64); }
function columnOf(cell) { return `${cell.family}:${readable(cell.qualifier, cell.qualifier_b64)}`; }
function shownValue(cell) {
  const bytes = bytesOf(cell.value, cell.value_b64);
  const mode = $('rows-show').value;
  if (mode.startsWith('proto:')) return decodedCells.get(cell) ?? `${escaped(bytes)} (not a ${mode.slice(6)})`;
  if (mode === 'hex') return hex(bytes);
  if (mode === 'int64') return int64(bytes) ?? `${hex(bytes)} (hex: not 8 bytes)`;
  if (cell.value_int !== undefined) return String(cell.value_int);
  return readable(cell.value, cell.value_b64);
}

// Only the latest browse draws: one begun before it (a deep link's, a
// select's change) may answer after it.
let rowsRequest = 0;

async function browseRows(next) {
  const mine = ++rowsRequest;
  const after = next ? lastKey : null;
  const count = pageSize();
  const answer = await run(readStatement(after, count));
  if (mine !== rowsRequest) return;
  const truncated = answer.truncated;
  let rows = answer.filter((r) => r.cells);
  if (after && rows.length && hex(keyBytes(rows[0])) === hex(after)) rows = rows.slice(1);
  const more = rows.length > count;
  shownRows = rows.slice(0, count);
  lastKey = shownRows.length ? keyBytes(shownRows[shownRows.length - 1]) : null;
  const show = $('rows-show').value;
  const decoded = show.startsWith('proto:') ? await decodeProtos(shownRows.flatMap((r) => r.cells), show.slice(6))
                                            : new Map();
  if (mine !== rowsRequest) return;
  decodedCells = decoded;
  const cells = [];
  for (const row of shownRows) {
    const key = readable(row.key, row.key_b64);
    for (const c of row.cells) cells.push([key, columnOf(c), c.timestamp, shownValue(c), row]);
  }
  const grid = $('rows-grid');
  fill(grid, ['row key', 'column', 'timestamp', 'value', ''], cells.map((c) => [c[0], c[1], c[2], c[3], '']));
  // A delete button on each row's first cell line, asking first.
  let previous = null;
  [...grid.rows].slice(1).forEach((tr, i) => {
    const row = cells[i][4];
    if (row === previous) return;
    previous = row;
    const button = document.createElement('button');
    button.className = 'small writes';
    button.textContent = 'delete row';
    button.dataset.row = cells[i][0];
    button.addEventListener('click', act(() => deleteRow(row)));
    tr.cells[4].appendChild(button);
  });
  $('rows-next').disabled = !more;
  $('rows-csv').disabled = $('rows-jsonl').disabled = !shownRows.length;
  $('rows-summary').textContent = `${shownRows.length} rows` + (next ? ' (next page)' : '') +
      (more ? '' : shownRows.length ? '; no more' : '') + (truncated ? ' (cut at the server\'s bound)' : '');
}

async function deleteRow(row) {
  const key = readable(row.key, row.key_b64);
  if (!confirm(`Delete row ${key} of ${currentTable}? Every cell of it goes.`)) return;
  await run(`deleterow ${word(currentTable)} ${byteWord(keyBytes(row))}`);
  await browseRows(false);
}

async function setCell() {
  if (!currentTable) throw new Error('pick a table first');
  const key = $('edit-key').value, column = $('edit-column').value;
  if (!key || !column.includes(':')) throw new Error('a row key and a family:qualifier are needed');
  // set reads a last @<digits> as the timestamp: a value that ends so gets
  // one of its own, now, so that it is stored as typed.
  let value = $('edit-value').value;
  if (/@\d+$/.test(value)) value += `@${Date.now() * 1000}`;
  await run(`set ${word(currentTable)} ${word(key)} ${word(column + '=' + value)}`);
  await browseRows(false);
}

// What is on screen, as a file: CSV (one line a cell, values as shown) or
// the rows' JSON lines as the server sent them.
function csvField(text) { return /[",\n\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text; }
function rowsAsCsv() {
  const lines = ['row_key,family,qualifier,timestamp,value'];
  for (const row of shownRows) {
    const key = readable(row.key, row.key_b64);
    for (const c of row.cells) {
      lines.push([key, c.family, readable(c.qualifier, c.qualifier_b64), String(c.timestamp), shownValue(c)]
                     .map(csvField).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
function rowsAsJsonl() { return shownRows.map((r) => JSON.stringify(r)).join('\n') + '\n'; }
function download(name, text, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], {type}));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function showRowInputs() {
  const mode = $('rows-mode').value;
  $('rows-prefix').hidden = mode !== 'prefix';
  $('rows-start').hidden = $('rows-end').hidden = mode !== 'range';
  $('rows-regex').hidden = mode !== 'regex';
}

