// Revocation (OCSP) of a certificate chain on the page: the page builds the requests and
// checks the answers (the wasm core); the worker's same-origin relay (/ocsp) carries them to
// the responder it is configured with, since browsers cannot POST to NVIDIA's responder.
// Good is a pass; revoked, unknown and an answer that could not be had or checked are
// failures; without the relay the check is "not checked", with its reason — never a pass.
import { fetchOcspStatus } from '../pkg/service/index.js';
import { el, table } from './ui.js';

/** The relay's URL when the page is served by the service and revocation checking is on. */
async function relay() {
  if (!/^https?:$/.test(location.protocol)) return { off: 'open the page from the service to check revocation' };
  if (navigator.onLine === false) return { off: 'this browser is offline' };
  const url = new URL('/ocsp', location.origin).toString();
  try {
    const response = await fetch(url, { method: 'GET' });
    if (!response.ok) return { off: `the service has no OCSP relay (HTTP ${response.status})` };
    const { responder } = await response.json();
    return responder ? { url, responder } : { off: 'revocation checking is off on this service (EDGEATTEST_OCSP_URL=off)' };
  } catch {
    return { off: 'the service could not be asked for its OCSP relay' };
  }
}

const when = (seconds) => (seconds ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : '—');

/**
 * The revocation check of `certificatePem` at `now`: `{ state, status, title, message, detail }`
 * — `status` and `message` for the core's report (which judges them), `detail` the OCSP answers
 * per certificate for the checks list (state pass, fail or skip).
 */
export async function revocationCheck(certificatePem, now, kind = 'device') {
  const title = 'Revocation (OCSP) of the certificate chain';
  const via = await relay();
  if (via.off) return { state: 'skip', status: 'not-checked', title, message: via.off, detail: [] };
  let status;
  try {
    status = await fetchOcspStatus(certificatePem, { kind, url: via.url, now });
  } catch (error) {
    return { state: 'fail', status: 'failed', title, message: `${error.code ?? 'ERR_UNEXPECTED'}: ${error.message}`, detail: [] };
  }
  const rows = status.certificates.map((c) => ({
    class: c.status === 'good' ? undefined : 'failed',
    cells: [
      c.subject,
      el('span', { class: 'claim', text: c.status }),
      c.reason ? `${c.reason}${c.revokedAt ? ` since ${when(c.revokedAt)}` : ''}` : '—',
      c.thisUpdate ? `${when(c.thisUpdate)} → ${when(c.nextUpdate)}` : '—',
      c.code ? el('span', {}, el('code', { text: c.code }), ` ${c.message ?? ''}`) : '—',
    ],
  }));
  const summary = status.status === 'good'
    ? `good: every certificate asked about is good (responder ${via.responder})`
    : `${status.status}${status.reason ? ` (${status.reason})` : ''}${status.code ? `: ${status.code}` : ''} — the real service answers ${status.serviceCode ?? 5001}`;
  return {
    state: status.status === 'good' ? 'pass' : 'fail',
    status: status.status,
    title,
    message: summary,
    detail: [el('div', { class: 'table-wrap' }, table('OCSP answers, per certificate',
      ['Certificate', 'Status', 'Reason', 'Valid (thisUpdate → nextUpdate)', 'Problem'], rows, 'ocsp'))],
  };
}
