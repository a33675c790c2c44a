// Panel 4: what a key may call. The gateway's own decision (evaluateAccess) for a key record
// built from the chosen type and roles or scopes, against one endpoint of the route table.
import { evaluateAccess, accessRouteTable, roleScopes } from '../pkg/service/index.js';
import { $, el, badge, table, showError } from './ui.js';

let routes = [];

// The route table's basis, in words: quoted from a scope's description, or reasoned.
const BASIS = {
  direct: 'the quoted words are the scope\'s own description',
  inferred: 'reasoned from what the endpoint does; no scope names it',
};

// A concrete path for a route template: parameters become a sample value.
const concrete = (path) => path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, 'example-1');

function checkboxes(container, name, values, describe) {
  container.replaceChildren(...values.map((value) => el('label', { class: 'inline check' },
    el('input', { type: 'checkbox', name, value }),
    ` ${value}`,
    describe ? el('span', { class: 'muted', text: ` (${describe(value)})` }) : null)));
}

const checked = (container) => [...container.querySelectorAll('input:checked')].map((i) => i.value);

function keyType() {
  return document.querySelector('input[name="key-type"]:checked').value;
}

function showType() {
  const personal = keyType() === 'personal';
  $('roles-box').hidden = !personal;
  $('scopes-box').hidden = personal;
}

function list(values) {
  return values?.length ? values.map((v) => el('code', { text: v })).flatMap((c, i) => (i ? [', ', c] : [c])) : ['none'];
}

export function checkAccess() {
  showError('scopes-error', null);
  const route = routes[Number($('access-endpoint').value)];
  const type = keyType();
  // Only the digest of a key is ever stored; this record stands for any key of this shape.
  const record = {
    id: 'page-check', type, digest: '0'.repeat(64), services: ['simulation'],
    ...(type === 'personal' ? { roles: checked($('roles')) } : { scopes: checked($('scope-list')) }),
  };
  let decision;
  try {
    decision = evaluateAccess(record, route.method, concrete(route.path));
  } catch (error) {
    showError('scopes-error', error);
    $('access-output').replaceChildren();
    return null;
  }
  const body = decision.body ?? {};
  // A forwarded request carries the key's scopes to the upstream service in a header.
  const forwarded = decision.forward?.setHeaders.find(([name]) => name.toLowerCase() === 'x-edgeattest-scopes');
  const granted = body.grantedScopes ?? (forwarded ? forwarded[1].split(' ').filter(Boolean) : []);
  const requirement = route.requires.all_of ? ['all of', route.requires.all_of] : ['any of', route.requires.any_of];
  $('access-output').replaceChildren(
    el('p', { class: `summary ${decision.allow ? 'good' : 'bad'}`, id: 'access-verdict' },
      decision.allow ? badge('pass', 'allowed') : badge('fail', 'denied'),
      ` ${route.method} ${route.path}`,
      decision.allow ? '' : ` — ${decision.status} ${body.code ?? ''}`),
    el('div', { class: 'table-wrap' }, table('Decision', ['Aspect', 'Value'], [
      ['Requires', [`${requirement[0]}: `, ...list(requirement[1])]],
      ['Granted to this key', list(granted)],
      { class: body.missingScopes?.length ? 'failed' : undefined, cells: ['Missing', list(body.missingScopes)] },
      ['Reason', body.message ?? (decision.allow ? 'the key holds the required scopes' : decision.audit.reason)],
      ['Why this route needs it', `${route.rationale} (${BASIS[route.basis] ?? route.basis})`],
    ], 'kv')),
  );
  return decision;
}

export function initScopesPanel() {
  const roles = roleScopes();
  routes = accessRouteTable();
  const allScopes = [...new Set([
    ...Object.values(roles).flat(),
    ...routes.flatMap((r) => r.requires.all_of ?? r.requires.any_of ?? []),
  ])].sort();
  checkboxes($('roles'), 'role', Object.keys(roles), (role) => `${roles[role].length} scope${roles[role].length === 1 ? '' : 's'}`);
  checkboxes($('scope-list'), 'scope', allScopes);
  $('access-endpoint').replaceChildren(...routes.map((r, i) => new Option(`${r.method} ${r.path}`, String(i))));
  for (const radio of document.querySelectorAll('input[name="key-type"]')) radio.addEventListener('change', showType);
  showType();
  // The decision follows every change once it has been asked for.
  $('scopes-form').addEventListener('change', () => {
    if ($('access-output').childElementCount) checkAccess();
  });
  $('scopes-form').addEventListener('submit', (e) => {
    e.preventDefault();
    checkAccess();
  });
  $('check-access').disabled = false;
}
