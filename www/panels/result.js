// Panel 1: verify an attestation result (V2–V4 detached EAT or V1 {"eat"}) against a JWKS.
// The wasm core decides every check; this module only collects the inputs and lays out the
// per-token verdicts it returns (on success, or on the error's `verdicts` on failure).
import { verifyAttestationResult } from '../pkg/service/index.js';
import {
  $, el, badge, table, showError, timeControl, fromInputValue, setTime, isoSeconds,
  dropZone, claimCell, LEVELS, levelOf, levelBadge, codeEl,
} from './ui.js';
import { setPolicySubject } from './policy.js';
import {
  signersOption, showSigner, showSignerFailure, showSignerRevocation, initSignerControls,
} from './signer.js';
import { decodeToken, tokensOf, parseResult } from './result-tokens.js';

// ---- the verdict -------------------------------------------------------------------------
// Each check of a token is the core's verdict: the checks that held (`held`), the one that
// failed (`stage`) and why (`message`); any other was not reached.
// Two questions, answered apart: are the tokens authentic (signatures, JWKS, submods digests,
// times, nonce: the core's token verification), and did the devices pass (the core's
// appraisal of the verified claims)? The page decides neither; it lays out both, a failure
// first, in red, with its reasons in words.

/** The appraisal's reasons for one token (label null: the overall token), by claim name. */
function reasonsFor(appraisal, label) {
  const reasons = new Map();
  if (!appraisal) return reasons;
  const labels = new Set(appraisal.devices.map((d) => d.label));
  for (const device of appraisal.devices) {
    // Reasons of a device the result has no token for belong to the overall token.
    const mine = label === null ? !labels.has(device.label) || device.label === null : device.label === label;
    if (!mine) continue;
    for (const r of device.reasons ?? []) {
      const list = reasons.get(r.claim) ?? [];
      list.push(r.message);
      reasons.set(r.claim, list);
    }
  }
  if (label === null && appraisal.overallResult !== true) {
    reasons.set('x-nvidia-overall-att-result', [appraisal.overallResult === false
      ? "the service's overall verdict is false"
      : 'the result carries no overall verdict']);
  }
  return reasons;
}

/** The messages that flag claim `name` (a reason may name a member: `claim.member`). */
function flagsOf(reasons, name) {
  const out = [];
  for (const [claim, messages] of reasons) {
    if (claim === name || claim.startsWith(`${name}.`) || claim.startsWith(`${name}[`)) out.push(...messages);
  }
  return out;
}

/** The failure reasons of an appraisal, grouped: [{ message, claim, labels[] }]. */
function groupedReasons(appraisal) {
  const groups = new Map();
  for (const device of appraisal.devices) {
    for (const r of device.reasons ?? []) {
      const key = `${r.message}\u0000${r.claim}`;
      const group = groups.get(key) ?? { message: r.message, claim: r.claim, labels: [] };
      group.labels.push(device.label ?? 'overall');
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Each device's warnings, as list items: "GPU-0: <warning>". */
function warningItems(appraisal) {
  return appraisal.devices.flatMap((d) => (d.warnings ?? []).map((w) => el('li', {},
    el('strong', { text: `${d.label}: ` }), w)));
}

/**
 * The device-verdict block of the summary, in the words of the core's level: red first when
 * anything failed, amber with every device's warnings when it passed with warnings. A pass
 * whose certificate chains are not confirmed good is accepted here only because the page opts
 * in (allowUnknownRevocation), and says so: a relying party's default refuses it with
 * ERR_REVOCATION_UNCONFIRMED.
 */
function verdictBlock(appraisal, deviceCount, revocationRelaxed = false) {
  const { level } = appraisal;
  if (level === 'passed-with-warnings') {
    return el('div', { class: 'verdict-line', id: 'result-verdict', 'data-level': level, 'data-relaxed': revocationRelaxed ? 'revocation' : undefined },
      el('p', {}, levelBadge(level),
        ` The service's overall verdict is true${deviceCount ? ` and ${deviceCount === 1 ? 'the device' : `all ${deviceCount} devices`} passed` : ''},`,
        ' with the warnings below: the pass does not prove what they name.'),
      el('ul', { class: 'warnings', 'aria-label': 'Warnings' }, warningItems(appraisal)),
      revocationRelaxed
        ? el('p', { class: 'muted', text: 'Certificate chains not confirmed good are accepted only because this page allows unconfirmed revocation (allowUnknownRevocation); verifyAttestationResult refuses them by default (ERR_REVOCATION_UNCONFIRMED).' })
        : null);
  }
  if (level === 'passed') {
    return el('p', { class: 'verdict-line', id: 'result-verdict', 'data-level': level }, levelBadge(level),
      ` The service's overall verdict is true${deviceCount ? ` and ${deviceCount === 1 ? 'the device' : `all ${deviceCount} devices`} passed` : ''}.`);
  }
  const failed = appraisal.devices.filter((d) => d.passed === false);
  const of = failed.length ? `${failed.length} of ${plural(appraisal.devices.length, 'device')} failed` : '';
  let headline;
  if (appraisal.overallResult === null) headline = ' The result carries no overall verdict (x-nvidia-overall-att-result): it is not a pass.';
  else if (appraisal.overallResult) headline = ` The service's overall verdict is true, but ${of || 'the core does not pass it'}.`;
  else headline = ` The service's overall verdict is false${of ? `: ${of}` : ''}.`;
  const reasons = groupedReasons(appraisal);
  // The devices' warnings (a relaxed revocation among them) stay in amber under the failure.
  const warnings = warningItems(appraisal);
  return el('div', { class: 'verdict-line', id: 'result-verdict', 'data-level': 'failed' },
    el('p', {}, levelBadge('failed'), headline),
    reasons.length
      ? el('ul', { class: 'reasons', 'aria-label': 'Why it failed' }, reasons.map((r) => el('li', {},
        el('strong', { text: `${r.labels.join(', ')}: ` }), r.message, ' ',
        el('span', { class: 'muted' }, '(claim ', el('code', { text: r.claim }), ')'))))
      : el('p', { class: 'muted', text: 'The core named no further reason: see the claims below.' }),
    warnings.length ? el('ul', { class: 'warnings', 'aria-label': 'Warnings' }, warnings) : null);
}

/**
 * The summary of a result whose tokens did not all verify, in the words of the core's level:
 * forged (nothing can be trusted), or authentic but expired / answering another nonce (the
 * signatures held; the time or the nonce did not). An expired result offers to check it at
 * its recorded time (its overall token's iat).
 */
function notAuthenticBlock(error, level, recordedAt) {
  const row = levelOf(level);
  const detail = el('span', { class: 'detail' }, ' ', codeEl(error.code),
    `: ${error.message}${error.field ? ` (field: ${error.field})` : ''}.`);
  const parts = [el('p', {}, levelBadge(level), ` ${row.meaning}`, detail)];
  if (level === 'forged') {
    parts.push(el('p', { text: 'Whether the devices passed is unknown.' }));
  } else if (level === 'expired' && typeof recordedAt === 'number') {
    parts.push(el('p', {},
      el('button', { type: 'button', id: 'result-at-recorded', text: `Verify at its recorded time (${isoSeconds(recordedAt)})` }),
      ' checks it as it stood when it was issued: a pass then says the devices passed then, not now.'));
  } else if (level === 'wrong-nonce') {
    parts.push(el('p', { text: 'Check the nonce you gave against the one your request sent.' }));
  }
  return el('div', { class: 'verdict-line', id: 'result-verdict', 'data-level': level }, ...parts);
}

// One row per token: [label, device result, digest, signature, claims, time, nonce, authentic].
function tokenRow(verdict, token, context) {
  const { header, payload: decoded } = decodeToken(token);
  const payload = verdict.payload ?? decoded;
  const failedStage = verdict.verified ? null : verdict.stage;
  // A check that held is green only in a result that passed: elsewhere it is grey, so that
  // a failed result never reads as a page of green.
  const clean = context.appraisal?.level === 'passed' && !context.unpinned;
  const held = clean ? 'pass' : 'info';
  const cell = (stage, passText, skipText = 'not reached') => {
    if (verdict.verified || verdict.held.includes(stage)) return [badge(held, 'pass'), passText ? ` ${passText}` : ''];
    if (stage === failedStage) return [badge('fail'), ' ', codeEl(verdict.code), `: ${verdict.message}`];
    return [badge('skip', skipText)];
  };
  const isDevice = verdict.label !== null;
  const digest = isDevice
    ? cell('digest', verdict.digest ? `sha-256 ${verdict.digest.slice(0, 16)}…` : '')
    : [el('span', { class: 'muted', text: 'overall token (holds submods)' })];
  const kid = header?.kid ? `kid ${header.kid}` : 'no kid';
  const times = payload && typeof payload.exp === 'number'
    ? `exp ${isoSeconds(payload.exp)}` : 'no exp';
  const nonce = context.nonce
    ? cell('nonce', 'matches')
    : [badge('skip', 'no nonce given'), payload?.eat_nonce ? ` token: ${String(payload.eat_nonce).slice(0, 16)}…` : ''];
  const { appraisal } = context;
  let result;
  let deviceFailed = false;
  if (!appraisal) {
    result = [badge('skip', 'unknown')]; // the summary says why: the result is not authentic
  } else if (!isDevice) {
    deviceFailed = appraisal.overallResult !== true;
    result = appraisal.overallResult === null
      ? [badge('fail', 'no verdict')]
      : [badge(appraisal.overallResult ? held : 'fail', appraisal.overallResult ? 'verdict true' : 'verdict false')];
  } else {
    const device = appraisal.devices.find((d) => d.label === verdict.label);
    deviceFailed = device?.passed === false;
    const warnings = device?.warnings ?? [];
    if (device?.passed === true && appraisal.passed && warnings.length) {
      result = [badge('warn', 'passed with warnings'), ` ${warnings.join('; ')}`];
    } else if (device?.passed === true) result = [badge(held, 'passed'), appraisal.passed ? '' : ' (the result failed: see the verdict)'];
    else if (deviceFailed) result = [badge('fail', 'failed'), device.reasons?.length ? ` ${device.reasons[0].message}${device.reasons.length > 1 ? ` (+${device.reasons.length - 1} more)` : ''}` : ''];
    else result = [badge('skip', 'not stated'), ' see the overall verdict'];
  }
  // Green only where the whole result is authentic and passed: "authentic" is never a pass.
  // A token that failed only on its time or nonce proved its signature: authentic, but not
  // an answer to rely on now.
  let authentic;
  if (verdict.verified && context.unpinned) authentic = badge('warn', 'signer not pinned');
  else if (verdict.verified) authentic = badge(LEVELS[appraisal?.level]?.tone === 'good' ? 'pass' : 'info', 'authentic');
  else if (failedStage === 'time') authentic = badge('fail', 'authentic but expired');
  else if (failedStage === 'nonce') authentic = badge('fail', 'authentic, wrong nonce');
  else authentic = badge('fail', 'not authentic');
  return {
    class: verdict.verified && !deviceFailed ? undefined : 'failed',
    cells: [
      verdict.label ?? 'Overall',
      result,
      digest,
      cell('signature', kid),
      cell('claims', context.issuer ? `iss ${payload?.iss ?? ''}` : 'no issuer required'),
      cell('time', times),
      nonce,
      authentic,
    ],
  };
}

// One collapsible table per token, open when the token is not authentic or the appraisal
// names one of its claims; the claims it names come first, each with the reason.
function claimsTable(title, payload, verified, reasons) {
  const rows = Object.entries(payload ?? {}).map(([name, value]) => {
    const flags = verified ? flagsOf(reasons, name) : [];
    return {
      class: flags.length ? 'failed' : undefined,
      cells: [name, [claimCell(name, value), flags.length ? el('div', { class: 'why' }, ...flags.map((m) => el('div', {}, badge('fail', 'why'), ` ${m}`))) : '']],
    };
  });
  rows.sort((a, b) => (b.class ? 1 : 0) - (a.class ? 1 : 0));
  const flagged = rows.filter((r) => r.class).length;
  const heading = `${title}${verified ? '' : ' — not authentic, shown as decoded'}`;
  return el('details', { class: 'claims', open: !verified || flagged > 0 },
    el('summary', {}, `${heading}: ${rows.length} claims`,
      flagged ? [' — ', badge('fail', `${flagged} caused the failure`)] : ''),
    el('div', { class: 'table-wrap' }, table(heading, ['Claim', 'Value'], rows)));
}

function render(verdicts, tokens, context, summary, level) {
  const byLabel = new Map(tokens.map((t) => [t.label, t.token]));
  $('result-summary').replaceChildren(...summary);
  $('result-summary').className = `summary ${levelOf(level).tone}`;
  $('result-summary').dataset.level = LEVELS[level] ? level : 'failed';
  $('result-summary').hidden = false;
  $('result-tokens').replaceChildren(table(
    'Every token of the result',
    ['Token', 'Device result', 'Submods digest', 'Signature', 'Issuer', 'Time', 'Nonce', 'Token authentic'],
    verdicts.map((v) => tokenRow(v, byLabel.get(v.label), context)),
    'stack',
  ));
  $('result-claims').replaceChildren(
    el('h3', { text: 'Claims' }),
    ...verdicts.map((v) => claimsTable(
      v.label ? `Device ${v.label}` : 'Overall token',
      v.payload ?? decodeToken(byLabel.get(v.label)).payload,
      v.verified,
      reasonsFor(context.appraisal, v.label),
    )),
  );
}

function clear() {
  setPolicySubject(null);
  showError('result-error', null);
  $('result-summary').hidden = true;
  showSigner(null);
  $('result-tokens').replaceChildren();
  $('result-claims').replaceChildren();
}

/** Fetches `<url>/.well-known/jwks.json` into the JWKS box. */
export async function fetchJwks(baseUrl) {
  const url = new URL('/.well-known/jwks.json', baseUrl);
  let response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (cause) {
    const error = new Error(`could not reach ${url} (${cause.message}); paste the JWKS instead`);
    error.code = 'ERR_FETCH_FAILED';
    throw error;
  }
  const text = await response.text();
  if (!response.ok) {
    const error = new Error(`${url} answered ${response.status} ${response.statusText}: ${text.slice(0, 200)}`);
    error.code = 'ERR_FETCH_FAILED';
    throw error;
  }
  $('jwks-text').value = text;
  return text;
}

/**
 * Runs the verification with the panel's inputs; resolves to `{ authentic, passed }`: whether
 * the tokens verified, and whether the core's appraisal passed the devices.
 */
export async function verifyResult() {
  clear();
  const text = $('result-text').value.trim();
  const jwks = $('jwks-text').value.trim();
  if (!text) {
    showError('result-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Paste an attestation result first.', field: 'result' });
    return { authentic: false, passed: false };
  }
  if (!jwks) {
    showError('result-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Give the JWKS: paste it or fetch it from the service URL.', field: 'jwks' });
    return { authentic: false, passed: false };
  }
  let now;
  let signers;
  try {
    now = fromInputValue($('result-time'));
    signers = signersOption();
  } catch (error) {
    showError('result-error', error);
    return { authentic: false, passed: false };
  }
  const nonce = $('result-nonce').value.trim() || undefined;
  const issuer = $('result-issuer').value.trim() || undefined;
  const context = { nonce, issuer };
  const tokens = tokensOf(parseResult(text));
  const at = `at ${isoSeconds(now)}`;
  const format = $('result-format').value;
  let verified;
  try {
    // The shape is the one the endpoint called answers with, never guessed from the text.
    // A failed device is a verdict to show, not an error: allowFailedResult.
    // The page shows every authentic result: failed ones, and passes whose revocation is
    // not confirmed (labelled as accepted only by this opt-in).
    // The signers chosen on the page: absent is the core's default, NVIDIA's anchors.
    verified = await verifyAttestationResult(text, jwks, {
      now, nonce, issuer, format, allowFailedResult: true, allowUnknownRevocation: true,
      ...(signers !== undefined && { signers }),
    });
  } catch (error) {
    if (error.result && error.appraisal) {
      verified = { ...error.result, appraisal: error.appraisal }; // authentic, failed
    } else if (Array.isArray(error.verdicts)) {
      // The core's level: forged, or authentic but expired / answering another nonce.
      const level = LEVELS[error.level] ? error.level : 'forged';
      const recordedAt = decodeToken(tokens[0]?.token).payload?.iat;
      render(error.verdicts, tokens, { ...context, appraisal: null }, [
        notAuthenticBlock(error, level, recordedAt),
        el('p', { class: 'authenticity muted', text: `Checked ${at}.` }),
      ], level);
      showSignerFailure(error);
      $('result-at-recorded')?.addEventListener('click', () => {
        setTime($('result-time'), recordedAt);
        $('result-time').dataset.recorded = 'true';
        verifyResult();
      });
      return { authentic: false, passed: false, level };
    } else if (showSignerFailure(error)) {
      // The signer refused before any token was checked: nothing of the result is trusted.
      // A recorded result's signer certificate (NRAS's lasts two days) has expired since: it
      // can be checked as it stood when issued.
      const recordedAt = decodeToken(tokens[0]?.token).payload?.iat;
      if (error.code === 'ERR_SIGNER_EXPIRED' && typeof recordedAt === 'number') {
        $('result-signer').append(el('p', {},
          el('button', { type: 'button', id: 'result-at-recorded', text: `Verify at its recorded time (${isoSeconds(recordedAt)})` }),
          ' checks it, and its signer\'s certificates, as they stood when it was issued.'));
        $('result-at-recorded').addEventListener('click', () => {
          setTime($('result-time'), recordedAt);
          $('result-time').dataset.recorded = 'true';
          verifyResult();
        });
      }
      return { authentic: false, passed: false, signer: error.code };
    } else {
      showError('result-error', error);
      return { authentic: false, passed: false };
    }
  }
  const shown = showVerified(verified, { ...context, now, text });
  let revocation;
  try {
    revocation = await showSignerRevocation(verified, jwks, { signers, now });
  } catch (error) {
    showError('result-error', error);
  }
  if (!revocation?.code) return shown;
  signerRefused(revocation);
  return { ...shown, passed: false, signer: revocation.code };
}

/**
 * A result whose signer the revocation check refused is not to be trusted, whatever its
 * devices' verdict: the summary turns red, and nothing in it stays green.
 */
function signerRefused(revocation) {
  const box = $('result-summary');
  box.className = 'summary bad';
  box.dataset.signer = 'refused';
  box.setAttribute('role', 'alert');
  for (const pass of box.querySelectorAll('.badge.pass')) pass.className = 'badge info';
  box.prepend(el('p', { class: 'signer-refused' }, badge('fail', 'signer refused'), ' ', codeEl(revocation.code),
    ': the signer\'s revocation check refused it, so this result is not to be trusted, whatever its devices\' verdict below.'));
}

/**
 * Lays out authentic verified data (verifyAttestationResult's, with the core's `appraisal`)
 * of the result `text`:
 * the device verdict first, then the authenticity, the tokens and the claims. Resolves to
 * `{ authentic: true, passed }`.
 */
export function showVerified(verified, { nonce, issuer, now, text }) {
  clear();
  const tokens = tokensOf(parseResult(text));
  // The core's appraisal decides whether the devices passed; the page only lays it out.
  const { appraisal } = verified;
  const verdicts = [
    { label: null, verified: true, code: null, field: null, digest: null, payload: verified.overall.payload },
    ...verified.devices.map((d) => ({ label: d.label, verified: true, code: null, field: null, digest: d.digest, payload: d.payload })),
  ];
  const count = verified.devices.length;
  const recorded = $('result-time').dataset.recorded === 'true';
  // A signer the user chose not to pin ('any') proves nothing about who signed: never green.
  const unpinned = verified.signer?.pinned !== true;
  const authentic = unpinned
    ? badge('warn', 'signer not pinned')
    : badge(appraisal.level === 'passed' ? 'pass' : 'info', 'tokens authentic');
  render(verdicts, tokens, { nonce, issuer, appraisal, unpinned }, [
    verdictBlock(appraisal, count, verified.revocationRelaxed === true),
    el('p', { class: 'authenticity' }, authentic,
      ` Every signature, digest, time${nonce ? ' and the nonce' : ''} checked at ${isoSeconds(now)}${recorded ? ' (its recorded time, not now: the verdict is as it stood then)' : ''} (${verified.format} result, ${plural(count, 'device')}):`,
      unpinned
        ? ' signed by a key of the given key set, whose signer was not checked: not proof of who issued it.'
        : ' the result is genuine. Authentic says who issued it, not that the devices passed.'),
  ], appraisal.level);
  showSigner(verified.signer, appraisal.level === 'passed');
  setPolicySubject(verified);
  return {
    authentic: true, passed: appraisal.passed, level: appraisal.level, revocationRelaxed: verified.revocationRelaxed === true,
  };
}

// ---- recorded results ----------------------------------------------------------------------
// Results this project's service answered for the bundled TEST PKI samples, each with the key
// set it signed under, the request's nonce and the time it was recorded
// (www/samples/results.json, made by tests/fixtures/generated/record_results.mjs). Loading one
// fills the inputs; "Verify at its recorded time" checks it as of then — labelled so: a pass
// then is not a pass now (now it is authentic but expired).
let recorded = [];

function loadRecorded(entry) {
  $('result-text').value = entry.result;
  $('jwks-text').value = entry.jwks;
  $('result-nonce').value = entry.nonce;
  $('result-issuer').value = '';
  $('result-format').value = entry.format ?? 'detached';
  $('recorded-note').textContent = `${entry.title}. ${entry.provenance} Recorded at ${isoSeconds(entry.recordedAt)}.`;
  $('recorded-note').hidden = false;
  // A recorded result names the root its recording service signed under: loading it is the
  // choice to trust that root for it, shown in the signer controls.
  if (entry.signerAnchor) {
    $('signers-text').value = entry.signerAnchor;
    $('signers-anchors').checked = true;
    $('service-root-note').textContent = `Trusting the root the recording service signed under (bundled with "${entry.title}").`;
  }
}

/** The chosen recorded result, loaded and verified at its recorded time. */
export async function verifyRecorded(id) {
  const entry = recorded.find((r) => r.id === (id ?? $('recorded-result').value));
  if (!entry) return null;
  $('recorded-result').value = entry.id;
  loadRecorded(entry);
  setTime($('result-time'), entry.recordedAt);
  $('result-time').dataset.recorded = 'true';
  return verifyResult();
}

/** Fills the recorded-results list ([{id, title, ...}]). */
export function setRecordedResults(entries) {
  recorded = entries;
  const select = $('recorded-result');
  select.replaceChildren(el('option', { value: '', text: 'Recorded results…' }),
    ...entries.map((r) => el('option', { value: r.id, text: r.title })));
  const sync = () => {
    $('recorded-load').disabled = !select.value;
    $('recorded-verify').disabled = !select.value;
  };
  select.onchange = sync;
  sync();
}

export function initResultPanel(recordedResults = []) {
  setRecordedResults(recordedResults);
  $('recorded-load').addEventListener('click', () => {
    const entry = recorded.find((r) => r.id === $('recorded-result').value);
    if (entry) loadRecorded(entry);
  });
  $('recorded-verify').addEventListener('click', () => verifyRecorded());
  timeControl($('result-time'), $('result-now'));
  $('jwks-url').value = location.origin;
  $('result-iat').addEventListener('click', () => {
    const [first] = tokensOf(parseResult($('result-text').value.trim()));
    const iat = decodeToken(first?.token).payload?.iat;
    if (typeof iat === 'number') setTime($('result-time'), iat);
    else showError('result-error', { code: 'ERR_INVALID_ARGUMENT', message: 'The result has no readable overall token with an iat claim.', field: 'result' });
  });
  $('fetch-jwks').addEventListener('click', async () => {
    showError('result-error', null);
    try {
      await fetchJwks($('jwks-url').value.trim() || location.origin);
    } catch (error) {
      showError('result-error', error);
    }
  });
  const readFiles = async (files) => {
    for (const file of files) {
      const text = await file.text();
      if (/"keys"\s*:/.test(text)) $('jwks-text').value = text;
      else $('result-text').value = text;
    }
  };
  initSignerControls({ fetchJwks, onError: (error) => showError('result-error', error) });
  $('result-file').addEventListener('change', (e) => readFiles(e.target.files));
  dropZone($('result'), readFiles);
  $('result-form').addEventListener('submit', (e) => {
    e.preventDefault();
    verifyResult();
  });
  $('verify-result').disabled = false;
}
