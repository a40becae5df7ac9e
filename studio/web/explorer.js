// lbt studio's page: the explorer (instances, tables, views, a table's facts). Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

// --- explorer ---
async function loadSidebar() {
  $('notes').textContent = '';
  const [listing] = await run('ls');
  listItems($('tables'), listing.tables, selectTable, 'table');
  if (!listing.tables.length && !currentTable) {
    $('explorer-hint').textContent = 'No tables here yet: create one below, or in the shell (createtable).';
  }
  const optional = async (statement) => { try { return (await run(statement))[0]; } catch { return null; } };
  const logical = await optional('listlogicalviews');
  listItems($('logical-views'), (logical ? logical.logical_views : []).map((v) => v.logical_view), selectLogicalView, 'view');
  const materialized = await optional('listmaterializedviews');
  listItems($('materialized-views'), (materialized ? materialized.materialized_views : []).map((v) => v.materialized_view),
            selectMaterializedView, 'view');
  const instances = await optional('listinstances');
  const list = $('instances');
  list.replaceChildren();
  for (const i of instances ? instances.instances : []) {
    const li = document.createElement('li');
    li.textContent = i.display_name && i.display_name !== i.instance ? `${i.instance} · ${i.display_name}` : i.instance;
    li.dataset.instance = i.instance;
    li.title = `switch to ${i.project}/${i.instance}`;
    li.classList.toggle('active', where && where.project === i.project && where.instance === i.instance);
    li.addEventListener('click', act(() => switchInstance(i.project, i.instance)));
    list.appendChild(li);
  }
}

// The instance statements run in, shown in the header.
let where = null;
function showWhere(answer) {
  where = answer;
  $('where').textContent = `${answer.project}/${answer.instance} · ${answer.on}` + (answer.read_only ? ' · read-only' : '');
  document.body.classList.toggle('read-only', Boolean(answer.read_only));
}
async function switchInstance(project, instance) {
  showWhere(await post('/api/run', {statement: `useinstance ${word(instance)} project=${word(project)}`}));
  currentTable = null;
  schemas.clear();
  $('table-name').textContent = '';
  $('table-facts').replaceChildren();
  fill($('families'), [], []);
  fill($('authorized-views'), [], []);
  $('views-title').hidden = true;
  $('table-actions').hidden = true;
  $('explorer-hint').textContent = 'Pick a table or a view.';
  showTab('explorer');
  await loadSidebar();
}

function facts(pairs) {
  const dl = $('table-facts');
  dl.replaceChildren();
  for (const [label, value] of pairs) {
    const dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = label;
    dd.textContent = value;
    dd.dataset.fact = label;
    dl.append(dt, dd);
  }
}

function markPicked(name) {
  for (const li of document.querySelectorAll('aside li')) {
    li.classList.toggle('active', (li.dataset.table || li.dataset.view) === name);
  }
}

const size = (n) => (n >= 1 << 30 ? (n / (1 << 30)).toFixed(1) + ' GiB' : n >= 1 << 20 ? (n / (1 << 20)).toFixed(1) + ' MiB'
                     : n >= 1024 ? (n / 1024).toFixed(1) + ' KiB' : n + ' B');

async function selectTable(name) {
  currentTable = name;
  markPicked(name);
  const [info] = await run('ls ' + word(name));
  schemas.set(name, info);
  $('explorer-hint').textContent = '';
  $('table-name').textContent = info.table;
  $('table-actions').hidden = false;
  facts([['timestamps', info.granularity], ['change stream', info.change_stream_retention ? `kept ${info.change_stream_retention}` : 'off'],
         ['row-key schema', info.row_key_schema || 'none (the key is _key, bytes)'], ['size', 'measuring...']]);
  fill($('families'), ['family', 'GC policy', 'value type'],
       info.families.map((f) => [f.name, f.gc_policy || 'never', f.value_type]));
  await loadProtoTypes(name);
  const views = (await run('listauthorizedviews ' + word(name)))[0].authorized_views || [];
  $('views-title').hidden = !views.length;
  fill($('authorized-views'), views.length ? ['authorized view', 'row prefixes', 'columns'] : [],
       views.map((v) => [v.authorized_view, (v.row_prefixes || []).join(', ') || '(all rows)',
                         Object.entries(v.family_subsets || {}).map(([f, s]) =>
                           [...s.qualifiers.map((q) => `${f}:${q}`), ...s.qualifier_prefixes.map((q) => `${f}:${q}*`)].join(', ')).join('; ')]));
  // Size and rows: stats's totals, exact when it read every row, else
  // estimated from its sample.
  const [stats] = await run(`stats ${word(name)} sample=10000`);
  if (currentTable !== name) return;
  const about = stats.exact ? '' : '≈ ';
  document.querySelector('dd[data-fact="size"]').textContent =
      `${about}${stats.rows.toLocaleString()} rows, ${about}${stats.cells.toLocaleString()} cells, ${about}${size(stats.bytes)}` +
      (stats.exact ? '' : ` (estimated from ${stats.rows_sampled.toLocaleString()} sampled rows)`);
}

async function createTable() {
  const name = $('new-table').value.trim(), families = $('new-families').value.trim();
  if (!/^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/.test(name)) {
    throw new Error(`'${name}' is not a table id: letters, digits, _ - . (at most 50)`);
  }
  await run(`createtable ${word(name)}` + (families ? ` ${word('families=' + families)}` : ''));
  $('new-table').value = $('new-families').value = '';
  await loadSidebar();
  await selectTable(name);
}

async function selectLogicalView(name) {
  markPicked(name);
  const [view] = await run('getlogicalview ' + word(name));
  showView(`logical view ${name}`, [['query', view.query], ['deletion protection', String(view.deletion_protection)]], name);
}

async function selectMaterializedView(name) {
  markPicked(name);
  const [view] = await run('getmaterializedview ' + word(name));
  showView(`materialized view ${name}`, [['query', view.query], ['source table', view.source_table], ['state', view.state],
                                          ['deletion protection', String(view.deletion_protection)]], name);
}

function showView(title, pairs, name) {
  showTab('explorer');
  $('explorer-hint').textContent = '';
  $('table-name').textContent = title;
  $('table-actions').hidden = true;
  facts(pairs);
  fill($('families'), [], []);
  fill($('authorized-views'), [], []);
  $('views-title').hidden = true;
  const button = document.createElement('button');
  button.className = 'small';
  button.textContent = 'Query in SQL';
  button.addEventListener('click', act(() => openSql(`SELECT * FROM ${sqlName(name)} LIMIT 100`)));
  $('table-facts').append(document.createElement('dt'), button);
}

