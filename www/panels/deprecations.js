// Panel 6: the deprecation registry's notices as the API returns them on a given day (the
// notice text changes at takeActionBy; notices disappear one release cycle later).
import { deprecationRegistry, deprecationNotices } from '../pkg/index.js';
import { $, el, table, showError, timeControl, fromInputValue, isoSeconds } from './ui.js';

let registry = [];

const itemOf = (n) => (n.attribute ? `attribute ${n.attribute}` : n.queryParam ? `query parameter ${n.queryParam}` : `endpoint ${n.endpoint}`);

export function renderDeprecations() {
  showError('deprecations-error', null);
  let now;
  try {
    now = fromInputValue($('dep-time'));
  } catch (error) {
    showError('deprecations-error', error);
    return null;
  }
  const targets = [...new Set(registry.flatMap((row) => row.targets))];
  const rows = [];
  try {
    for (const target of targets) {
      for (const notice of deprecationNotices(target, now)) {
        const overdue = / immediately\.?$/.test(notice.notice);
        rows.push({
          class: overdue ? 'failed' : undefined,
          cells: [target, itemOf(notice), notice.replacedBy ?? '—', notice.takeActionBy ?? 'not given', notice.notice],
        });
      }
    }
  } catch (error) {
    showError('deprecations-error', error);
    return null;
  }
  const registryRows = registry.map((row) => [
    row.resource, itemOf(row), row.replacedBy ?? '—', row.takeActionBy ?? 'not given',
    `${row.listing}, ${row.handling}${row.api === 'attestation' ? ' (attestation API)' : ''}`,
  ]);
  $('deprecations-summary').textContent = `${rows.length} notice${rows.length === 1 ? '' : 's'} returned on ${isoSeconds(now)}.`;
  $('deprecations-output').replaceChildren(
    rows.length
      ? table(`${rows.length} notices as returned on ${isoSeconds(now)}`, ['Returned with', 'Deprecated', 'Replaced by', 'Take action by', 'Notice'], rows)
      : el('p', { text: `No deprecation notice is returned on ${isoSeconds(now)}.` }),
    el('details', {},
      el('summary', { text: `The registry (${registry.length} entries, including removed ones)` }),
      table('', ['Resource', 'Item', 'Replaced by', 'Take action by', 'Listing, handling'], registryRows)),
  );
  return rows.length;
}

export function initDeprecationsPanel() {
  registry = deprecationRegistry();
  timeControl($('dep-time'), $('dep-now'));
  $('dep-now').addEventListener('click', renderDeprecations);
  $('dep-time').addEventListener('change', renderDeprecations);
  $('deprecations-form').addEventListener('submit', (e) => {
    e.preventDefault();
    renderDeprecations();
  });
  renderDeprecations();
}
