// Panel 2: verify device evidence in the browser — the transcript, its certificate chain to
// the NVIDIA Device Identity CA, the signature, the nonce, the FWID, and the measurements
// against reference integrity manifests (RIMs). The wasm core decides every check and the
// verdict, in one report (WebCrypto runs its ECDSA checks); this module lays it out, and the
// service panel below shows the service's own answer for the same input beside it.
import { prepareEvidenceReport, runSignatureChecks, identifyRim } from '../pkg/service/index.js';
import {
  $, el, badge, table, showError, timeControl, fromInputValue, isoSeconds, dropZone,
  serializedEvidence, levelBadge, levelOf, EVIDENCE_LEVEL,
} from './ui.js';
import { serviceClaims, serviceClaimsView } from './service-claims.js';
import { revocationCheck } from './revocation.js';

let samples = [];
let rims = new Map(); // id → { title, kind, xml, source }

// How a stage's status looks: a pass with a caveat is amber, never green.
const LOOK = { passed: 'pass', failed: 'fail', 'not-checked': 'skip', 'not-applicable': 'skip' };

function check(state, title, ...detail) {
  return el('li', { class: state }, badge(state), ' ', el('strong', { text: title }), ' ',
    detail.length ? el('div', { class: 'detail' }, ...detail) : null);
}

/** The evidence text and its encoding for the core: hex text is stripped of white space. */
function evidenceInput() {
  const raw = $('ev-evidence').value;
  let encoding = $('ev-encoding').value;
  const compact = raw.replace(/\s+/g, '');
  if (encoding === 'auto') encoding = /^(?:[0-9a-fA-F]{2})+$/.test(compact) ? 'hex' : 'base64';
  return { evidence: encoding === 'hex' ? compact : raw.trim(), encoding };
}

/** The core's report of the device, its signature checks run by WebCrypto. */
async function coreReport(options) {
  const plan = prepareEvidenceReport(options);
  try {
    return plan.finish(await runSignatureChecks(plan.signatureChecks()));
  } finally {
    plan.free();
  }
}

/** One list item per stage of the report, in the core's order. */
function stageItems(report, revocation) {
  const items = [];
  for (const stage of report.stages) {
    if (stage.id === 'driver-rim') {
      const ids = [report.rims.driver.id, report.rims.firmware.id].filter(Boolean);
      if (ids.length) items.push(check('info', 'RIMs this device needs', ids.join(', ')));
    }
    const state = stage.status === 'passed' && stage.warning ? 'warn' : LOOK[stage.status];
    const detail = [];
    if (stage.status === 'failed') {
      const failure = report.failures.find((f) => f.stage === stage.id && f.code === stage.code);
      detail.push(el('code', { text: stage.code }), ` ${stage.detail}${failure?.serviceCode ? ` (service error ${failure.serviceCode})` : ''}`);
      if (stage.code === 'ERR_RIM_CHAIN_EXPIRED') detail.push('; set "Verify at" inside its validity to check it then');
    } else if (stage.detail) {
      detail.push(stage.status === 'not-applicable' ? `not applicable: ${stage.detail}` : stage.detail);
    }
    if (stage.warning) detail.push(` — ${stage.warning}`);
    let title = stage.title;
    const rim = stage.id === 'driver-rim' ? $('ev-rim-driver').value : stage.id === 'firmware-rim' ? $('ev-rim-firmware').value : '';
    if (rim && rims.get(rim) && stage.status !== 'not-applicable') title += ` (${rims.get(rim).title})`;
    if (stage.id === 'measurements' && report.comparison) {
      const c = report.comparison;
      if (c.mismatches.length) {
        detail.push(el('ul', {}, c.mismatches.map((m) => el('li', {
          text: `index ${m.index} (${m.measurementSource}): evidence ${m.runtimeValue.slice(0, 24)}… ≠ RIM ${m.goldenValue.slice(0, 24)}…`,
        }))));
      }
      if (c.nvdec0 !== 'not-applicable') detail.push(el('div', { text: `NVDEC0: ${c.nvdec0}` }));
    }
    // The OCSP answers, per certificate, as the revocation check found them.
    if (stage.id === 'revocation' && revocation) detail.push(el('div', {}, ...revocation.detail));
    items.push(check(state, title, ...detail));
  }
  return items;
}

/** The verdict box: red with every reason, amber with what was not checked, green only when the core says passed. */
function summaryView(report, now) {
  const at = `checked at ${isoSeconds(now)}`;
  const reasons = report.failures.map((f) => `${f.code}: ${f.message}`);
  if (report.verdict === 'failed') {
    return ['summary bad', [
      el('p', {}, levelBadge('failed', 'failed'), ` ${reasons.length === 1 ? reasons[0] : `the device fails on ${reasons.length} points`} — ${at}.`),
      reasons.length > 1 ? el('ul', { class: 'reasons' }, reasons.map((f) => el('li', { text: f }))) : '',
      report.evidence ? el('p', { class: 'muted', text: `The evidence itself is authentic and fresh (signature, chain, nonce); the device fails on ${reasons.length === 1 ? 'this point' : 'these points'}.` }) : '',
    ]];
  }
  if (report.verdict === 'partial') {
    return ['summary warn', [el('p', {}, levelBadge('passed-with-warnings', 'partly verified'),
      ` Evidence authentic and fresh, nothing failed; not checked: ${report.notChecked.join(', ')} — ${at}.`)]];
  }
  return ['summary good', [el('p', {}, levelBadge('passed', 'verified'),
    ` Evidence authentic and fresh, measurements match trusted RIMs — ${at}.`)]];
}

/** The core's mode names (the claim x-nvidia-gpu-mode), spelled out. */
const MODES = { spt: 'spt — single-GPU passthrough', mpt: 'mpt — multi-GPU passthrough', ppcie: 'ppcie — protected PCIe' };

function factsTable(report, measres) {
  const opaque = report.opaque.map((o) => [`opaque ${o.name ?? `tag ${o.tag}`}`, o.value.length > 64 ? `${o.value.slice(0, 64)}…` : o.value]);
  const rows = [
    ['hwmodel', report.hwmodel ?? '—'],
    ['ueid', report.ueid],
    ['driver version', report.driverVersion ?? '—'],
    ['VBIOS / BIOS version', report.vbiosVersion ?? '—'],
    ...(report.mode === null ? [] : [['GPU mode (signed feature flag)', MODES[report.mode] ?? 'invalid flag value']]),
    ['certificate chain', `${report.certChain.status}, expires ${report.certChain.expirationDate}, OCSP ${report.certChain.ocspStatus}`],
    ['FWID', report.fwid],
    ['nonce', report.nonce],
    ['measurement blocks', String(report.measurements.length)],
    ['measurement comparison', measres ?? 'not compared'],
    ...opaque,
  ];
  return el('details', { class: 'claims' }, el('summary', { text: 'What the evidence itself says' }), el('div', { class: 'table-wrap' }, table(
    'What the evidence itself says',
    ['Fact', 'Value'],
    rows.map(([name, value]) => ({ class: /fail|invalid|expired/.test(value) ? 'failed' : undefined, cells: [name, el('span', { class: 'claim', text: value })] })),
  )));
}

function clear() {
  showError('evidence-error', null);
  $('evidence-summary').hidden = true;
  $('evidence-checks').replaceChildren();
  $('evidence-claims').replaceChildren();
}

export async function verifyEvidencePanel() {
  clear();
  const { evidence, encoding } = evidenceInput();
  const certificate = $('ev-chain').value.trim();
  const nonce = $('ev-nonce').value.trim();
  const arch = $('ev-arch').value;
  if (!evidence || !certificate) {
    showError('evidence-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Give both the evidence and the certificate chain (or load a sample).', field: evidence ? 'certificate' : 'evidence' });
    return false;
  }
  const chosen = [$('ev-rim-driver').value, $('ev-rim-firmware').value].map((id) => rims.get(id));
  const documents = {};
  for (const rim of chosen) if (rim) documents[rim.kind] = rim.xml;
  let now;
  let report;
  let revocation = null;
  try {
    now = fromInputValue($('ev-time'));
    const options = { evidence, certificate, nonce, arch, now, evidenceEncoding: encoding, rims: documents };
    report = await coreReport(options);
    // Revocation is I/O: asked once the core says it is due, then the core judges again.
    if (report.revocation === 'not-checked') {
      revocation = await revocationCheck(certificate, now);
      report = await coreReport({ ...options, revocation: { status: revocation.status, message: revocation.message } });
    }
  } catch (error) {
    showError('evidence-error', error);
    return false;
  }

  $('evidence-checks').replaceChildren(...stageItems(report, revocation));
  const summary = $('evidence-summary');
  const [, content] = summaryView(report, now);
  summary.replaceChildren(...content);
  // The box's colour is the scale's for the report's verdict (summaryView's look agrees).
  summary.dataset.level = EVIDENCE_LEVEL[report.verdict] ?? 'failed';
  summary.className = `summary ${levelOf(summary.dataset.level).tone}`;
  summary.hidden = false;

  if (report.evidence) {
    const claimsBox = [factsTable(report.evidence, report.measres)];
    try {
      const outcome = await serviceClaims({ evidence, encoding, certificate, nonce, arch, now, rims: chosen.filter(Boolean) });
      claimsBox.unshift(serviceClaimsView(outcome,
        `The attestation service's code, run in this page at ${isoSeconds(now)} with the RIMs chosen above (V4, default claims version; the tokens are signed by a throwaway key).`, report));
    } catch (error) {
      claimsBox.unshift(el('p', { class: 'error' }, el('code', { text: error.code ?? 'ERR_UNEXPECTED' }), ` The service's claims could not be built here: ${error.message}`));
    }
    $('evidence-claims').replaceChildren(...claimsBox);
  }
  return report.verdict !== 'failed';
}

function loadSample() {
  const sample = samples.find((s) => s.id === $('ev-sample').value);
  if (!sample) return;
  $('ev-evidence').value = sample.evidenceHex;
  $('ev-chain').value = sample.certificatePem;
  $('ev-nonce').value = sample.nonce;
  $('ev-arch').value = sample.arch;
  $('ev-encoding').value = 'auto';
  $('ev-rim-driver').value = sample.rims.driver ?? '';
  $('ev-rim-firmware').value = sample.rims.firmware ?? '';
  clear();
}

function addRimOption(id, rim) {
  rims.set(id, rim);
  const target = rim.kind === 'driver' ? $('ev-rim-driver') : $('ev-rim-firmware');
  target.append(new Option(rim.title, id));
  return target;
}

async function readFiles(files) {
  for (const file of files) {
    const text = await file.text();
    const serialized = serializedEvidence(text);
    if (serialized) {
      // An SDK evidence file: its first device (panel 3 takes them all).
      const [first] = serialized;
      $('ev-evidence').value = first.evidenceHex;
      $('ev-encoding').value = 'hex';
      $('ev-chain').value = first.certificatePem;
      if (first.nonce) $('ev-nonce').value = first.nonce;
      if (first.arch) $('ev-arch').value = first.arch;
    } else if (text.includes('-----BEGIN CERTIFICATE-----')) $('ev-chain').value = text;
    else if (text.trimStart().startsWith('<')) {
      // Driver or firmware RIM: the core reads it from the document's own Meta, and refuses
      // a document of neither kind (shown, not filed under a guess).
      let identity;
      try {
        identity = identifyRim(text);
      } catch (error) {
        showError('evidence-error', { code: error.code, field: error.field, message: `${file.name}: ${error.message}` });
        continue;
      }
      const id = `file:${file.name}:${rims.size}`;
      const title = `your file ${file.name} (${identity.kind} ${identity.version})`;
      addRimOption(id, { title, kind: identity.kind, xml: text, source: file.name }).value = id;
    } else $('ev-evidence').value = text.trim();
  }
}

export function initEvidencePanel(evidenceSamples, rimSamples) {
  // This panel verifies against NVIDIA's roots only: the TEST PKI samples are the service's.
  samples = evidenceSamples.filter((s) => s.collateral?.source !== 'edgeattest-test-pki');
  rims = new Map();
  for (const rim of rimSamples) addRimOption(rim.id, rim);
  $('ev-sample').replaceChildren(...samples.map((s) => new Option(s.title, s.id)));
  timeControl($('ev-time'), $('ev-now'));
  $('ev-load-sample').addEventListener('click', loadSample);
  $('ev-files').addEventListener('change', (e) => readFiles(e.target.files));
  dropZone($('evidence'), readFiles);
  $('evidence-form').addEventListener('submit', (e) => {
    e.preventDefault();
    verifyEvidencePanel();
  });
  $('verify-evidence').disabled = false;
}

