// lbt studio's page: the SQL editor (runs, the typed grid, explain's tree, logical views,
// history, completion). Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

// --- SQL ---
let functionNames = [];
const HISTORY = 'lbt-studio-history';
function history() { try { return JSON.parse(localStorage.getItem(HISTORY)) || []; } catch { return []; } }
function remember(query) {
  const list = [query, ...history().filter((q) => q !== query)].slice(0, 50);
  localStorage.setItem(HISTORY, JSON.stringify(list));
  showHistory();
}
function showHistory() {
  const select = $('history');
  select.replaceChildren(new Option(`history (${history().length})`, ''));
  for (const q of history()) select.appendChild(new Option(q.length > 90 ? q.slice(0, 90) + '…' : q, q));
}

async function openSql(query) {
  $('sql-input').value = query;
  showTab('sql');
  await runSql();
}

function cellText(value) { return typeof value === 'object' && value !== null ? JSON.stringify(value) : value; }

async function runSql() {
  const query = $('sql-input').value.trim();
  if (!query) return;
  const started = performance.now();
  $('sql-stop').hidden = false;
  $('sql-plan').replaceChildren();
  let rows;
  // One query at a time: Stop ends the one that runs.
  $('sql-run').disabled = $('sql-explain').disabled = true;
  try {
    rows = await run('sql ' + query);
  } finally {
    $('sql-stop').hidden = true;
    $('sql-run').disabled = $('sql-explain').disabled = false;
  }
  remember(query);
  sqlRows = rows;
  sqlColumns = rows.columns || (rows.length ? Object.keys(rows[0]).map((name) => ({name, type: ''})) : []);
  fill($('sql-grid'), sqlColumns, []);
  showMoreSql();
  $('sql-summary').textContent = `${rows.length} rows in ${Math.round(performance.now() - started)} ms` +
      (rows.truncated ? '; the rest were cut at the server\'s bound: narrow the query (LIMIT, a key range)' : '');
}

// The grid takes the answer's rows a thousand at a time, so that a big
// answer does not make the page slow.
let sqlRows = [], sqlColumns = [];
const GRID_STEP = 1000;
function showMoreSql() {
  const grid = $('sql-grid');
  const shown = grid.rows.length - 1;
  for (const r of sqlRows.slice(shown, shown + GRID_STEP)) {
    const tr = grid.insertRow();
    for (const c of sqlColumns) {
      const b64 = r[c.name + '_b64'];
      const value = b64 !== undefined ? escaped(bytesOf('', b64)) : cellText(r[c.name]);
      tr.insertCell().textContent = value === null || value === undefined ? 'NULL' : String(value);
    }
  }
  const left = sqlRows.length - (grid.rows.length - 1);
  $('sql-more').hidden = left <= 0;
  $('sql-more').textContent = `Show ${Math.min(left, GRID_STEP).toLocaleString()} more of ${left.toLocaleString()} rows`;
}

// EXPLAIN runs the query and shows its operators as a tree, with the rows
// each handed on.
async function explainSql() {
  const query = $('sql-input').value.trim();
  if (!query) return;
  const [plan] = await run('explain ' + query);
  if (!plan || !Array.isArray(plan.rows)) throw new Error('Explain shows how a SQL query runs: write a SELECT');
  const root = document.createElement('ul');
  const stack = [root];
  for (const node of plan.rows) {
    const depth = node.operator.length - node.operator.trimStart().length >> 1;
    while (stack.length > depth + 1) stack.pop();
    const li = document.createElement('li');
    const box = document.createElement('span');
    box.className = 'node';
    box.dataset.operator = node.operator.trim();
    const name = document.createElement('b');
    name.textContent = node.operator.trim();
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = `${node.rows} rows`;
    const detail = document.createElement('div');
    detail.textContent = node.detail;
    box.append(name, count, detail);
    li.appendChild(box);
    const children = document.createElement('ul');
    li.appendChild(children);
    stack[stack.length - 1].appendChild(li);
    stack.push(children);
  }
  const tree = $('sql-plan');
  tree.replaceChildren(root);
  if (plan.stats) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = `read ${plan.stats.ranges_read} of ${plan.stats.table}: ${plan.stats.rows_examined} rows examined, ` +
                    `${plan.stats.rows_returned} returned`;
    tree.appendChild(p);
  }
  fill($('sql-grid'), [], []);
  $('sql-more').hidden = true;
}

async function saveView() {
  const query = $('sql-input').value.trim();
  if (!query) throw new Error('write a query first');
  const name = prompt('Save the query as the logical view named:');
  if (!name) return;
  // An id is a plain word (the command takes the rest of the line as the query).
  if (!/^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/.test(name)) {
    throw new Error(`'${name}' is not a view id: letters, digits, _ - . (at most 50)`);
  }
  await run(`createlogicalview ${name} ${query}`);
  $('sql-summary').textContent = `saved as logical view ${name}: SELECT * FROM ${sqlName(name)}`;
  await loadSidebar();
}

// Completion: the word before the caret against tables, views, families
// of the tables read so far, and GoogleSQL's functions.
let choices = [], chosen = 0;
function completionWords() {
  const words = [...document.querySelectorAll('aside li[data-table], aside li[data-view]')]
      .map((li) => li.dataset.table || li.dataset.view);
  for (const info of schemas.values()) for (const f of info.families) words.push(f.name);
  return [...new Set([...words, ...functionNames.map((f) => f + '(')])];
}
async function complete(force) {
  const input = $('sql-input'), box = $('completion');
  const before = input.value.slice(0, input.selectionStart);
  const match = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
  const fromWord = /\b(FROM|JOIN)\s+$/i.test(before);
  if (!match && !(force || fromWord)) { box.hidden = true; return; }
  const typed = match ? match[0] : '';
  // Families of the table the query reads.
  const table = /\bFROM\s+([A-Za-z0-9_.-]+)/i.exec(input.value);
  if (table && !schemas.has(table[1]) && [...$('tables').children].some((li) => li.dataset.table === table[1])) {
    schemas.set(table[1], (await run('ls ' + word(table[1])))[0]);
  }
  choices = completionWords().filter((w) => w.toUpperCase().startsWith(typed.toUpperCase()) && w !== typed).slice(0, 40);
  if (!choices.length || (typed.length < 2 && !force && !fromWord)) { box.hidden = true; return; }
  chosen = 0;
  box.replaceChildren(...choices.map((c, i) => {
    const div = document.createElement('div');
    div.textContent = c;
    div.className = i === chosen ? 'active' : '';
    div.addEventListener('mousedown', (e) => { e.preventDefault(); accept(i); });
    return div;
  }));
  // In the editor's top right corner: never over the buttons below it.
  box.style.right = '8px';
  box.style.top = '4px';
  box.hidden = false;
}
function accept(i) {
  const input = $('sql-input');
  const caret = input.selectionStart;
  const before = input.value.slice(0, caret);
  const typed = (/[A-Za-z_][A-Za-z0-9_]*$/.exec(before) || [''])[0];
  input.value = before.slice(0, caret - typed.length) + choices[i] + input.value.slice(caret);
  const at = caret - typed.length + choices[i].length;
  input.setSelectionRange(at, at);
  $('completion').hidden = true;
  input.focus();
}
function completionKeys(e) {
  const box = $('completion');
  if (e.key === ' ' && e.ctrlKey) { e.preventDefault(); complete(true).catch(showError); return; }
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    box.hidden = true;
    if (!$('sql-run').disabled) act(runSql)();
    return;
  }
  if (box.hidden) return;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    chosen = (chosen + (e.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length;
    [...box.children].forEach((d, i) => d.classList.toggle('active', i === chosen));
  } else if (e.key === 'Tab' || e.key === 'Enter') {
    e.preventDefault();
    accept(chosen);
  } else if (e.key === 'Escape') {
    box.hidden = true;
  }
}

