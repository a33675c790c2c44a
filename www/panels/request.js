// Panel 3: build an attest request body with the package's builder (the same validation the
// service applies), copy it, or send it to a service and verify the answer in panel 1.
import { buildAttestRequest, generateNonce } from '../pkg/service/index.js';
import {
  $, el, showError, dropZone, serializedEvidence, levelOf,
} from './ui.js';
import { fetchJwks, verifyResult } from './result.js';
import { architecturesOf, deviceKind } from './arch.js';

const items = [];
let samples = [];
let built = null; // { endpoint, body, text } of the last body built

function renderItems() {
  $('items').replaceChildren(
    ...items.map((item, i) => {
      const remove = el('button', { type: 'button', text: 'Remove', 'aria-label': `Remove evidence ${i + 1}` });
      remove.addEventListener('click', () => {
        items.splice(i, 1);
        renderItems();
      });
      return el('li', {}, `${item.title} — ${item.evidence.length / 2} bytes of evidence`, remove);
    }),
  );
}

function matchSample(endpoint) {
  // Offer the samples, and an architecture, of the endpoint's device kind (the table's).
  const kind = endpoint.endsWith('/switch') ? 'switch' : 'gpu';
  const select = $('sample');
  for (const option of select.options) {
    const sample = samples[Number(option.value)];
    option.disabled = deviceKind(sample.arch) !== kind;
  }
  const firstEnabled = [...select.options].find((o) => !o.disabled);
  if (firstEnabled && select.selectedOptions[0]?.disabled) select.value = firstEnabled.value;
  describeSample();
  if (deviceKind($('arch').value) !== kind) $('arch').value = architecturesOf(kind)[0]?.name ?? '';
}

async function readFiles(fileList) {
  for (const file of fileList) {
    const text = await file.text();
    const serialized = serializedEvidence(text);
    if (serialized) {
      // An SDK evidence file: every device becomes an item, with the file's nonce and arch.
      serialized.forEach((item, i) => items.push({ title: `${file.name} #${i + 1}`, evidence: item.evidenceHex, certificate: item.certificatePem }));
      if (serialized[0].nonce && !$('nonce').value) $('nonce').value = serialized[0].nonce;
      if (serialized[0].arch) $('arch').value = serialized[0].arch;
      renderItems();
    } else if (text.includes('-----BEGIN CERTIFICATE-----')) $('own-certificate').value = text;
    else $('own-evidence').value = text.trim();
  }
}

function build() {
  $('request-json').textContent = '';
  $('copy-request').disabled = true;
  $('send-request').disabled = true;
  built = null;
  try {
    const endpoint = $('endpoint').value;
    const body = buildAttestRequest({
      endpoint,
      nonce: $('nonce').value.trim() || undefined,
      arch: endpoint === '/v2/attest/switch' ? undefined : $('arch').value,
      claimsVersion: $('claims-version').value || undefined,
      evidence: items.map(({ evidence, certificate, firmwareVersion }) => ({ evidence, certificate, firmwareVersion })),
    });
    $('nonce').value = body.nonce;
    const text = JSON.stringify(body, null, 2);
    $('request-json').textContent = text;
    built = { endpoint, body, text };
    $('copy-request').disabled = false;
    $('send-request').disabled = false;
    showError('build-error', null);
  } catch (error) {
    showError('build-error', error);
  }
}

function sendStatus(text, state, level) {
  const status = $('send-status');
  status.textContent = text;
  status.className = `summary ${state}`;
  if (level) status.dataset.level = level;
  else delete status.dataset.level;
  status.hidden = false;
}

async function send() {
  if (!built) return;
  showError('build-error', null);
  const base = $('send-url').value.trim() || location.origin;
  let url;
  try {
    url = new URL(built.endpoint, base);
  } catch {
    showError('build-error', { code: 'ERR_INVALID_ARGUMENT', message: `"${base}" is not a URL`, field: 'send-url' });
    return;
  }
  sendStatus(`Sending to ${url}…`, 'info');
  let response;
  let text;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: built.text });
    text = await response.text();
  } catch (error) {
    sendStatus('', 'bad');
    showError('build-error', { code: 'ERR_FETCH_FAILED', message: `could not reach ${url}: ${error.message}` });
    return;
  }
  if (!response.ok) {
    sendStatus(`${url} answered ${response.status} ${response.statusText}.`, 'bad');
    let detail = text.slice(0, 300);
    try {
      const body = JSON.parse(text);
      const error = body.error ?? body;
      if (error.code) {
        showError('build-error', { code: error.code, message: `${response.status}: ${error.message ?? ''}`, field: error.field });
        return;
      }
      detail = JSON.stringify(body).slice(0, 300);
    } catch { /* not JSON: show the text */ }
    showError('build-error', { code: 'ERR_SERVICE_RESPONSE', message: `${response.status}: ${detail}` });
    return;
  }
  // The answer goes to panel 1 with the service's keys and our nonce, and is verified there.
  $('result-text').value = text;
  $('result-nonce').value = built.body.nonce;
  $('result-now').click();
  $('jwks-url').value = new URL(base).origin;
  try {
    await fetchJwks(base);
  } catch (error) {
    sendStatus(`${url} answered ${response.status}; its JWKS could not be fetched — see panel 1.`, 'warn');
    showError('result-error', error);
    document.getElementById('result').scrollIntoView();
    return;
  }
  // In the words and colour of the core's level (panel 1 shows the same): green only for a
  // clean pass; a pass with warnings is amber and says so.
  const { level, signer } = await verifyResult();
  if (signer) {
    sendStatus(`${url} answered ${response.status}: the result is NOT authentic — its signer is not trusted (${signer}); see panel 1. `
      + 'If this is your own service, choose "Trust this service\'s root" there (it is not trusted unless you say so).', 'bad');
    $('result-title').scrollIntoView();
    return;
  }
  const row = levelOf(level);
  const said = {
    'passed-with-warnings': 'attestation PASSED WITH WARNINGS (a TEST PKI device, revocation not confirmed, or the service\'s own warning) — read them in panel 1.',
    passed: 'attestation PASSED, the tokens are authentic — see panel 1.',
    failed: 'attestation FAILED — the service\'s verdict is not a pass (its tokens are authentic); the reasons are in panel 1.',
  }[level] ?? (level ? `the result is ${row.words.toUpperCase()} — see panel 1.` : 'the result could not be verified — see panel 1.');
  sendStatus(`${url} answered ${response.status}: ${said}`, row.tone, level);
  $('result-title').scrollIntoView();
}

/** Where the chosen sample's collateral comes from, and what the development service answers offline. */
function describeSample() {
  const sample = samples[Number($('sample').value)];
  const expect = sample?.expect;
  $('sample-about').textContent = sample?.collateral
    ? `${sample.collateral.label}. Offline, the development service (start.sh) answers: ${expect.result}${expect.code ? ` ${expect.code}` : ''} (${expect.reason}).`
    : '';
}

export function initRequestPanel(evidenceSamples) {
  samples = evidenceSamples;
  $('sample').replaceChildren(...samples.map((sample, i) => new Option(sample.title, String(i))));
  $('sample').addEventListener('change', describeSample);
  describeSample();
  $('send-url').value = location.origin;
  $('generate-nonce').addEventListener('click', () => {
    $('nonce').value = generateNonce();
  });
  $('endpoint').addEventListener('change', (e) => matchSample(e.target.value));
  $('add-sample').addEventListener('click', () => {
    const sample = samples[Number($('sample').value)];
    if (!sample) return;
    items.push({ title: sample.title, evidence: sample.evidenceHex, certificate: sample.certificatePem });
    if (!$('nonce').value) $('nonce').value = sample.nonce;
    $('arch').value = sample.arch;
    renderItems();
  });
  $('own-files').addEventListener('change', (e) => readFiles(e.target.files));
  dropZone($('build'), readFiles);
  $('add-own').addEventListener('click', () => {
    const evidence = $('own-evidence').value.replace(/\s+/g, '');
    const certificate = $('own-certificate').value;
    if (!evidence || !certificate) {
      showError('build-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Give both the evidence hex and the certificate chain.' });
      return;
    }
    items.push({ title: 'Your evidence', evidence, certificate, firmwareVersion: $('own-firmware').value.trim() || undefined });
    showError('build-error', null);
    renderItems();
  });
  $('build-form').addEventListener('submit', (e) => {
    e.preventDefault();
    build();
  });
  $('copy-request').addEventListener('click', () => navigator.clipboard?.writeText($('request-json').textContent));
  $('send-request').addEventListener('click', send);
  matchSample($('endpoint').value);
  $('build-request').disabled = false;
}
