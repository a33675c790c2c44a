// The list API of the built package (pkg/) in Node: ListTable, generateDataset, listPage,
// listSchemas, listLimits. Run: node --test tests/js/listing.test.mjs (after the build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as lib from '../../pkg/service/edgeattest.js';

lib.initSync({ module: readFileSync(new URL('../../pkg/service/edgeattest_bg.wasm', import.meta.url)) });
const { ListTable, generateDataset, listPage, listSchemas, listLimits } = lib;

const ALERTS = '/analytics/alerts/filter';
const rows = [
  { alert_id: 2, occurrence: 5, severity: 'major', description: 'Link flap, port 2', influencers: [], percentage: 0.25, influencers_display_names: [], timestamp: 200 },
  { alert_id: 1, occurrence: 5, severity: 'critical', description: 'Port 1 down', influencers: ['0xa', '0xb'], percentage: 12.5, influencers_display_names: ['a', 'b'], timestamp: 100 },
  { alert_id: 3, occurrence: 7, severity: 'critical', description: 'Ünïcode ✓ port', influencers: ['0xb'], percentage: 12.5, influencers_display_names: ['b'], timestamp: 100 },
];

function throwsCoded(fn, code, field, status) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    assert.equal(error.field, field);
    if (status !== undefined) assert.equal(error.status, status);
    return true;
  });
}

test('ListTable loads an array, JSON text or bytes, and knows its size and path', () => {
  const bytes = new TextEncoder().encode(JSON.stringify(rows));
  for (const input of [rows, JSON.stringify(rows), bytes, bytes.buffer]) {
    const table = ListTable.fromJson(ALERTS, input);
    assert.equal(table.len, 3);
    assert.equal(table.isEmpty, false);
    assert.equal(table.path, ALERTS);
    table.free();
  }
  assert.equal(ListTable.fromJson(ALERTS, []).isEmpty, true);
});

test('query returns the spec envelope, sorted with the key as tie-breaker', () => {
  const table = ListTable.fromJson(ALERTS, rows);
  const page = table.query('?sorting=timestamp%5Bdesc%5D&rpp=2');
  assert.deepEqual(Object.keys(page), ['data', 'filtered_resources', 'first_index', 'last_index', 'num_of_pages']);
  assert.deepEqual(page.data.map((r) => r.alert_id), [2, 1]);
  assert.deepEqual(
    { ...page, data: undefined },
    { data: undefined, filtered_resources: 3, first_index: 1, last_index: 2, num_of_pages: 2 },
  );
  assert.deepEqual(page.data[1], rows[1]);
  const second = table.query('sorting=timestamp[desc]&rpp=2&page_number=2');
  assert.deepEqual(second.data.map((r) => r.alert_id), [3]);
  assert.equal(second.first_index, 3);
  assert.equal(table.queryJson('filter=influencers[eq]0xb&sorting=alert_id[desc]'),
    JSON.stringify({ data: [rows[2], rows[1]], filtered_resources: 2, first_index: 1, last_index: 2, num_of_pages: 1 }));
  assert.deepEqual(table.query('filter=description[con]%E2%9C%93').data.map((r) => r.alert_id), [3]);
  assert.deepEqual(table.query('filter=severity[eq]none'),
    { data: [], filtered_resources: 0, first_index: 0, last_index: 0, num_of_pages: 0 });
});

test('invalid queries throw with code, parameter and status 400', () => {
  const table = ListTable.fromJson(ALERTS, rows);
  throwsCoded(() => table.query('rpp=0'), 'ERR_LIST_INVALID_NUMBER', 'rpp', 400);
  throwsCoded(() => table.query('rpp=1001'), 'ERR_LIST_RPP_TOO_LARGE', 'rpp', 400);
  throwsCoded(() => table.query('page_number=3'), 'ERR_LIST_PAGE_OUT_OF_RANGE', 'page_number', 400);
  throwsCoded(() => table.query('filter=severity[like]x'), 'ERR_LIST_UNKNOWN_FILTER_TYPE', 'filter', 400);
  throwsCoded(() => table.query('filter=nope[eq]x'), 'ERR_LIST_UNKNOWN_COLUMN', 'filter', 400);
  throwsCoded(() => table.query('sorting=severity[up]'), 'ERR_LIST_UNKNOWN_SORT_DIRECTION', 'sorting', 400);
  throwsCoded(() => table.queryJson('limit=5'), 'ERR_LIST_UNKNOWN_PARAMETER', 'limit', 400);
});

test('respond answers 200 or 400 without throwing', () => {
  const table = ListTable.fromJson(ALERTS, rows);
  const ok = table.respond('rpp=1');
  assert.equal(ok.status, 200);
  assert.equal(JSON.parse(ok.body).num_of_pages, 3);
  const bad = table.respond('sorting=severity[asc],severity[desc]');
  assert.equal(bad.status, 400);
  assert.equal(bad.body, JSON.stringify({
    code: 'ERR_LIST_REPEATED_SORT_COLUMN',
    message: 'sorting: column "severity" appears more than once',
    field: 'sorting',
    status: 400,
  }));
});

test('loading refuses rows that do not fit the schema, naming the member', () => {
  throwsCoded(() => ListTable.fromJson('/analytics/nope', rows), 'ERR_LIST_UNKNOWN_PATH', undefined);
  throwsCoded(() => ListTable.fromJson(ALERTS, [{ ...rows[0], occurrence: '5' }]), 'ERR_LIST_DATA_WRONG_TYPE', '[0].occurrence');
  throwsCoded(() => ListTable.fromJson(ALERTS, [rows[0], { ...rows[1], extra: 1 }]), 'ERR_LIST_DATA_UNKNOWN_FIELD', '[1].extra');
  throwsCoded(() => ListTable.fromJson(ALERTS, [rows[0], rows[0]]), 'ERR_LIST_DATA_DUPLICATE_KEY', '[1].alert_id');
  throwsCoded(() => ListTable.fromJson(ALERTS, '{"a":1}'), 'ERR_LIST_DATA_NOT_ARRAY', undefined);
  throwsCoded(() => ListTable.fromJson(ALERTS, 42), 'ERR_INVALID_ARGUMENT', 'rows');
});

test('generateDataset is deterministic and ListTable.generate holds the same rows', () => {
  for (const schema of listSchemas()) {
    const a = generateDataset(schema.path, 300, 9);
    assert.deepEqual(a, generateDataset(schema.path, 300, 9));
    assert.notDeepEqual(a, generateDataset(schema.path, 300, 10));
    assert.deepEqual(a.map((r) => r[schema.key]).sort((x, y) => x - y), Array.from({ length: 300 }, (_, i) => i + 1));
    assert.deepEqual(Object.keys(a[0]), schema.columns.map((c) => c.name));
    const q = `rpp=17&page_number=2&sorting=${schema.columns[1].name}[desc]`;
    assert.deepEqual(ListTable.generate(schema.path, 300, 9).query(q), ListTable.fromJson(schema.path, a).query(q));
  }
});

test('listPage answers one query over rows it loads', () => {
  const page = listPage(ALERTS, rows, 'filter=severity[eqm]major,critical&sorting=occurrence[desc]');
  assert.deepEqual(page.data.map((r) => r.alert_id), [3, 1, 2]);
  throwsCoded(() => listPage(ALERTS, rows, 'filter=severity'), 'ERR_LIST_MALFORMED_FILTER', 'filter', 400);
});

test('listSchemas and listLimits describe the nine endpoints', () => {
  const schemas = listSchemas();
  assert.equal(schemas.length, 9);
  const alert = schemas.find((s) => s.path === ALERTS);
  assert.equal(alert.key, 'alert_id');
  assert.deepEqual(alert.columns.map((c) => [c.name, c.type]), [
    ['alert_id', 'integer'], ['occurrence', 'integer'], ['severity', 'string'], ['description', 'string'],
    ['influencers', 'array of string'], ['percentage', 'number'],
    ['influencers_display_names', 'array of string'], ['timestamp', 'integer'],
  ]);
  assert.deepEqual(listLimits(), {
    defaultRpp: 50, maxRpp: 1000, maxFilters: 32, maxRows: 2 ** 26, embeddedRows: 10000, embeddedSeed: 1,
  });
});

/** The naive JS reference for a query: filter, full sort, slice. */
function reference(data, key, filter, sort, page, rpp) {
  const kept = data.filter(filter);
  kept.sort((a, b) => {
    for (const [column, desc] of sort) {
      const x = a[column];
      const y = b[column];
      const c = x < y ? -1 : x > y ? 1 : 0;
      if (c) return desc ? -c : c;
    }
    return a[key] - b[key];
  });
  return { ids: kept.slice((page - 1) * rpp, page * rpp).map((r) => r[key]), filtered: kept.length };
}

test('every page of every endpoint agrees with a naive JS filter + sort + slice', () => {
  for (const schema of listSchemas()) {
    const data = generateDataset(schema.path, 2000, 3);
    const table = ListTable.fromJson(schema.path, data);
    // The string column with the fewest distinct values to filter on, two scalar sort keys.
    const distinct = (c) => new Set(data.map((r) => r[c.name])).size;
    const text = schema.columns.filter((c) => c.type === 'string').sort((a, b) => distinct(a) - distinct(b))[0];
    const scalars = schema.columns.filter((c) => c.type !== 'array of string' && c.name !== schema.key);
    const value = data[0][text.name];
    const sort = [[scalars[0].name, true], [scalars[1].name, false]];
    const qs = `filter=${text.name}[neq]${encodeURIComponent(value)}`
      + `&sorting=${sort.map(([c, d]) => `${c}[${d ? 'desc' : 'asc'}]`).join(',')}&rpp=37`;
    const first = table.query(qs);
    assert.ok(first.num_of_pages > 3, schema.path);
    for (let page = 1; page <= first.num_of_pages; page++) {
      const got = table.query(`${qs}&page_number=${page}`);
      const want = reference(data, schema.key, (r) => r[text.name] !== value, sort, page, 37);
      assert.equal(got.filtered_resources, want.filtered, schema.path);
      assert.deepEqual(got.data.map((r) => r[schema.key]), want.ids, `${schema.path} page ${page}`);
    }
    table.free();
  }
});
