// Panel 2: verify device evidence in the browser — the transcript, its certificate chain to
// the NVIDIA Device Identity CA, the signature, the nonce, the FWID, and the measurements
// against reference integrity manifests (RIMs). The wasm core decides every check (with
// WebCrypto running its ECDSA checks); this module lays the verdicts out in order.
import {
  verifyEvidenceBatch, verifyCertificateChain, prepareRim, runSignatureChecks,
  compareGpuRims, compareSwitchRim, rimIds, runtimeEvidence,
} from '../pkg/index.js';
import {
  $, el, badge, table, showError, timeControl, fromInputValue, isoSeconds, dropZone,
  serializedEvidence,
} from './ui.js';
import { serviceClaims, serviceClaimsView } from './service-claims.js';
import { revocationCheck } from './revocation.js';

let samples = [];
let rims = new Map(); // id → { title, kind, xml, source }

// The order in which the core checks a device, and where each failure code belongs.
const STAGES = [
  ['parsed', 'Transcript parsed (SPDM GET_MEASUREMENTS request and response)'],
  ['chain', 'Certificate chain to the NVIDIA Device Identity CA'],
  ['signature', 'Evidence signature (leaf key, ECDSA P-384/SHA-384)'],
  ['nonce', 'Nonce in the request part equals your nonce'],
  ['arch', 'Device architecture'],
  ['opaque', 'Opaque data values'],
  ['fwid', 'FWID in the evidence equals the leaf certificate\'s'],
];

function stageOf(code) {
  if (code.startsWith('ERR_CHAIN_') || code.startsWith('ERR_CERT_')) return 'chain';
  if (code === 'ERR_EVIDENCE_SIGNATURE') return 'signature';
  if (code === 'ERR_EVIDENCE_NONCE_MISMATCH') return 'nonce';
  if (code === 'ERR_EVIDENCE_ARCH_MISMATCH') return 'arch';
  if (code === 'ERR_EVIDENCE_OPAQUE_VALUE') return 'opaque';
  if (code.startsWith('ERR_EVIDENCE_FWID')) return 'fwid';
  return 'parsed';
}

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

async function verifyRimDocument(id, now) {
  const rim = rims.get(id);
  const pending = prepareRim(rim.xml, { now });
  try {
    const verdicts = await runSignatureChecks(pending.signatureChecks());
    return { rim, verified: pending.finish(verdicts) };
  } finally {
    pending.free();
  }
}

function rimCheck(label, outcome, now) {
  if (outcome.error) {
    return check('fail', `${label} RIM signature`, `${outcome.rim.title}: `,
      el('code', { text: outcome.error.code }), ` ${outcome.error.message}`);
  }
  const json = outcome.verified.toJSON();
  const chain = json.certChain;
  const until = chain.expiration ? isoSeconds(chain.expiration) : 'unknown';
  const state = chain.status === 'valid' ? 'pass' : 'fail';
  const why = chain.status === 'valid'
    ? `signer chain valid at ${isoSeconds(now)} (until ${until})`
    : `signature verifies, but the signer chain is ${chain.status} at ${isoSeconds(now)}` +
      `${chain.status === 'expired' ? ` (it expired ${until}; set "Verify at" inside its validity to check it then)` : ''}` +
      `${chain.errorCode ? ` — ${chain.errorCode}: ${chain.problem}` : ''}`;
  return check(state, `${label} RIM: ${json.document.meta.colloquialVersion} (${outcome.rim.title})`, why);
}

// The comparison as the core returns it: `measurementsMatch` and `mismatches` decide the
// measurements, `allMatch` adds the versions; the page only words them.
function comparisonChecks(comparison, partial, untrusted) {
  const items = [];
  // A match against a RIM that is not trusted now is no pass: said, in amber.
  if (untrusted && comparison.measurementsMatch) partial = [partial, 'against a RIM whose signer is not trusted at this time: the match does not count'].filter(Boolean).join('; ');
  const mismatches = comparison.mismatches.map((m) =>
    `index ${m.index} (${m.measurementSource}): evidence ${m.runtimeValue.slice(0, 24)}… ≠ RIM ${m.goldenValue.slice(0, 24)}…`);
  const count = comparison.mismatches.length;
  items.push(check(
    comparison.measurementsMatch ? (partial ? 'warn' : 'pass') : 'fail',
    comparison.measurementsMatch
      ? `Measurements against the RIMs: ${comparison.measres}`
      : `Measurements against the RIMs: ${comparison.measres} — ${count} measurement${count === 1 ? '' : 's'} differ from the RIM`,
    `${comparison.compared} active measurements compared${partial ? `; ${partial}` : ''}.`,
    mismatches.length ? el('ul', {}, mismatches.map((m) => el('li', { text: m }))) : null,
    comparison.nvdec0 !== 'not-applicable' ? el('div', { text: `NVDEC0: ${comparison.nvdec0}` }) : null,
  ));
  for (const [label, version] of [['Driver', comparison.driverVersion], ['Firmware', comparison.firmwareVersion]]) {
    if (!version) continue;
    items.push(check(version.matches ? 'pass' : 'fail', `${label} version: evidence ${version.evidenceVersion ?? 'absent'}, RIM ${version.rimVersion}`));
  }
  for (const m of comparison.opaqueMismatches) {
    items.push(check('fail', `${m.name}: evidence ${m.runtimeValue ?? 'absent'} below the RIM's minimum ${m.goldenValue}`));
  }
  return items;
}

/** Why a comparison fails the device, in words (empty: it does not). */
function comparisonFailures(comparison) {
  const out = [];
  const count = comparison.mismatches.length;
  if (!comparison.measurementsMatch) out.push(`${count} measurement${count === 1 ? '' : 's'} differ${count === 1 ? 's' : ''} from the RIM (indexes ${comparison.mismatches.map((m) => m.index).join(', ')})`);
  for (const [label, version] of [['driver', comparison.driverVersion], ['firmware', comparison.firmwareVersion]]) {
    if (version && !version.matches) out.push(`the ${label} version ${version.evidenceVersion ?? '(absent)'} is not the RIM's ${version.rimVersion}`);
  }
  for (const m of comparison.opaqueMismatches) out.push(`${m.name} is below the RIM's minimum`);
  return out;
}

function factsTable(report, comparison) {
  const opaque = report.opaque.map((o) => [`opaque ${o.name ?? `tag ${o.tag}`}`, o.value.length > 64 ? `${o.value.slice(0, 64)}…` : o.value]);
  const rows = [
    ['hwmodel', report.hwmodel ?? '—'],
    ['ueid', report.ueid],
    ['driver version', report.driverVersion ?? '—'],
    ['VBIOS / BIOS version', report.vbiosVersion ?? '—'],
    ['certificate chain', `${report.certChain.status}, expires ${report.certChain.expirationDate}, OCSP ${report.certChain.ocspStatus}`],
    ['FWID', report.fwid],
    ['nonce', report.nonce],
    ['measurement blocks', String(report.measurements.length)],
    ['measurement comparison', comparison ? comparison.measres : 'not compared (no RIM)'],
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
  let now;
  let results;
  try {
    now = fromInputValue($('ev-time'));
    results = await verifyEvidenceBatch({ nonce, arch, now, evidenceEncoding: encoding, devices: [{ evidence, certificate }] });
  } catch (error) {
    showError('evidence-error', error);
    return false;
  }
  const [result] = results;
  const items = [];
  let chainReport = null;
  try {
    chainReport = verifyCertificateChain({ certificate, now });
  } catch {
    // The batch result below names the chain failure with its code.
  }
  const failedStage = result.ok ? null : stageOf(result.error.code);
  const failedAt = failedStage ? STAGES.findIndex(([s]) => s === failedStage) : STAGES.length;
  STAGES.forEach(([stage, title], i) => {
    if (i < failedAt) {
      let detail = '';
      if (stage === 'chain' && chainReport) detail = `${chainReport.status}; ${chainReport.subjects.join(' → ')}`;
      if (stage === 'arch' && result.ok) detail = `${result.report.arch} (${result.report.hwmodel ?? 'no hwmodel'})`;
      if (stage === 'nonce' && result.ok) detail = result.report.nonce;
      if (stage === 'fwid' && result.ok && result.report.fwid !== 'matched') {
        items.push(check('skip', title, 'the evidence carries no FWID (firmware before FWID reporting): nothing to compare'));
        return;
      }
      items.push(check('pass', title, detail));
    } else if (i === failedAt) {
      items.push(check('fail', title, el('code', { text: result.error.code }), ` ${result.error.message}` +
        ` (service error ${result.error.serviceCode})`));
    } else {
      items.push(check('skip', title, 'not reached: the core stops at the first failure'));
    }
  });
  if (!result.ok && failedStage !== 'chain' && chainReport) {
    // The chain is checked on its own too, so that its status shows whatever failed.
    items.splice(1, 1, check('pass', STAGES[1][1], `${chainReport.status}; ${chainReport.subjects.join(' → ')}`));
  }

  // Revocation: asked once the chain validated, shown after the evidence's own checks.
  let revocation = null;
  if (chainReport && (result.ok || failedStage !== 'chain')) {
    revocation = await revocationCheck(certificate, now);
    items.push(check(revocation.state, revocation.title, ...revocation.detail));
  }

  let comparison = null;
  // Failures (each in words) and what was left unchecked: every verdict is the core's
  // (the evidence result, the chain status, the RIM trust, the comparison); the page adds up.
  const failures = [];
  const unchecked = [];
  if (!result.ok) failures.push(`${result.error.code}: ${result.error.message}`);
  if (revocation?.state === 'fail') failures.push(`revocation: the certificate chain is ${revocation.status} (see the OCSP answers below)`);
  if (result.ok) {
    const report = result.report;
    // The values the RIMs are compared with, read from the transcript by the core.
    const values = runtimeEvidence({ evidence, evidenceEncoding: encoding, arch, hwmodel: report.hwmodelChip ?? undefined });
    try {
      const ids = rimIds(arch, values);
      items.push(check('info', 'RIMs this device needs', [ids.driver, ids.firmware].filter(Boolean).join(', ')));
    } catch (error) {
      items.push(check('info', 'RIMs this device needs', `${error.code}: ${error.message}`));
    }
    const chosen = { driver: $('ev-rim-driver').value, firmware: $('ev-rim-firmware').value };
    const outcomes = {};
    for (const kind of ['driver', 'firmware']) {
      if (!chosen[kind] || (kind === 'driver' && arch === 'LS10')) continue;
      try {
        outcomes[kind] = await verifyRimDocument(chosen[kind], now);
      } catch (error) {
        outcomes[kind] = { rim: rims.get(chosen[kind]), error };
      }
      items.push(rimCheck(kind === 'driver' ? 'Driver' : 'Firmware', outcomes[kind], now));
      const o = outcomes[kind];
      if (o.error) failures.push(`the ${kind} RIM: ${o.error.code}: ${o.error.message}`);
      else if (!o.verified.isTrusted) failures.push(`the ${kind} RIM's signing certificate chain is ${o.verified.toJSON().certChain.status} at ${isoSeconds(now)}`);
    }
    const good = (kind) => outcomes[kind] && !outcomes[kind].error;
    try {
      if (arch !== 'LS10' && good('driver') && good('firmware')) {
        comparison = compareGpuRims(outcomes.driver.verified, outcomes.firmware.verified, values);
        items.push(...comparisonChecks(comparison, '', !outcomes.driver.verified.isTrusted || !outcomes.firmware.verified.isTrusted));
        failures.push(...comparisonFailures(comparison));
      } else if (good('firmware')) {
        comparison = compareSwitchRim(outcomes.firmware.verified, values);
        // A GPU compared with its firmware RIM alone is only partly checked.
        if (arch !== 'LS10') unchecked.push('the driver measurements (no driver RIM)');
        items.push(...comparisonChecks(comparison, arch === 'LS10' ? '' : 'firmware RIM only: the driver measurements were not compared', !outcomes.firmware.verified.isTrusted));
        failures.push(...comparisonFailures(comparison));
      } else {
        unchecked.push('the measurements (no RIM)');
        items.push(check('skip', 'Measurements against the RIMs', 'pick the driver and firmware RIMs (a bundled sample selects its matching ones when there are any)'));
      }
    } catch (error) {
      failures.push(`the RIM comparison: ${error.code}: ${error.message}`);
      items.push(check('fail', 'Measurements against the RIMs', el('code', { text: error.code }), ` ${error.message}`));
    }
    for (const o of Object.values(outcomes)) o.verified?.free();
    const claimsBox = [factsTable(report, comparison)];
    try {
      const outcome = await serviceClaims({
        evidence, encoding, certificate, nonce, arch, now,
        rims: Object.values(chosen)
          .filter((id) => id && !(arch === 'LS10' && rims.get(id)?.kind === 'driver'))
          .map((id) => rims.get(id)),
      });
      claimsBox.unshift(serviceClaimsView(outcome,
        `The attestation service's code, run in this page at ${isoSeconds(now)} with the RIMs chosen above (V4, default claims version; the tokens are signed by a throwaway key).`));
    } catch (error) {
      claimsBox.unshift(el('p', { class: 'error' }, el('code', { text: error.code ?? 'ERR_UNEXPECTED' }), ` The service's claims could not be built here: ${error.message}`));
    }
    $('evidence-claims').replaceChildren(...claimsBox);
  }

  $('evidence-checks').replaceChildren(...items);
  const summary = $('evidence-summary');
  // Revocation not checked does not fail the device (as in the service), but it is not a
  // full pass either: amber, named among what was not checked.
  if (revocation?.status === 'not-checked') unchecked.push('revocation (OCSP)');
  const at = `checked at ${isoSeconds(now)}`;
  if (failures.length) {
    // Red, first, in words: never "partly verified" when something failed.
    summary.replaceChildren(
      el('p', {}, badge('fail', 'failed'), ` ${failures.length === 1 ? failures[0] : `the device fails on ${failures.length} points`} — ${at}.`),
      failures.length > 1 ? el('ul', { class: 'reasons' }, failures.map((f) => el('li', { text: f }))) : '',
      result.ok ? el('p', { class: 'muted', text: `The evidence itself is authentic and fresh (signature, chain, nonce); the device fails on ${failures.length === 1 ? 'this point' : 'these points'}.` }) : '',
    );
    summary.className = 'summary bad';
  } else if (unchecked.length) {
    summary.replaceChildren(el('p', {}, badge('warn', 'partly verified'),
      ` Evidence authentic and fresh, nothing failed; not checked: ${unchecked.join(', ')} — ${at}.`));
    summary.className = 'summary warn';
  } else {
    summary.replaceChildren(el('p', {}, badge('pass', 'verified'),
      ` Evidence authentic and fresh, measurements match trusted RIMs — ${at}.`));
    summary.className = 'summary good';
  }
  summary.hidden = false;
  return failures.length === 0;
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
      const kind = /NV_GPU_DRIVER|Driver|driver/.test(text.slice(0, 4000)) && !/VBIOS|SWITCH_BIOS/.test(text.slice(0, 4000)) ? 'driver' : 'firmware';
      const id = `file:${file.name}:${rims.size}`;
      addRimOption(id, { title: `your file ${file.name}`, kind, xml: text, source: file.name }).value = id;
    } else $('ev-evidence').value = text.trim();
  }
}

export function initEvidencePanel(evidenceSamples, rimSamples) {
  samples = evidenceSamples;
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

