// The list benchmark itself, host-neutral: Node (listing.mjs) and Chromium
// (listing-browser.mjs) both run this module on the same rows and the same query.
//
// Engines, measured in the same run on the same generated alerts:
//   edgeattest   ListTable (rows loaded once into the wasm columnar table) .query(qs)
//   js           idiomatic JS: Array.prototype.filter, sort with a comparator, slice
//   sql.js       SQLite compiled to wasm, rows in a table without indexes, a COUNT and a
//                LIMIT/OFFSET query (prepared once)
//   sql.js+index the same with an index made for this one sort order (information only:
//                it is per-query tuning, which neither of the others gets)
// Every engine must return the same page (alert ids) and filtered count, or the run fails.

export const PATH = '/analytics/alerts/filter';
export const QUERY =
  'filter=severity%5Bneq%5Dinfo&filter=description%5Bcon%5Dport' +
  '&sorting=timestamp%5Bdesc%5D,occurrence%5Basc%5D&page_number=3&rpp=50';
const PAGE = 3;
const RPP = 50;

/** The idiomatic JS version of QUERY: what a user writes without a library. */
export function jsQuery(rows) {
  const filtered = rows.filter((r) => r.severity !== 'info' && r.description.includes('port'));
  filtered.sort(
    (a, b) => b.timestamp - a.timestamp || a.occurrence - b.occurrence || a.alert_id - b.alert_id,
  );
  const start = (PAGE - 1) * RPP;
  const data = filtered.slice(start, start + RPP);
  return {
    data,
    filtered_resources: filtered.length,
    first_index: data.length ? start + 1 : 0,
    last_index: start + data.length,
    num_of_pages: Math.ceil(filtered.length / RPP),
  };
}

const COLUMNS = [
  'alert_id INTEGER PRIMARY KEY',
  'occurrence INTEGER',
  'severity TEXT',
  'description TEXT',
  'influencers TEXT',
  'percentage REAL',
  'influencers_display_names TEXT',
  'timestamp INTEGER',
];
// instr() rather than LIKE: LIKE is case-insensitive for ASCII, `con` is not.
const WHERE = "severity <> 'info' AND instr(description, 'port') > 0";

function sqlLoad(SQL, rows, indexed) {
  const db = new SQL.Database();
  db.run(`CREATE TABLE alerts (${COLUMNS.join(', ')})`);
  db.run('BEGIN');
  const insert = db.prepare('INSERT INTO alerts VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  for (const r of rows) {
    insert.run([
      r.alert_id, r.occurrence, r.severity, r.description, JSON.stringify(r.influencers),
      r.percentage, JSON.stringify(r.influencers_display_names), r.timestamp,
    ]);
  }
  insert.free();
  db.run('COMMIT');
  if (indexed) db.run('CREATE INDEX alerts_ts_occ ON alerts (timestamp DESC, occurrence ASC, alert_id ASC)');
  const count = db.prepare(`SELECT count(*) FROM alerts WHERE ${WHERE}`);
  const page = db.prepare(
    `SELECT * FROM alerts WHERE ${WHERE} ORDER BY timestamp DESC, occurrence ASC, alert_id ASC LIMIT ? OFFSET ?`,
  );
  return { db, count, page };
}

function sqlQuery({ count, page }) {
  count.step();
  const filtered = count.get()[0];
  count.reset();
  const start = (PAGE - 1) * RPP;
  page.bind([RPP, start]);
  const data = [];
  while (page.step()) {
    const r = page.getAsObject();
    r.influencers = JSON.parse(r.influencers);
    r.influencers_display_names = JSON.parse(r.influencers_display_names);
    data.push(r);
  }
  page.reset();
  return {
    data,
    filtered_resources: filtered,
    first_index: data.length ? start + 1 : 0,
    last_index: start + data.length,
    num_of_pages: Math.ceil(filtered / RPP),
  };
}

/**
 * Median time of one call of each function, measured in alternating rounds (a, b, c, a, b,
 * c, ...) so that machine noise falls on every engine alike. Each sample times a batch of
 * calls lasting at least ~5 ms, so that coarse browser timers (0.1 ms in Chromium) do not
 * round fast engines away.
 */
function alternating(fns, runs) {
  const names = Object.keys(fns);
  const batch = {};
  for (const name of names) {
    const fn = fns[name];
    for (let i = 0; i < 2; i++) fn();
    const t0 = performance.now();
    fn();
    batch[name] = Math.max(1, Math.ceil(5 / Math.max(performance.now() - t0, 0.01)));
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const name of names) {
      const fn = fns[name];
      const t = performance.now();
      for (let j = 0; j < batch[name]; j++) fn();
      times[name].push((performance.now() - t) / batch[name]);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return Object.fromEntries(names.map((name) => [name, median(times[name])]));
}

function timed(fn) {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
}

function sameAnswer(name, got, want) {
  const ids = (p) => p.data.map((r) => r.alert_id).join(',');
  if (got.filtered_resources !== want.filtered_resources || ids(got) !== ids(want)
      || got.first_index !== want.first_index || got.last_index !== want.last_index
      || got.num_of_pages !== want.num_of_pages) {
    throw new Error(`${name} disagrees: ${JSON.stringify({ ...got, data: ids(got) })} vs ${JSON.stringify({ ...want, data: ids(want) })}`);
  }
}

/**
 * Runs the benchmark for each size. `lib` is the wasm-bindgen module (initialised),
 * `SQL` the initialised sql.js module. Returns one result object per size.
 */
export function run({ lib, SQL, sizes, log = () => {}, indexed = true }) {
  const results = [];
  for (const n of sizes) {
    const runs = n > 200_000 ? 7 : 21;
    const [rows, generate] = timed(() => lib.generateDataset(PATH, n, 1));
    log(`${n} alerts generated in ${generate.toFixed(0)} ms`);

    const [table, loadOurs] = timed(() => lib.ListTable.fromJson(PATH, rows));
    const [sql, loadSql] = timed(() => sqlLoad(SQL, rows, false));
    const ours = table.query(QUERY);
    const reference = jsQuery(rows);
    sameAnswer('edgeattest', ours, reference);
    sameAnswer('sql.js', sqlQuery(sql), reference);

    const result = {
      rows: n,
      filtered: reference.filtered_resources,
      load_ms: { edgeattest: loadOurs, sqljs: loadSql },
      query_ms: alternating({
        edgeattest: () => table.query(QUERY),
        edgeattest_json: () => table.queryJson(QUERY),
        js: () => jsQuery(rows),
        sqljs: () => sqlQuery(sql),
      }, runs),
    };
    sql.count.free();
    sql.page.free();
    sql.db.close();
    if (indexed) {
      const [sqlIndexed, loadIndexed] = timed(() => sqlLoad(SQL, rows, true));
      sameAnswer('sql.js+index', sqlQuery(sqlIndexed), reference);
      result.load_ms.sqljs_indexed = loadIndexed;
      result.query_ms.sqljs_indexed = alternating({ sqljs_indexed: () => sqlQuery(sqlIndexed) }, runs).sqljs_indexed;
      sqlIndexed.count.free();
      sqlIndexed.page.free();
      sqlIndexed.db.close();
    }
    table.free();
    const q = result.query_ms;
    result.speedup = { vs_js: q.js / q.edgeattest, vs_sqljs: q.sqljs / q.edgeattest };
    log(format(result));
    results.push(result);
  }
  return results;
}

/**
 * The lines pkg-config/bench.sh collects, `BENCH <name> <ours> <yardstick> <ratio> [target]`:
 * per size, edgeattest's query against idiomatic JS and against sql.js (ratio = ours / peer,
 * so below 1 is faster), and its one-off load against sql.js's.
 */
export function benchLines(host, results) {
  const lines = [];
  for (const r of results) {
    const q = r.query_ms;
    const name = `listing.${host}.${r.rows / 1000}k`;
    const line = (what, ours, peer, target = '') =>
      lines.push(`BENCH ${name}.${what} ${ours.toFixed(3)}ms ${peer.toFixed(3)}ms ${(ours / peer).toFixed(4)} ${target}`.trim());
    line('query-vs-js', q.edgeattest, q.js, '<=1.00');
    line('query-vs-sqljs', q.edgeattest, q.sqljs, '<=1.00');
    line('load-vs-sqljs', r.load_ms.edgeattest, r.load_ms.sqljs);
  }
  return lines;
}

export function format(r) {
  const q = r.query_ms;
  const f = (x) => (x === undefined ? '-' : x.toFixed(3));
  return [
    `${r.rows} alerts (${r.filtered} after filters), page 3 of rpp 50, median ms per query:`,
    `  edgeattest ${f(q.edgeattest)} (JSON text ${f(q.edgeattest_json)}) | js filter+sort+slice ${f(q.js)} | sql.js ${f(q.sqljs)} | sql.js+index ${f(q.sqljs_indexed)}`,
    `  speedup: ${r.speedup.vs_js.toFixed(1)}x vs js, ${r.speedup.vs_sqljs.toFixed(1)}x vs sql.js`,
    `  one-off load ms: edgeattest ${r.load_ms.edgeattest.toFixed(0)} | sql.js ${r.load_ms.sqljs.toFixed(0)} | sql.js+index ${f(r.load_ms.sqljs_indexed)}`,
  ].join('\n');
}
