// lbt studio's page: what every part uses: the API (run, post, stop), errors, bytes and
// the words of the shell's language, grids and tabs. Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

const params = new URLSearchParams(location.search);
const token = params.get('token') || '';
const $ = (id) => document.getElementById(id);
let currentTable = null;
const schemas = new Map();  // table -> its `ls` answer, for completion

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', 'X-Lbt-Token': token},
    body: JSON.stringify(body || {}),
  });
  const answer = await response.json();
  if (!answer.ok) throw new Error(answer.error);
  return answer;
}

// Runs a statement of the shell's language; resolves to its JSON documents
// (rows one each, cut at the server's bound when `truncated`; a query's
// columns with their types in `columns`).
async function run(statement) {
  const answer = await post('/api/run', {statement});
  answer.results.truncated = Boolean(answer.truncated);
  answer.results.columns = answer.columns || null;
  if (answer.notes) $('notes').textContent = answer.notes.join(' ');
  return answer.results;
}

// Asks the server to stop the statement running now.
function stop() {
  return fetch('/api/cancel', {method: 'POST', headers: {'X-Lbt-Token': token}});
}

// A person's action, as a handler: the last error goes, and the action's
// own shows. (A request that succeeds does not clear it: another one
// still under way would hide the error just shown.)
function act(action) {
  return (...args) => {
    $('error').textContent = '';
    return Promise.resolve().then(() => action(...args)).catch(showError);
  };
}

function showError(error) { $('error').textContent = String(error.message || error); }

// --- bytes: keys and values travel as text, or base64 when not UTF-8 ---
const encoder = new TextEncoder();
function bytesOf(text, b64) {
  if (b64 === undefined) return encoder.encode(text);
  const raw = atob(b64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}
const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
// Printable ASCII as is, other bytes as \xNN (cbt's way).
const escaped = (bytes) => [...bytes].map((b) => (b === 92 ? '\\\\' : b >= 32 && b < 127 ? String.fromCharCode(b)
                                                  : '\\x' + b.toString(16).padStart(2, '0'))).join('');
// Text as is, unless it is not UTF-8 or holds control characters: then as
// cbt prints bytes.
function readable(text, b64) {
  return b64 === undefined && !/[\x00-\x1f\x7f]/.test(text) ? text : escaped(bytesOf(text, b64));
}
function int64(bytes) {
  if (bytes.length !== 8) return null;
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, false).toString();
}
// A word of the shell's language holding exactly `bytes`: $'...' with
// escapes for anything but plain printable ASCII.
function byteWord(bytes) {
  let out = "$'";
  for (const b of bytes) {
    if (b >= 32 && b < 127 && b !== 39 && b !== 92) out += String.fromCharCode(b);
    else out += '\\x' + b.toString(16).padStart(2, '0');
  }
  return out + "'";
}
// A table or view id in SQL: quoted, as ids may hold - and . (never `).
function sqlName(id) { return '`' + id + '`'; }
function word(text) { return byteWord(encoder.encode(String(text))); }
// The first key after every key starting with `prefix` (empty: none).
function prefixEnd(bytes) {
  const end = [...bytes];
  while (end.length && end[end.length - 1] === 255) end.pop();
  if (end.length) end[end.length - 1]++;
  return Uint8Array.from(end);
}

function fill(table, header, rows) {
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of header) {
    const th = document.createElement('th');
    if (typeof h === 'object') {
      th.textContent = h.name;
      th.dataset.name = h.name;
      const small = document.createElement('small');
      small.textContent = h.type;
      th.appendChild(small);
    } else {
      th.textContent = h;
    }
    head.appendChild(th);
  }
  for (const row of rows) {
    const tr = table.insertRow();
    for (const value of row) tr.insertCell().textContent = value === null ? 'NULL' : String(value);
  }
}

function showTab(name) {
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const s of document.querySelectorAll('main section')) s.hidden = s.id !== name;
  if (name !== 'live') stopLive();
}

function listItems(list, names, onPick, attribute) {
  list.replaceChildren();
  for (const name of names) {
    const li = document.createElement('li');
    li.textContent = name;
    li.dataset[attribute] = name;
    if (onPick) li.addEventListener('click', act(() => onPick(name)));
    list.appendChild(li);
  }
}

