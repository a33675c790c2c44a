// The verification page. All checks run in this browser through the edgeattest wasm module;
// this file only wires the form to the package's functions.
import { buildAttestRequest, generateNonce } from './pkg/index.js';

const $ = (id) => document.getElementById(id);
const items = [];
let samples = [];

function setStatus(text, state) {
  const status = $('status');
  status.textContent = text;
  status.className = state ?? '';
}

function showError(target, error) {
  const box = $(target);
  box.replaceChildren();
  if (!error) {
    box.hidden = true;
    return;
  }
  const code = document.createElement('code');
  code.textContent = error.code ?? 'ERR_UNEXPECTED';
  box.append(code, ` ${error.message}`);
  if (error.field) {
    const field = document.createElement('span');
    field.textContent = ` (field: ${error.field})`;
    box.append(field);
  }
  box.hidden = false;
}

function renderItems() {
  const list = $('items');
  list.replaceChildren(
    ...items.map((item, i) => {
      const li = document.createElement('li');
      li.textContent = `${item.title} — ${item.evidence.length / 2} bytes of evidence`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove evidence ${i + 1}`);
      remove.addEventListener('click', () => {
        items.splice(i, 1);
        renderItems();
      });
      li.append(remove);
      return li;
    }),
  );
}

function matchSample(endpoint) {
  // Offer the samples that fit the endpoint's device kind first.
  const wantSwitch = endpoint.endsWith('/switch');
  const select = $('sample');
  for (const option of select.options) {
    const sample = samples[Number(option.value)];
    option.disabled = (sample.arch === 'LS10') !== wantSwitch;
  }
  const firstEnabled = [...select.options].find((o) => !o.disabled);
  if (firstEnabled && select.selectedOptions[0]?.disabled) select.value = firstEnabled.value;
  $('arch').value = wantSwitch ? 'LS10' : ($('arch').value === 'LS10' ? 'HOPPER' : $('arch').value);
}

async function readFiles(fileList) {
  for (const file of fileList) {
    const text = await file.text();
    if (text.includes('-----BEGIN CERTIFICATE-----')) $('own-certificate').value = text;
    else $('own-evidence').value = text.trim();
  }
}

function wire() {
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
  const drop = $('build');
  drop.addEventListener('dragover', (e) => e.preventDefault());
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    readFiles(e.dataTransfer.files);
  });
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
    $('request-json').textContent = '';
    $('copy-request').disabled = true;
    try {
      const body = buildAttestRequest({
        endpoint: $('endpoint').value,
        nonce: $('nonce').value.trim() || undefined,
        arch: $('endpoint').value === '/v2/attest/switch' ? undefined : $('arch').value,
        claimsVersion: $('claims-version').value || undefined,
        evidence: items.map(({ evidence, certificate, firmwareVersion }) => ({ evidence, certificate, firmwareVersion })),
      });
      $('nonce').value = body.nonce;
      $('request-json').textContent = JSON.stringify(body, null, 2);
      $('copy-request').disabled = false;
      showError('build-error', null);
    } catch (error) {
      showError('build-error', error);
    }
  });
  $('copy-request').addEventListener('click', () => navigator.clipboard?.writeText($('request-json').textContent));
}

async function main() {
  try {
    const response = await fetch('samples/evidence.json');
    samples = (await response.json()).samples;
    $('sample').replaceChildren(
      ...samples.map((sample, i) => new Option(sample.title, String(i))),
    );
    wire();
    matchSample($('endpoint').value);
    $('build-request').disabled = false;
    setStatus('Verifier ready: everything runs locally in this browser.', 'ready');
  } catch (error) {
    setStatus(`The verifier could not start: ${error.message}`, 'failed');
  }
}

main();
