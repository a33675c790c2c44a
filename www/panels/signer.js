// Panel 1's trusted signers: the `signers` option the page passes (NVIDIA's default pin, the
// anchors the user gave, or 'any' when the user opts out), and the signer the core reports
// for a verified result (its chain, the anchor it reached, the key's kid, the revocation of
// its chain as fetchSignerOcsp judges it), or the core's ERR_SIGNER_* failure. The core decides; this lays it out.
import { fetchSignerOcsp } from '../pkg/service/index.js';
import { $, el, badge, table, codeEl, isoSeconds } from './ui.js';

/** What a person can do about each signer failure, with this page's controls. */
const SIGNER_HINTS = {
  ERR_SIGNER_NO_X5C: 'NRAS publishes a chain with every key. For your own service, publish its chain (EDGEATTEST_SIGNING_CERTIFICATE) and trust its root; choose "Any signer" only knowingly.',
  ERR_SIGNER_UNTRUSTED: 'The key set may not be the service\'s own. If the result comes from your own service, fetch its key set and choose "Trust this service\'s root".',
  ERR_SIGNER_KEY_MISMATCH: 'The key set was altered: its key is not the one its certificate names.',
  ERR_SIGNER_EXPIRED: 'A recorded result verifies at its recorded time ("At issue"); otherwise fetch a fresh key set.',
  ERR_SIGNER_KEY_USAGE: 'The chain is not fit to sign tokens: the key set was not made for this.',
};

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

function argumentError(message) {
  const error = new Error(message);
  error.code = 'ERR_INVALID_ARGUMENT';
  error.field = 'signers';
  return error;
}

/**
 * The `signers` option of the chosen control: undefined for NVIDIA's default (the core's
 * own default anchors), 'any', or the anchors typed: each PEM certificate, and each other
 * line as the SHA-256 hex of a key's SubjectPublicKeyInfo (the core checks both).
 */
export function signersOption() {
  const mode = document.querySelector('input[name="signers-mode"]:checked')?.value ?? 'nras';
  if (mode === 'nras') return undefined;
  if (mode === 'any') return 'any';
  const text = $('signers-text').value;
  const certificates = text.match(PEM_BLOCK) ?? [];
  const hashes = text.replace(PEM_BLOCK, '\n').split('\n').map((l) => l.trim()).filter(Boolean);
  const anchors = [
    ...certificates.map((certificate) => ({ certificate })),
    ...hashes.map((spkiSha256) => ({ spkiSha256 })),
  ];
  if (!anchors.length) throw argumentError('Give at least one anchor (a CA certificate or a key hash), or choose another signer option.');
  return anchors;
}

const pemOf = (base64) => `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;

async function fingerprint(base64) {
  const der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * "Trust this service's root", on the user's explicit choice only: fetches the key set from
 * the service URL (into the JWKS box) and makes the last certificate of each key's x5c the
 * anchors, shown with its fingerprint. Resolves to the anchors' PEM text.
 */
export async function trustServiceRoot(fetchJwks, baseUrl) {
  const text = await fetchJwks(baseUrl);
  let keys;
  try {
    ({ keys } = JSON.parse(text));
  } catch {
    keys = null;
  }
  const roots = [...new Set((Array.isArray(keys) ? keys : [])
    .map((k) => (Array.isArray(k?.x5c) && typeof k.x5c.at(-1) === 'string' ? k.x5c.at(-1) : null))
    .filter(Boolean))];
  if (!roots.length) {
    const error = new Error(`The key set of ${baseUrl} carries no certificate chain (x5c): there is no root to trust. Publish the service's chain (EDGEATTEST_SIGNING_CERTIFICATE).`);
    error.code = 'ERR_SIGNER_NO_X5C';
    throw error;
  }
  const prints = await Promise.all(roots.map(fingerprint));
  $('signers-text').value = roots.map(pemOf).join('');
  $('signers-anchors').checked = true;
  $('service-root-note').textContent = `Trusting the root of ${baseUrl}'s key set, as you chose (certificate SHA-256 ${prints.map((p) => `${p.slice(0, 16)}…`).join(', ')}).`;
  $('service-root-note').dataset.url = baseUrl;
  return $('signers-text').value;
}

const timeText = (t) => (typeof t === 'number' ? isoSeconds(t) : String(t));

function chainTable(chain) {
  return table('The signer\'s certificate chain, leaf first', ['Subject', 'Issuer', 'Valid from', 'Valid until'],
    chain.map((c) => [c.subject, c.issuer, timeText(c.notBefore), timeText(c.notAfter)]), 'stack');
}

/** What a person can do about a signer revocation the policy refused. */
const REVOCATION_HINTS = {
  ERR_SIGNER_REVOKED: 'Do not trust this result: its signer\'s certificate was revoked. Fetch the service\'s current key set and attest again.',
  ERR_SIGNER_REVOCATION_UNCONFIRMED: 'The OCSP responder the signer\'s certificate names did not confirm it (from a browser, the responder must allow CORS). Retry, or check from a server.',
};

/**
 * The line of the signer chain's revocation, as the core judged it (fetchSignerOcsp's status,
 * or the status of its refusal): green only when every certificate asked about is good,
 * amber when not checked or relaxed by the policy, red when refused.
 */
function revocationLine(revocation) {
  const { status, code } = revocation;
  const warnings = revocation.warnings ?? [];
  const tone = code ? 'fail' : status === 'good' && !warnings.length ? 'pass' : status === 'not-checked' ? 'skip' : 'warn';
  const words = { good: 'good', 'not-checked': 'not checked' }[status] ?? status;
  const why = code ? revocation.message : revocation.notChecked;
  return el('div', { id: 'result-signer-revocation', 'data-status': status, class: warnings.length ? 'relaxed' : undefined },
    el('p', {}, badge(tone, `signer revocation: ${words}`), code ? [' ', codeEl(code), ':'] : '', why ? ` ${why}` : ''),
    code && REVOCATION_HINTS[code] ? el('p', { class: 'hint', text: REVOCATION_HINTS[code] }) : null,
    warnings.length
      ? el('ul', { class: 'warnings', 'aria-label': 'Signer revocation relaxed' }, warnings.map((w) => el('li', { text: w })))
      : null);
}

/**
 * Asks about the revocation of a pinned signer's chain (fetchSignerOcsp: the responders its
 * certificates name) and adds the core's judgement to the signer box; a refusal turns the box
 * red. Nothing is asked for an unpinned signer.
 */
export async function showSignerRevocation(verified, jwks, { signers, now }) {
  if (verified.signer?.pinned !== true) return null;
  let revocation;
  try {
    revocation = await fetchSignerOcsp(verified, jwks, { signers, now });
  } catch (error) {
    if (!error?.revocation) throw error;
    revocation = error.revocation;
    const box = $('result-signer');
    box.setAttribute('role', 'alert');
    box.className = 'signer summary bad';
    box.dataset.state = 'revoked';
    for (const pass of box.querySelectorAll('.badge.pass')) pass.className = 'badge info';
  }
  $('result-signer-revocation')?.remove();
  $('result-signer').append(revocationLine(revocation));
  return revocation;
}

/**
 * The signer of a verified result, as the core reports it: pinned (chain, anchor, kid), or
 * not pinned ('any': amber, never green). `clean`: the result passed, so that a fact that
 * held may be green.
 */
export function showSigner(signer, clean) {
  const box = $('result-signer');
  if (!signer) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  if (signer.pinned !== true) {
    box.setAttribute('role', 'status');
    box.className = 'signer summary warn';
    box.dataset.state = 'unpinned';
    box.replaceChildren(el('p', {}, badge('warn', 'signer not pinned'),
      ' Any key of the given key set was accepted (you chose "Any signer"): whoever serves that key set could have made this result.'));
  } else {
    box.setAttribute('role', 'status');
    box.className = 'signer summary';
    box.dataset.state = 'pinned';
    box.replaceChildren(
      el('p', {}, badge(clean ? 'pass' : 'info', 'signer pinned'),
        ' Signed by the key ', el('code', { text: signer.kid ?? '(no kid)' }),
        ', whose chain reaches the trusted anchor ', el('code', { class: 'anchor', text: signer.anchor }), '.'),
      el('div', { class: 'table-wrap' }, chainTable(signer.chain ?? [])),
    );
  }
  box.hidden = false;
}

/** The core's refusal of the signer (an ERR_SIGNER_* code): red, with what to do. */
export function showSignerFailure(error) {
  const box = $('result-signer');
  if (!String(error?.code).startsWith('ERR_SIGNER_')) {
    box.hidden = true;
    box.replaceChildren();
    return false;
  }
  box.setAttribute('role', 'alert');
  box.className = 'signer summary bad';
  box.dataset.state = 'failed';
  box.replaceChildren(
    el('p', {}, badge('fail', 'signer not trusted'), ' ', codeEl(error.code), `: ${error.message}`),
    SIGNER_HINTS[error.code] ? el('p', { class: 'hint', text: SIGNER_HINTS[error.code] }) : null,
  );
  box.hidden = false;
  return true;
}

/** Wires the signer controls: the service-root button fetches from the JWKS URL field. */
export function initSignerControls({ fetchJwks, onError }) {
  $('trust-service-root').addEventListener('click', async () => {
    onError(null);
    try {
      await trustServiceRoot(fetchJwks, $('jwks-url').value.trim() || location.origin);
    } catch (error) {
      onError(error);
    }
  });
  // Typing anchors chooses them; a changed anchor is no longer the fetched service root.
  $('signers-text').addEventListener('input', () => {
    $('signers-anchors').checked = true;
    $('service-root-note').textContent = '';
  });
}
