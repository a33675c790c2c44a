// Panel 6: the deprecation convention — how the service announces a deprecated attribute,
// query parameter or endpoint (notice objects; Deprecation, Sunset and Link headers) and
// refuses it from its take-action date (400, with a body naming the item and its
// replacement). The request rules are the core's (checkDeprecatedRequest/Query); the headers
// come from the running worker's deprecated V2 endpoint, asked as a client would.
import {
  deprecationRegistry, deprecationNotices, checkDeprecatedRequest, checkDeprecatedQuery, buildAttestRequest,
} from '../pkg/service/index.js';
import {
  $, el, badge, table, showError, timeControl, fromInputValue, isoSeconds, dateText,
} from './ui.js';
import { architecture } from './arch.js';

let registry = [];

const itemOf = (n) => (n.attribute ? `attribute ${n.attribute}` : n.queryParam ? `query parameter ${n.queryParam}` : `endpoint ${n.endpoint}`);

// Requests a client could send to the infrastructure API, each checked by the core's rules.
const EXAMPLES = [
  ['Deprecated attribute alone', 'MachineInstanceType {"id":"m1"}', (now) => checkDeprecatedRequest('MachineInstanceType', { id: 'm1' }, now)],
  ['Deprecated attribute and its replacement', 'MachineInstanceType {"id":"m1","machineId":"m1"}', (now) => checkDeprecatedRequest('MachineInstanceType', { id: 'm1', machineId: 'm1' }, now)],
  ['Replacement only', 'MachineInstanceType {"machineId":"m1"}', (now) => checkDeprecatedRequest('MachineInstanceType', { machineId: 'm1' }, now)],
  ['Ignored attribute', 'OperatingSystem {"name":"u","isCloudInit":true,"userData":""}', (now) => checkDeprecatedRequest('OperatingSystem', { name: 'u', isCloudInit: true, userData: '' }, now)],
  ['Deprecated query parameter', 'GET /instance?infrastructureProviderId=p1', (now) => checkDeprecatedQuery('GET /instance', 'infrastructureProviderId=p1', now)],
];

const pre = (value, label) => el('pre', { class: 'json', 'aria-label': label, text: JSON.stringify(value, null, 2) });

function rulesTable(now) {
  const rows = EXAMPLES.map(([what, request, run]) => {
    const answer = run(now);
    const status = answer.ok ? 200 : answer.status;
    const notes = answer.ok
      ? [...(answer.used ?? []).map((n) => `used: ${n.notice}`), ...(answer.ignored ?? []).map((n) => `ignored: ${n.notice}`)]
      : [];
    return {
      class: answer.ok ? undefined : 'failed',
      cells: [
        what,
        el('code', { text: request }),
        answer.ok ? badge('pass', `${status} accepted`) : badge('fail', `${status} refused`),
        answer.ok
          ? [notes.length ? el('ul', {}, notes.map((n) => el('li', { text: n }))) : 'no deprecated item used',
            answer.headers?.length ? pre(Object.fromEntries(answer.headers), 'Response headers') : '']
          : pre(answer.body, `The 400 body for: ${what}`),
      ],
    };
  });
  return table(`The request rules on ${isoSeconds(now)}`, ['Request', 'Sent', 'Answer', 'Body or notes'], rows, 'stack');
}

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
    $('dep-rules').replaceChildren(rulesTable(now));
  } catch (error) {
    showError('deprecations-error', error);
    return null;
  }
  // Each row is the target of the Link rel="deprecation" the service sends (/deprecations#id).
  const registryRows = registry.map((row) => ({
    id: row.id,
    cells: [
      row.resource, itemOf(row), row.replacedBy ?? '—', row.takeActionBy ?? 'not given',
      `${row.listing}, ${row.handling}${row.api === 'attestation' ? ' (attestation API)' : ''}${row.detail ? `. ${row.detail}` : ''}`,
    ],
  }));
  $('deprecations-summary').textContent = `${rows.length} notice${rows.length === 1 ? '' : 's'} returned on ${isoSeconds(now)}.`;
  $('deprecations-output').replaceChildren(
    rows.length
      ? table(`${rows.length} notices as returned on ${isoSeconds(now)}`, ['Returned with', 'Deprecated', 'Replaced by', 'Take action by', 'Notice'], rows)
      : el('p', { text: `No deprecation notice is returned on ${isoSeconds(now)}.` }),
    el('details', { id: 'dep-registry' },
      el('summary', { text: `The registry (${registry.length} entries, including removed ones)` }),
      table('', ['Resource', 'Item', 'Replaced by', 'Take action by', 'Listing, handling'], registryRows)),
  );
  showTarget();
  return rows.length;
}

/** Opens the registry at the row a Link rel="deprecation" points at (/deprecations#id). */
function showTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id || !registry.some((row) => row.id === id)) return;
  $('dep-registry').open = true;
  document.getElementById(id)?.scrollIntoView({ block: 'center' });
}

/** `<a>; rel="x", <b>; rel="y"` as [{ target, rel }]. */
function parseLinks(header) {
  return [...(header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^",;]+)"?/g)].map(([, target, rel]) => ({ target, rel }));
}

let demoSamples = [];

/**
 * The deprecated endpoint's request: the first bundled sample it takes, in the V2 shape (no
 * claims_version). A well-formed request is answered 200, so the demo shows the deprecation
 * headers without provoking an error answer (which a browser's console would log as one).
 */
function deprecatedRequest(path) {
  // The first sample whose architecture the core's table lets this endpoint take.
  const demoRequest = demoSamples.find((sample) => architecture(sample.arch)?.endpoints.includes(path));
  if (!demoRequest) return { text: '{}', what: 'the body {}' };
  try {
    const body = buildAttestRequest({
      endpoint: path, nonce: demoRequest.nonce, arch: demoRequest.arch,
      evidence: [{ evidence: hexBytes(demoRequest.evidenceHex), certificate: demoRequest.certificatePem }],
    });
    return { text: JSON.stringify(body), what: `the sample "${demoRequest.title.replace(/ — expect: .*$/, '')}" as a V2 request` };
  } catch {
    return { text: '{}', what: 'the body {}' };
  }
}

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (byte) => parseInt(byte, 16));

/** POSTs to the worker's deprecated V2 endpoint and shows its status, headers and body. */
export async function callDeprecatedEndpoint() {
  const out = $('dep-worker');
  const path = '/v2/attest/gpu';
  out.replaceChildren(el('p', { class: 'muted', text: `POST ${path} …` }));
  const request = deprecatedRequest(path);
  let response;
  let body;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.text });
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  } catch (error) {
    out.replaceChildren(el('p', { class: 'error' }, el('code', { text: 'ERR_FETCH_FAILED' }), ` the worker could not be reached: ${error.message}`));
    return null;
  }
  const get = (name) => response.headers.get(name);
  const links = parseLinks(get('link'));
  // Each documentation target, asked as a client following it would (redirects followed);
  // a successor-version is an endpoint to POST to, named and not called.
  const targets = await Promise.all(links.map(async (link) => {
    if (link.rel !== 'deprecation') return { ...link, status: 'endpoint' };
    const url = new URL(link.target, location.origin);
    try {
      const answer = await fetch(url, { method: 'GET' });
      return { ...link, status: answer.status, landed: answer.url };
    } catch (error) {
      return { ...link, status: null, problem: error.message };
    }
  }));
  const deprecation = get('deprecation');
  const since = /^@(\d+)$/.exec(deprecation ?? '');
  const headerRows = [
    ['Deprecation', deprecation ? `${deprecation}${since ? ` = ${dateText(Number(since[1]))}` : ''}` : 'absent'],
    ['Sunset', get('sunset') ?? 'absent (no take-action date is set for this endpoint)'],
    ['Link', el('ul', {}, targets.map((t) => el('li', {},
      el('a', { href: t.target, text: t.target }), ` rel="${t.rel}" — `,
      t.status === 'endpoint' ? 'the endpoint to use instead'
        : t.status === 200 ? [badge('pass', 'answers 200')] : badge('fail', `answers ${t.status ?? 'nothing'}`),
      t.landed && t.landed !== new URL(t.target, location.origin).href ? ` (redirected to ${new URL(t.landed).pathname}${new URL(t.target, location.origin).hash}: the registry below)` : '')))],
  ];
  out.replaceChildren(
    el('p', { id: 'dep-worker-status' }, badge(response.ok ? 'pass' : 'fail', `HTTP ${response.status}`),
      ` POST ${path} with ${request.what} — the endpoint is deprecated, so every answer carries the headers below, errors included.`),
    el('div', { class: 'table-wrap' }, table('Deprecation headers of the answer', ['Header', 'Value'], headerRows, 'kv')),
    el('h4', { text: 'Body' }),
    pre(body, 'Response body'),
  );
  return { status: response.status, links: targets };
}

export function initDeprecationsPanel(evidenceSamples = []) {
  demoSamples = evidenceSamples.filter((sample) => sample.evidenceHex);
  registry = deprecationRegistry();
  timeControl($('dep-time'), $('dep-now'));
  $('dep-now').addEventListener('click', renderDeprecations);
  $('dep-time').addEventListener('change', renderDeprecations);
  $('deprecations-form').addEventListener('submit', (e) => {
    e.preventDefault();
    renderDeprecations();
  });
  $('dep-call').addEventListener('click', callDeprecatedEndpoint);
  window.addEventListener('hashchange', showTarget);
  renderDeprecations();
}
