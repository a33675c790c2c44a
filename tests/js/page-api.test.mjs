// The verification page's panels 4 (scopes), 5 (lists) and 6 (deprecations) in headless
// Chromium: each decision or page shown must equal what the package computes in Node for
// the same input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './support/browser.mjs';
import { ready, panelShots, tableRows, timeValue, listSettled, DESKTOP, pageHooks } from './support/page.mjs';
import '../../pkg/service/index.js'; // instantiates the wasm module
import {
  accessRouteTable, ListTable, listLimits, deprecationNotices, deprecationRegistry,
} from '../../pkg/service/edgeattest.js';

let worker;
let browser;
pageHooks((rig) => ({ worker, browser } = rig));

async function open() {
  const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
  await page.setViewportSize(DESKTOP);
  await ready(page);
  return { page, problems };
}

const routeIndex = (method, path) => String(accessRouteTable().findIndex((r) => r.method === method && r.path === path));

async function decide(page, { type, checks, method, path }) {
  await page.check(`#key-${type}`);
  await page.$$eval('#roles input, #scope-list input', (boxes) => boxes.forEach((b) => { b.checked = false; }));
  for (const value of checks) await page.check(`#${type === 'personal' ? 'roles' : 'scope-list'} input[value="${value}"]`);
  await page.selectOption('#access-endpoint', routeIndex(method, path));
  await page.click('#check-access');
  await page.waitForSelector('#access-verdict');
  return {
    verdict: await page.textContent('#access-verdict'),
    rows: Object.fromEntries((await tableRows(page, '#access-output')).map(([name, value]) => [name, value])),
  };
}

test('panel 4: roles and scopes against endpoints — allowed, or denied with the missing scope', async () => {
  const { page, problems } = await open();
  // A plain user reads simulations.
  let d = await decide(page, { type: 'personal', checks: ['lab_user'], method: 'GET', path: '/api/v3/simulations/{id}/' });
  assert.match(d.verdict, /^allowed GET \/api\/v3\/simulations\/\{id\}\//);
  assert.match(d.rows['Granted to this key'], /lab:simulation_read/);
  assert.equal(d.rows.Missing, 'none');

  // A service key with only the read scope cannot create one: the missing scope is named.
  d = await decide(page, { type: 'service', checks: ['lab:simulation_read'], method: 'POST', path: '/api/v3/simulations/' });
  assert.match(d.verdict, /^denied POST \/api\/v3\/simulations\/ — 403 ERR_ACCESS_INSUFFICIENT_SCOPE/);
  assert.equal(d.rows.Missing, 'lab:simulation_create');
  assert.equal(d.rows['Granted to this key'], 'lab:simulation_read');
  assert.equal(await page.locator('#access-output tr.failed').count(), 1);
  await panelShots(page, '#scopes', 'scopes-denied');

  // A personal key with no role is denied everything; the scopes box is hidden for it.
  d = await decide(page, { type: 'personal', checks: [], method: 'GET', path: '/api/v3/simulations/' });
  assert.match(d.verdict, /^denied/);
  assert.equal(await page.isHidden('#scopes-box'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('panel 5: filter, sort and page the alerts exactly as the list engine does', async () => {
  const { page, problems } = await open();
  const limits = listLimits();
  const table = ListTable.generate('/analytics/alerts/filter', limits.embeddedRows, limits.embeddedSeed);
  const expected = (query) => table.query(query);
  const shown = async () => {
    await listSettled(page);
    return (await tableRows(page, '#alerts-table')).map((r) => Number(r[0]));
  };
  const query = async () => (await page.textContent('#alerts-query')).replace('GET /analytics/alerts/filter?', '');

  // The first page as loaded: 10 rows, in the key order.
  let q = await query();
  assert.equal(q, 'page_number=1&rpp=10');
  assert.deepEqual(await shown(), expected(q).data.map((a) => a.alert_id));
  await listSettled(page);
  assert.match(await page.textContent('#page-info'), new RegExp(`^Page 1 of ${expected(q).num_of_pages}$`));
  assert.equal(await page.isDisabled('#page-prev'), true);

  // Filter by severity, sort by timestamp descending, go to page 3.
  await page.selectOption('#filter-column', 'severity');
  await page.selectOption('#filter-type', 'eq');
  await page.fill('#filter-value', 'critical');
  await page.click('#add-filter');
  await page.selectOption('#sort-column', 'timestamp');
  await page.selectOption('#sort-direction', 'desc');
  await page.click('#add-sort');
  await page.click('#page-next');
  await listSettled(page);
  await page.click('#page-next');
  q = await query();
  assert.equal(q, 'page_number=3&rpp=10&filter=severity%5Beq%5Dcritical&sorting=timestamp%5Bdesc%5D');
  const page3 = expected(q);
  assert.ok(page3.data.length > 0 && page3.data.every((a) => a.severity === 'critical'));
  assert.deepEqual(await shown(), page3.data.map((a) => a.alert_id));
  await listSettled(page);
  const rows = await tableRows(page, '#alerts-table');
  const stamps = rows.map((r) => parseInt(r.at(-1), 10));
  // Each timestamp shows its date after the number.
  assert.equal(rows[0].at(-1), `${stamps[0]} ${new Date(stamps[0] * 1000).toISOString().replace('.000Z', 'Z')}`);
  assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a));
  assert.match(await page.textContent('#alerts-table caption'), new RegExp(`^Alert items 21–${page3.last_index} of ${page3.filtered_resources} matching$`));
  await page.click('#page-last');
  await listSettled(page);
  assert.match(await page.textContent('#page-info'), new RegExp(`^Page ${page3.num_of_pages} of ${page3.num_of_pages}$`));
  assert.equal(await page.isDisabled('#page-next'), true);
  await panelShots(page, '#alerts', 'alerts-filtered');

  // A column header sorts by that column alone; again turns the direction.
  await page.click('#alerts-table thead th:nth-child(6) button');
  await listSettled(page);
  q = await query();
  assert.equal(q, `page_number=${page3.num_of_pages}&rpp=10&filter=severity%5Beq%5Dcritical&sorting=percentage%5Basc%5D`);
  assert.equal(await page.getAttribute('#alerts-table thead th:nth-child(6)', 'aria-sort'), 'ascending');
  await page.keyboard.press('Enter'); // the header button keeps the focus
  await listSettled(page);
  q = await query();
  assert.match(q, /sorting=percentage%5Bdesc%5D$/);
  assert.deepEqual(await shown(), expected(q).data.map((a) => a.alert_id));

  // A bad filter is refused with the engine's code and parameter; removing it recovers.
  await page.selectOption('#filter-column', 'percentage');
  await page.selectOption('#filter-type', 'eq');
  await page.fill('#filter-value', 'abc');
  await page.click('#add-filter');
  await listSettled(page);
  const error = await page.textContent('#alerts-error');
  assert.match(error, /^ERR_LIST_[A-Z_]+ .*\(field: filter\)/);
  assert.match(error, /ERR_LIST_INVALID_FILTER_VALUE .*not a number/);
  assert.throws(() => table.query('filter=percentage[eq]abc'), (e) => error.startsWith(e.code));
  await page.click('#filters li:last-child button');
  await listSettled(page);
  assert.equal(await page.isHidden('#alerts-error'), true);
  // The Enter key in the value box adds the filter.
  await page.selectOption('#filter-column', 'description');
  await page.selectOption('#filter-type', 'con');
  await page.fill('#filter-value', 'zzz-no-such-alert');
  await page.press('#filter-value', 'Enter');
  await listSettled(page);
  assert.match(await page.textContent('#page-info'), /^No item matches the filters$/);
  // The bad filter's 400 came from the worker: Chromium logs the status.
  assert.deepEqual(problems.filter((p) => !/status of 400/.test(p)), []);
  await page.close();
});

test('panel 6: the notices as returned today and before their dates', async () => {
  const { page, problems } = await open();
  const targets = [...new Set(deprecationRegistry().flatMap((r) => r.targets))];
  const noticesAt = (now) => targets.flatMap((t) => deprecationNotices(t, now));
  const shown = async () => (await tableRows(page, '#deprecations-output > table')).map((r) => r.at(-1));

  const today = Math.floor(Date.now() / 1000);
  assert.deepEqual(await shown(), noticesAt(today).map((n) => n.notice));

  // Before the September 2026 dates: the notices ask to act before them.
  const before = Date.UTC(2026, 0, 15) / 1000;
  await page.fill('#dep-time', timeValue(before));
  await page.dispatchEvent('#dep-time', 'change');
  const early = await shown();
  assert.deepEqual(early, noticesAt(before).map((n) => n.notice));
  assert.ok(early.some((n) => /Please take action prior to the specified date\.?$/.test(n)));
  assert.match(await page.textContent('#deprecations-output caption'), /as returned on 2026-01-15T00:00:00Z/);
  await panelShots(page, '#deprecations', 'deprecations-2026-01');

  // Long after every date and release cycle: fewer notices, all overdue ones highlighted.
  const late = Date.UTC(2030, 0, 1) / 1000;
  await page.fill('#dep-time', timeValue(late));
  await page.dispatchEvent('#dep-time', 'change');
  const lateNotices = noticesAt(late);
  assert.ok(lateNotices.length < early.length);
  assert.deepEqual(await shown(), lateNotices.map((n) => n.notice));
  const highlighted = await page.locator('#deprecations-output > table tr.failed').count();
  assert.equal(highlighted, lateNotices.filter((n) => /immediately\.?$/.test(n.notice)).length);

  // A date that is not one.
  await page.evaluate(() => { const input = document.getElementById('dep-time'); input.type = 'text'; input.value = 'soon'; });
  await page.dispatchEvent('#dep-time', 'change');
  assert.match(await page.textContent('#deprecations-error'), /ERR_INVALID_ARGUMENT "soon" is not a date and time/);
  assert.deepEqual(problems, []);
  await page.close();
});
