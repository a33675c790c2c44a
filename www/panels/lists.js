// Panel 5: the list convention of the service's nine analytics endpoints — one query language
// (filter, sorting, page_number, rpp) and one page envelope. Each query goes to the running
// worker as a client would send it (GET <path>?<query>, same origin); when the worker cannot
// be reached (the page opened offline), the same list engine answers in this page, and the
// panel says so.
import { ListTable, listSchemas, listLimits } from '../pkg/service/index.js';
import { $, el, table, showError, isoSeconds } from './ui.js';

const DEFAULT_PATH = '/analytics/alerts/filter';
let schemas = [];
let schema = null;
const local = new Map(); // path → ListTable, the offline stand-in
const state = { filters: [], sorts: [], page: 1, pages: 1 };
let sequence = 0; // answers to superseded queries are dropped

/** The query string the panel's state stands for (as a client would send it). */
export function queryString() {
  const params = new URLSearchParams();
  params.set('page_number', String(state.page));
  params.set('rpp', $('rpp').value);
  for (const f of state.filters) params.append('filter', `${f.column}[${f.type}]${f.value}`);
  if (state.sorts.length) params.set('sorting', state.sorts.map((s) => `${s.column}[${s.direction}]`).join(','));
  return params.toString();
}

function chip(text, label, onRemove) {
  const remove = el('button', { type: 'button', text: '×', 'aria-label': label });
  remove.addEventListener('click', onRemove);
  return el('li', {}, el('code', { text }), ' ', remove);
}

function renderChips() {
  $('filters').replaceChildren(...state.filters.map((f, i) => chip(`${f.column}[${f.type}]${f.value}`, `Remove filter ${f.column} ${f.type} ${f.value}`, () => {
    state.filters.splice(i, 1);
    state.page = 1;
    refresh();
  })));
  $('sorts').replaceChildren(...state.sorts.map((s, i) => chip(`${s.column}[${s.direction}]`, `Remove sort key ${s.column}`, () => {
    state.sorts.splice(i, 1);
    refresh();
  })));
}

const cellText = (value) => (Array.isArray(value) ? value.join(', ') : String(value ?? ''));

/** A cell: Unix-seconds columns (timestamp, …_time) carry their date after the number. */
function cell(column, value) {
  if (typeof value === 'number' && Number.isInteger(value) && /(^|_)(timestamp|time)$/.test(column.name)) {
    return [String(value), ' ', el('time', { class: 'date block', datetime: isoSeconds(value), text: isoSeconds(value) })];
  }
  return cellText(value);
}
const title = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// Column headers sort too: the first click sorts by that column alone, ascending; a click
// on the current first sort key turns its direction.
function sortableHeaders() {
  const first = state.sorts[0];
  for (const th of $('alerts-table').querySelectorAll('thead th')) {
    const column = th.textContent;
    const current = first?.column === column ? first.direction : null;
    if (current) th.setAttribute('aria-sort', current === 'asc' ? 'ascending' : 'descending');
    const button = el('button', {
      type: 'button', class: 'sort',
      'aria-label': `Sort by ${column}${current === 'asc' ? ', descending' : ''}`,
    }, column, current ? (current === 'asc' ? ' ▲' : ' ▼') : '');
    button.addEventListener('click', () => {
      state.sorts = [{ column, direction: current === 'asc' ? 'desc' : 'asc' }];
      refresh().then(() => $('alerts-table').querySelector(`thead th:nth-child(${th.cellIndex + 1}) button`)?.focus());
    });
    th.replaceChildren(button);
  }
}

/** GET path?query from the worker; `{ status, body, via }` (via: "worker" or "page"). */
async function ask(path, query) {
  if (/^https?:$/.test(location.protocol) && navigator.onLine !== false) {
    try {
      const response = await fetch(`${path}?${query}`, { headers: { accept: 'application/json' } });
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('application/json')) return { status: response.status, body: await response.json(), via: 'worker' };
    } catch {
      // offline or the worker is gone: the page's own engine answers below
    }
  }
  let list = local.get(path);
  if (!list) {
    const limits = listLimits();
    list = ListTable.generate(path, limits.embeddedRows, limits.embeddedSeed);
    local.set(path, list);
  }
  const answer = list.respond(query);
  return { status: answer.status, body: JSON.parse(answer.body), via: 'page' };
}

function envelopeView(status, body, via, request) {
  const { data, ...envelope } = body;
  const shown = { ...envelope, data: `[… ${data.length} item${data.length === 1 ? '' : 's'}, in the table below …]` };
  return el('div', { class: 'envelope' },
    el('p', { class: 'muted', id: 'list-source' }, via === 'worker'
      ? `HTTP ${status} from the worker for ${request}.`
      : `${navigator.onLine === false ? 'This browser is offline' : 'The worker could not be reached'}: answered by the same list engine in this page (${request}).`),
    el('pre', { id: 'list-envelope', 'aria-label': 'The page envelope of the answer', text: JSON.stringify(shown, null, 2) }));
}

export async function refresh() {
  renderChips();
  const query = queryString();
  const request = `GET ${schema.path}?${query}`;
  $('alerts-query').textContent = request;
  const mine = ++sequence;
  $('alerts').dataset.busy = 'true';
  let answer;
  try {
    answer = await ask(schema.path, query);
  } finally {
    if (mine === sequence) delete $('alerts').dataset.busy;
  }
  if (mine !== sequence) return null;
  const { status, body, via } = answer;
  if (status !== 200) {
    // The refused query's answer replaces the last page, so that no stale rows stay shown.
    showError('alerts-error', { code: body.code, message: `HTTP ${status}: ${body.message}`, field: body.field });
    $('alerts-envelope').replaceChildren(el('p', { class: 'muted', id: 'list-source', text: `HTTP ${status} from ${via === 'worker' ? 'the worker' : 'the list engine in this page'} for ${request}: no page.` }));
    $('alerts-table').replaceChildren();
    $('page-info').textContent = '';
    return null;
  }
  showError('alerts-error', null);
  const page = body;
  state.pages = Math.max(page.num_of_pages, 1);
  const columns = schema.columns;
  $('alerts-envelope').replaceChildren(envelopeView(status, page, via, request));
  $('alerts-table').replaceChildren(table(
    `${title(schema.item)} items ${page.first_index}–${page.last_index} of ${page.filtered_resources} matching`,
    columns.map((c) => c.name),
    page.data.map((item) => ({
      class: /critical|high/i.test(String(item.severity)) ? 'severe' : undefined,
      cells: columns.map((c) => cell(c, item[c.name])),
    })),
    'stack',
  ));
  sortableHeaders();
  $('page-info').textContent = page.filtered_resources
    ? `Page ${state.page} of ${page.num_of_pages}`
    : 'No item matches the filters';
  $('page-first').disabled = $('page-prev').disabled = state.page <= 1;
  $('page-next').disabled = $('page-last').disabled = state.page >= page.num_of_pages;
  return page;
}

function choose(path) {
  schema = schemas.find((s) => s.path === path);
  state.filters = [];
  state.sorts = [];
  state.page = 1;
  const options = () => schema.columns.map((c) => new Option(`${c.name} (${c.type})`, c.name));
  $('filter-column').replaceChildren(...options());
  $('sort-column').replaceChildren(...options());
  const text = schema.columns.find((c) => c.type === 'string');
  if (schema.columns.some((c) => c.name === 'description')) $('filter-column').value = 'description';
  else if (text) $('filter-column').value = text.name;
  const time = schema.columns.find((c) => /timestamp|time/.test(c.name));
  if (time) $('sort-column').value = time.name;
}

export function initListsPanel() {
  schemas = listSchemas();
  $('list-path').replaceChildren(...schemas.map((s) => new Option(`GET ${s.path} (${s.item})`, s.path)));
  $('list-path').value = DEFAULT_PATH;
  choose(DEFAULT_PATH);
  $('list-path').addEventListener('change', () => {
    choose($('list-path').value);
    refresh();
  });
  $('add-filter').addEventListener('click', () => {
    const value = $('filter-value').value;
    state.filters.push({ column: $('filter-column').value, type: $('filter-type').value, value });
    state.page = 1;
    refresh();
  });
  $('filter-value').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      $('add-filter').click();
    }
  });
  $('add-sort').addEventListener('click', () => {
    const column = $('sort-column').value;
    state.sorts = state.sorts.filter((s) => s.column !== column);
    state.sorts.push({ column, direction: $('sort-direction').value });
    refresh();
  });
  $('rpp').addEventListener('change', () => {
    state.page = 1;
    refresh();
  });
  const go = (page) => () => {
    state.page = Math.min(Math.max(page(), 1), state.pages);
    refresh();
  };
  $('page-first').addEventListener('click', go(() => 1));
  $('page-prev').addEventListener('click', go(() => state.page - 1));
  $('page-next').addEventListener('click', go(() => state.page + 1));
  $('page-last').addEventListener('click', go(() => state.pages));
  $('alerts-form').addEventListener('submit', (e) => e.preventDefault());
  refresh();
}
