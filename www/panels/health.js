// Panel 7: the running worker's GET /health — can it sign results, and where do its
// reference measurements (RIMs) and revocation answers come from. The object is the
// service's (the core builds it); this module lays it out for a person.
import { $, el, badge, table } from './ui.js';

const STATE = {
  UP: 'pass', DEGRADED: 'warn', DOWN: 'fail', NOT_CONFIGURED: 'skip', UNKNOWN: 'skip',
  ONLINE: 'pass', PARTLY_OFFLINE: 'warn', OFFLINE: 'fail', AIR_GAPPED: 'skip',
};
const WORDS = {
  UP: 'up', DEGRADED: 'degraded', DOWN: 'down', NOT_CONFIGURED: 'not configured', UNKNOWN: 'not asked yet',
  ONLINE: 'online', PARTLY_OFFLINE: 'partly offline', OFFLINE: 'offline', AIR_GAPPED: 'air-gapped',
};
/** "3 anchors" (the core's check text) as "3 trust anchors", in the right number. */
const count = (text, word) => {
  const n = parseInt(text, 10);
  return Number.isNaN(n) ? text : `${n} ${word}${n === 1 ? '' : 's'}`;
};
const state = (value) => badge(STATE[value] ?? 'info', WORDS[value] ?? String(value));

function healthRows(h) {
  const rim = h.rimServiceHealth ?? {};
  const checks = rim.checks ?? {};
  const ocsp = h.ocspServiceHealth ?? {};
  const service = ocsp.service ?? {};
  const row = (name, status, ...detail) => ({
    class: status === 'DOWN' || status === 'OFFLINE' ? 'failed' : undefined,
    cells: [name, [status ? state(status) : '', detail.length ? ` ${detail.filter(Boolean).join('; ')}` : '']],
  });
  return [
    row('Signing key', service.hsmStatus,
      service.signingKey === 'EXTERNAL' ? 'held by WebCrypto (non-extractable), the core has its public half'
        : service.signingKey === 'IN_CORE' ? 'held by the wasm core' : 'none loaded',
      service.kid ? `kid ${service.kid}` : ''),
    row('Reference measurements (RIMs)', rim.status,
      checks.localDocuments ? `${checks.localDocuments} held by the worker` : '',
      checks.rimTrustAnchors ? `checked against ${count(checks.rimTrustAnchors, 'trust anchor')}` : ''),
    row('RIM service', checks.rimService,
      checks.rimServiceUrl ?? 'off: only the RIMs held are used',
      checks.cachedDocuments ? `${checks.cachedDocuments} cached` : '',
      checks.rimServiceLastError ? `last error: ${checks.rimServiceLastError}` : ''),
    row('Revocation (OCSP responder)', ocsp.overallStatus,
      service.responder ?? 'off: revocation is not checked (the tokens say so in a warning claim)',
      typeof service.cachedResponses === 'number' ? `${service.cachedResponses} answers cached` : '',
      service.lastError ? `last error: ${service.lastError}` : ''),
    // Whether the sources answer (probed when the worker starts), with what to do if not.
    ...(h.network ? [row('Network (the sources)', h.network, h.networkDetail)] : []),
  ];
}

/** Asks the worker's GET /health and shows it; resolves to the object, or null. */
export async function checkHealth() {
  const out = $('health-output');
  if (!/^https?:$/.test(location.protocol)) {
    out.replaceChildren(el('p', { class: 'muted', text: 'Open the page from the service to see its health.' }));
    return null;
  }
  let response;
  let health;
  try {
    response = await fetch('/health', { headers: { accept: 'application/json' } });
    health = await response.json();
  } catch (error) {
    out.replaceChildren(el('p', { class: 'summary bad', id: 'health-verdict' }, badge('fail', 'unreachable'),
      ` GET /health got no answer (${error.message}).`));
    return null;
  }
  const overall = health.overallStatus;
  const summaryClass = { UP: 'good', DEGRADED: 'warn' }[overall] ?? 'bad';
  out.replaceChildren(
    el('p', { class: `summary ${summaryClass}`, id: 'health-verdict' }, state(overall),
      ` HTTP ${response.status} from GET /health: the service is ${WORDS[overall] ?? overall}.`,
      overall === 'DEGRADED' ? ' It answers, but some attestations will fail (see the rows marked below).' : ''),
    el('div', { class: 'table-wrap' }, table('Health of the running worker', ['Part', 'State'], healthRows(health), 'kv')),
    el('details', {}, el('summary', { text: 'The answer as sent' }),
      el('pre', { id: 'health-json', text: JSON.stringify(health, null, 2) })),
  );
  return health;
}

export function initHealthPanel() {
  $('health-refresh').addEventListener('click', checkHealth);
  checkHealth();
}
