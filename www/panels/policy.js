// Panel 1's policy section: a relying-party policy (NVIDIA's JSON format; nvtrust's examples
// are bundled; or Rego, through the Rego module loaded on first use: policy-rego.js) applied
// to the result the panel verified last. The wasm core's `appraise` / `appraiseRego` decides
// every rule; this module only lays out its decision: the verdict first, then each
// scope's rules with the claim's value, each marked pass or fail in words.
// It also fetches the EAT Attestation Result (EAR) of the result shown from the service that
// answered panel 3's request — the same request again, asking for the EAR in the form chosen
// (a JWT in Veraison's profile or draft -04's, or a -04 CWT, binary, read as bytes) — verifies
// it with that service's keys and the result's nonce (verifyEar: the core reads the status),
// shows the encoding and profile read, each device's status and trustworthiness vector, and
// offers the token for download.
import { appraise, verifyEar } from '../pkg/service/index.js';
import { signersOption } from './signer.js';
import {
  $, el, badge, table, showError, claimText, levelBadge, levelOf, levelAgreement, EAR_LEVEL,
} from './ui.js';
import { isRegoPolicy, appraiseRegoLazily, regoSamples } from './policy-rego.js';

let subject = null;

/** The verified data (verifyAttestationResult's) the policy applies to; null: none yet. */
export function setPolicySubject(verified) {
  subject = verified;
  $('policy-output').replaceChildren();
  $('ear-output').replaceChildren();
  $('get-ear').disabled = !verified;
  $('ear-status').textContent = verified ? '' : 'Verify a result above first.';
  showError('policy-error', null);
  $('apply-policy').disabled = !verified;
  $('policy-status').textContent = verified
    ? `Applies to the ${verified.format} result verified above (${verified.devices.length || 1} device${verified.devices.length === 1 ? '' : 's'}).`
    : 'Verify a result above first; the policy applies to it.';
}

const STATUS_WORDS = { pass: 'pass', mismatch: 'fail: differs', missing: 'fail: missing' };

// A rule that held is green only under a clean pass: elsewhere grey, so that a failed policy
// or result never reads as a table of green.
function rulesTable(caption, rules, passed, clean) {
  // A Rego decision lists only the rules that failed: a met scope has none to show.
  if (!rules.length) {
    return el('p', { class: 'rules-none' }, el('strong', { text: `${caption}: ` }),
      passed ? 'every rule holds (the policy lists no rule that failed).' : 'the policy names no rule for this scope.');
  }
  return table(caption, ['claim', 'expected', 'found', 'rule'], rules.map((rule) => ({
    class: rule.status === 'pass' ? 'ok' : 'bad',
    cells: [
      el('code', { text: rule.path }),
      el('code', { text: claimText(rule.expected) }),
      'found' in rule ? el('code', { text: claimText(rule.found) }) : el('span', { class: 'muted', text: 'absent' }),
      badge(rule.status === 'pass' ? (clean ? 'pass' : 'info') : 'fail', STATUS_WORDS[rule.status] ?? rule.status),
    ],
  })), 'stack');
}

/** Applies the policy in the text box to the verified result; renders the decision. */
export async function applyPolicy() {
  $('policy-output').replaceChildren();
  showError('policy-error', null);
  if (!subject) {
    showError('policy-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Verify a result above first.', field: 'result' });
    return null;
  }
  const text = $('policy-text').value.trim();
  if (!text) {
    showError('policy-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Paste a policy or pick one of NVIDIA\'s.', field: 'policy' });
    return null;
  }
  let decision;
  const verified = subject;
  try {
    decision = isRegoPolicy(text) ? await appraiseRegoLazily(verified, text) : appraise(verified, text);
  } catch (error) {
    if (subject === verified) showError('policy-error', error);
    return null;
  }
  // A new verification while the Rego module loaded: this decision is for a result no longer shown.
  if (subject !== verified) return null;
  const failed = [...decision.overall, ...decision.devices.flatMap((d) => d.rules)].filter((r) => r.status !== 'pass').length;
  const devicesFailed = decision.devices.filter((d) => !d.passed).map((d) => d.label);
  // On the one scale: a met policy keeps the result's warnings (it passes no more than the
  // result did); an unmet one is failed.
  const resultLevel = verified.appraisal?.level;
  const level = decision.passed ? (resultLevel === 'passed-with-warnings' ? resultLevel : 'passed') : 'failed';
  const verdict = el('p', { class: 'verdict-line', id: 'policy-verdict', 'data-level': level },
    levelBadge(level, decision.passed ? `policy met${level === 'passed-with-warnings' ? ', with warnings' : ''}` : 'policy NOT met'),
    decision.passed
      ? ` Every rule of this ${decision.version === 'rego' ? 'Rego' : `version ${decision.version}`} policy holds, for the overall token and every device.`
      : ` ${failed} rule${failed === 1 ? '' : 's'} failed${devicesFailed.length ? ` (devices: ${devicesFailed.join(', ')})` : ''}.`
        + ' By this policy, do not rely on these devices.');
  const why = levelAgreement(level, resultLevel, decision.passed
    ? 'a policy checks only its own rules; it does not undo the result\'s verdict, which stands.'
    : 'this policy asks more than the service\'s verdict does; by this policy, do not rely on these devices.');
  const parts = [verdict, why];
  // The box takes the worse of the two verdicts: a met policy never turns a failed result green.
  const shown = resultLevel && levelOf(resultLevel).tone === 'bad' ? resultLevel : level;
  const clean = shown === 'passed';
  if (decision.overall.length || decision.version === 'rego') parts.push(rulesTable('Overall token', decision.overall, decision.passed, clean));
  for (const device of decision.devices) {
    parts.push(rulesTable(`${device.label}: ${device.passed ? 'met' : 'not met'}`, device.rules, device.passed, clean));
  }
  $('policy-output').replaceChildren(el('div', { class: `summary ${levelOf(shown).tone}`, 'data-level': shown, role: 'status' }, ...parts));
  return decision;
}

const VERAISON_PROFILE = 'tag:github.com,2023:veraison/ear';
const IETF_04_PROFILE = 'tag:ietf.org,2026:rats/ear#04';

/**
 * The EAR forms the service writes (the page's `#ear-form`): the Accept header that asks for
 * one, its media type, and how a download of it is named. A CWT is binary: read as bytes.
 */
const EAR_FORMS = {
  'jwt-veraison': { type: 'application/eat+jwt', profile: VERAISON_PROFILE, extension: 'jwt', words: 'signed JWT' },
  'jwt-04': { type: 'application/eat+jwt', profile: IETF_04_PROFILE, extension: 'jwt', words: 'signed JWT' },
  'cwt-04': { type: 'application/eat+cwt', profile: IETF_04_PROFILE, extension: 'cwt', words: 'signed CWT, COSE_Sign1' },
};
const accept = (form) => `${form.type}; eat_profile="${form.profile}"`;

/** The request panel 3 sent for the result shown: its body, endpoint and service base URL. */
function requestOfSubject() {
  const nonce = subject?.overall?.payload?.eat_nonce;
  let body;
  try {
    body = JSON.parse($('request-json').textContent);
  } catch {
    return null;
  }
  // The result shown answered this request only if it carries the request's nonce.
  if (!nonce || typeof body?.nonce !== 'string' || body.nonce.toLowerCase() !== String(nonce).toLowerCase()) return null;
  return { body, nonce: String(nonce), endpoint: $('endpoint').value, base: $('send-url').value.trim() || location.origin };
}

const VECTOR_KEYS = ['instance-identity', 'hardware', 'executables', 'configuration'];

function earView(ear, token, nonce, form) {
  const good = ear.affirming;
  const level = EAR_LEVEL[ear.status] ?? 'failed';
  const resultLevel = subject?.appraisal?.level;
  const others = ear.submods.filter((s) => s.status !== 'affirming').map((s) => `${s.label} ${s.status}`).join(', ');
  let words;
  if (good) words = ' Every device is affirming: the service found each trustworthy on every aspect it has evidence for.';
  else if (level === 'passed-with-warnings') words = ` Not every device is affirming: ${others}. Read the warnings before relying on these devices.`;
  else words = ` NOT affirming: ${others}. Do not rely on these devices.`;
  const line = el('p', { class: 'verdict-line', id: 'ear-verdict', 'data-level': level },
    levelBadge(level, `EAR: ${ear.status}`), words);
  const why = levelAgreement(level, resultLevel,
    'the EAR is a new appraisal of the same request, made now by the service under its EAR policy; the result above is the answer it gave before.');
  const rows = ear.submods.map((submod) => ({
    class: submod.status === 'affirming' ? 'ok' : 'bad',
    cells: [
      submod.label,
      levelBadge(EAR_LEVEL[submod.status] ?? 'failed', submod.status),
      ...VECTOR_KEYS.map((key) => submod.trustworthinessVector?.[key] ?? el('span', { class: 'muted', text: 'no evidence' })),
      submod.appraisalPolicyId ? el('code', { text: submod.appraisalPolicyId }) : el('span', { class: 'muted', text: 'none' }),
    ],
  }));
  // What was read, as the core read it (not as it was asked for).
  const shown = el('p', { id: 'ear-form-shown' }, 'Encoding ', el('code', { id: 'ear-encoding', text: ear.encoding.toUpperCase() }),
    ', profile ', el('code', { id: 'ear-profile', text: ear.profile }), ` (dialect ${ear.dialect})`);
  const link = el('a', {
    id: 'ear-download',
    href: URL.createObjectURL(new Blob([token], { type: form.type })),
    download: `ear-${nonce.slice(0, 16)}.${form.extension}`,
    text: `Download the EAR (${form.words})`,
  });
  return el('div', { class: `summary ${levelOf(level).tone}`, 'data-level': level, role: 'status' }, line, why, shown,
    table('EAR submodules (AR4SI trustworthiness vector)', ['device', 'status', ...VECTOR_KEYS, 'appraisal policy'], rows, 'stack'),
    el('p', {}, link));
}

/** Asks the service that answered panel 3 for the EAR of the result shown; renders it. */
export async function fetchEar() {
  $('ear-output').replaceChildren();
  showError('policy-error', null);
  const request = requestOfSubject();
  if (!request) {
    showError('policy-error', { code: 'ERR_INVALID_ARGUMENT', message: 'The result shown did not come from a request panel 3 sent (its nonce differs): send the request there first.', field: 'result' });
    return null;
  }
  let url;
  try {
    url = new URL(request.endpoint, request.base);
  } catch {
    showError('policy-error', { code: 'ERR_INVALID_ARGUMENT', message: `"${request.base}" is not a URL`, field: 'send-url' });
    return null;
  }
  const form = EAR_FORMS[$('ear-form').value] ?? EAR_FORMS['jwt-veraison'];
  $('ear-status').textContent = `Asking ${url} for the EAR…`;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: accept(form) },
      body: JSON.stringify(request.body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith(form.type)) {
      let error = { code: 'ERR_SERVICE_RESPONSE', message: `${response.status}: the service sent no EAR (${type || 'no content type'})` };
      try {
        const body = JSON.parse(text);
        if (body.code) error = { code: body.code, message: `${response.status}: ${body.message ?? ''}`, field: body.field };
      } catch { /* not JSON */ }
      throw error;
    }
    const jwks = await (await fetch(new URL('/.well-known/jwks.json', url))).json();
    // The signers chosen in panel 1 pin the EAR's signer too.
    const signers = signersOption();
    // A CWT is verified as its bytes, a JWT as its text.
    const token = form.type === 'application/eat+cwt' ? bytes : text.trim();
    const ear = await verifyEar(token, jwks, {
      nonce: request.nonce, maxTokenAge: 600, clockTolerance: 60, ...(signers !== undefined && { signers }),
    });
    $('ear-output').replaceChildren(earView(ear, token, request.nonce, form));
    $('ear-status').textContent = `${url} answered with an EAR; it verifies with the service's keys and carries the result's nonce.`;
    return ear;
  } catch (error) {
    $('ear-status').textContent = '';
    showError('policy-error', error);
    return null;
  }
}

export function initPolicySection(policies) {
  $('get-ear').addEventListener('click', () => fetchEar());
  // Another form asked for is another answer: the one shown no longer is the form chosen.
  $('ear-form').addEventListener('change', () => $('ear-output').replaceChildren());
  const select = $('policy-sample');
  const regoGroup = el('optgroup', { label: 'Rego (translations, and a minimum driver version)' });
  const rego = [];
  select.replaceChildren(el('option', { value: '', text: 'NVIDIA\'s examples…' }),
    el('optgroup', { label: 'JSON (nvtrust)' }, ...policies.map((p) => el('option', { value: p.id, text: p.title }))),
    regoGroup);
  // The Rego list is small JSON; the Rego module itself loads only when a Rego policy is applied.
  regoSamples().then((samples) => {
    rego.push(...samples.map((p) => ({ ...p, id: `rego:${p.id}` })));
    regoGroup.append(...rego.map((p) => el('option', { value: p.id, text: p.title })));
  }, (error) => {
    showError('policy-error', { code: 'ERR_SAMPLES', message: `The bundled Rego policies could not be loaded: ${error.message}` });
  });
  select.addEventListener('change', () => {
    const chosen = [...policies, ...rego].find((p) => p.id === select.value);
    if (chosen) $('policy-text').value = chosen.policy;
  });
  $('policy-file').addEventListener('change', async (e) => {
    const [file] = e.target.files;
    if (file) $('policy-text').value = await file.text();
  });
  $('policy-form').addEventListener('submit', (e) => {
    e.preventDefault();
    applyPolicy();
  });
  setPolicySubject(null);
}
