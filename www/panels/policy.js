// Panel 1's policy section: a relying-party policy (NVIDIA's JSON format; nvtrust's examples
// are bundled) applied to the result the panel verified last. The wasm core's `appraise`
// decides every rule; this module only lays out its decision: the verdict first, then each
// scope's rules with the claim's value, each marked pass or fail in words.
import { appraise } from '../pkg/service/index.js';
import { $, el, badge, table, showError, claimText } from './ui.js';

let subject = null;

/** The verified data (verifyAttestationResult's) the policy applies to; null: none yet. */
export function setPolicySubject(verified) {
  subject = verified;
  $('policy-output').replaceChildren();
  showError('policy-error', null);
  $('apply-policy').disabled = !verified;
  $('policy-status').textContent = verified
    ? `Applies to the ${verified.format} result verified above (${verified.devices.length || 1} device${verified.devices.length === 1 ? '' : 's'}).`
    : 'Verify a result above first; the policy applies to it.';
}

const STATUS_WORDS = { pass: 'pass', mismatch: 'fail: differs', missing: 'fail: missing' };

function rulesTable(caption, rules) {
  return table(caption, ['claim', 'expected', 'found', 'rule'], rules.map((rule) => ({
    class: rule.status === 'pass' ? 'ok' : 'bad',
    cells: [
      el('code', { text: rule.path }),
      el('code', { text: claimText(rule.expected) }),
      'found' in rule ? el('code', { text: claimText(rule.found) }) : el('span', { class: 'muted', text: 'absent' }),
      badge(rule.status === 'pass' ? 'pass' : 'fail', STATUS_WORDS[rule.status] ?? rule.status),
    ],
  })), 'stack');
}

/** Applies the policy in the text box to the verified result; renders the decision. */
export function applyPolicy() {
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
  try {
    decision = appraise(subject, text);
  } catch (error) {
    showError('policy-error', error);
    return null;
  }
  const failed = [...decision.overall, ...decision.devices.flatMap((d) => d.rules)].filter((r) => r.status !== 'pass').length;
  const devicesFailed = decision.devices.filter((d) => !d.passed).map((d) => d.label);
  const verdict = el('p', { class: 'verdict-line', id: 'policy-verdict' },
    badge(decision.passed ? 'pass' : 'fail', decision.passed ? 'policy met' : 'policy NOT met'),
    decision.passed
      ? ` Every rule of this version ${decision.version} policy holds, for the overall token and every device.`
      : ` ${failed} rule${failed === 1 ? '' : 's'} failed${devicesFailed.length ? ` (devices: ${devicesFailed.join(', ')})` : ''}.`
        + ' By this policy, do not rely on these devices.');
  const parts = [verdict];
  if (decision.overall.length) parts.push(rulesTable('Overall token', decision.overall));
  for (const device of decision.devices) {
    parts.push(rulesTable(`${device.label}: ${device.passed ? 'met' : 'not met'}`, device.rules));
  }
  $('policy-output').replaceChildren(el('div', { class: `summary ${decision.passed ? 'good' : 'bad'}`, role: 'status' }, ...parts));
  return decision;
}

export function initPolicySection(policies) {
  const select = $('policy-sample');
  select.replaceChildren(el('option', { value: '', text: 'NVIDIA\'s examples…' }),
    ...policies.map((p) => el('option', { value: p.id, text: p.title })));
  select.addEventListener('change', () => {
    const chosen = policies.find((p) => p.id === select.value);
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
