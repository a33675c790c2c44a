// Panel 5: the alert list, filtered, sorted and paged by the list engine (ListTable) over the
// same embedded data set the worker serves at GET /analytics/alerts/filter.
// The listing API is not in the package's export list yet (src/js/api.js): it is taken from
// the wasm module directly, which pkg/index.js has already instantiated (panels load after it).
import '../pkg/index.js';
import { ListTable, listSchemas, listLimits } from '../pkg/index.js';
import { $, el, table, showError } from './ui.js';

const PATH = '/analytics/alerts/filter';
let list = null;
let columns = [];
const state = { filters: [], sorts: [], page: 1, pages: 1 };

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
      refresh();
      $('alerts-table').querySelector(`thead th:nth-child(${th.cellIndex + 1}) button`)?.focus();
    });
    th.replaceChildren(button);
  }
}

export function refresh() {
  renderChips();
  const query = queryString();
  $('alerts-query').textContent = `GET ${PATH}?${query}`;
  let page;
  try {
    page = list.query(query);
    showError('alerts-error', null);
  } catch (error) {
    showError('alerts-error', error);
    return null;
  }
  state.pages = Math.max(page.num_of_pages, 1);
  $('alerts-table').replaceChildren(table(
    `Alerts ${page.first_index}–${page.last_index} of ${page.filtered_resources} matching`,
    columns.map((c) => c.name),
    page.data.map((item) => ({
      class: /critical|high/i.test(String(item.severity)) ? 'severe' : undefined,
      cells: columns.map((c) => cellText(item[c.name])),
    })),
    'stack',
  ));
  sortableHeaders();
  $('page-info').textContent = page.filtered_resources
    ? `Page ${state.page} of ${page.num_of_pages}`
    : 'No alert matches the filters';
  $('page-first').disabled = $('page-prev').disabled = state.page <= 1;
  $('page-next').disabled = $('page-last').disabled = state.page >= page.num_of_pages;
  return page;
}

export function initAlertsPanel() {
  const schema = listSchemas().find((s) => s.path === PATH);
  columns = schema.columns;
  const limits = listLimits();
  list = ListTable.generate(PATH, limits.embeddedRows, limits.embeddedSeed);
  const options = () => columns.map((c) => new Option(`${c.name} (${c.type})`, c.name));
  $('filter-column').replaceChildren(...options());
  $('filter-column').value = 'description';
  $('sort-column').replaceChildren(...options());
  $('sort-column').value = 'timestamp';
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
