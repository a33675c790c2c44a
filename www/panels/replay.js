// Panel 2c: a replay bundle (an attestation answered with `x-edgeattest-replay: bundle`)
// loaded from a file and replayed here, offline, by the wasm core (replayAttestation); this
// module lays out the recorded verdict beside the replayed one and every difference. It
// decides nothing: the core compares, and a verdict that failed or a replay that differs is
// red.
import { replayAttestation } from '../pkg/service/index.js';
import { $, el, badge, table, showError } from './ui.js';

/** A token's verdict claim: the overall result, a device's, or an EAR's status. */
function tokenVerdict(token) {
  const claims = token.claims;
  if (typeof claims['x-nvidia-overall-att-result'] === 'boolean') return claims['x-nvidia-overall-att-result'];
  const ear = claims.submods && Object.values(claims.submods).every((s) => s?.['ear.status'] === 'affirming');
  if (token.label === 'ear') return Boolean(ear);
  const passed = claims['x-nvidia-gpu-attestation-report-signature-verified'] ?? claims.measres;
  return passed === true || passed === 'success';
}

/** A verdict's badge: never green for an error answer or a failed attestation. */
function verdictBadge(verdict) {
  if (verdict.status !== 200 || !verdict.tokens.length) return badge('fail', `HTTP ${verdict.status}: no tokens`);
  const overall = verdict.tokens[0];
  return tokenVerdict(overall) ? badge('pass', 'attestation passed') : badge('fail', 'attestation failed');
}

const differenceText = (d) => {
  switch (d.kind) {
    case 'inputDigest': return `input ${d.input} does not match its recorded digest`;
    case 'anchors': return `the ${d.which} trust anchors are not the ones the verdict was made with`;
    case 'fetch': return `fetch ${d.index}: the replay asked for ${d.asked}; the recorded answer is for ${d.recorded}`;
    case 'fetchCount': return `the replay asked for ${d.asked} resources; ${d.recorded} answers were recorded`;
    case 'status': return `status ${d.replayed}, recorded ${d.recorded}`;
    case 'tokens': return `tokens ${d.replayed.join(', ')}, recorded ${d.recorded.join(', ')}`;
    case 'claim': return `${d.token}: claim ${d.claim} is ${d.replayed ?? 'absent'}, recorded ${d.recorded ?? 'absent'}`;
    case 'claimOrder': return `${d.token}: the claims are in another order`;
    default: return 'the response body differs';
  }
};

/** Lays out a replay: the two verdicts side by side, token by token, then the differences. */
export function showReplay(replayed) {
  const out = $('replay-output');
  out.hidden = false;
  const summary = $('replay-verdict');
  // Green only for a replay that matches a passed attestation: a failed verdict stays red
  // however faithfully it replays.
  const passed = replayed.recorded.status === 200 && replayed.recorded.tokens.length > 0
    && tokenVerdict(replayed.recorded.tokens[0]) && replayed.replayed.tokens.length > 0 && tokenVerdict(replayed.replayed.tokens[0]);
  const good = replayed.matches && passed;
  summary.className = `summary ${good ? 'good' : 'bad'}`;
  summary.setAttribute('role', good ? 'status' : 'alert');
  summary.dataset.matches = String(replayed.matches);
  summary.dataset.passed = String(passed);
  summary.replaceChildren(
    el('p', {}, replayed.matches
      ? badge('pass', 'replay matches')
      : badge('fail', 'replay differs'),
    ' ', replayed.matches
      ? 'Every input has its recorded digest and the replayed claims are the recorded ones.'
      : `${replayed.differences.length} difference(s): the recorded verdict is not what its inputs give.`),
    el('p', {}, 'Recorded: ', verdictBadge(replayed.recorded), ' Replayed: ', verdictBadge(replayed.replayed)),
  );
  const labels = [...new Set([...replayed.recorded.tokens, ...replayed.replayed.tokens].map((t) => t.label))];
  const find = (verdict, label) => verdict.tokens.find((t) => t.label === label);
  const cell = (token) => (token ? (tokenVerdict(token) ? badge('pass') : badge('fail')) : badge('fail', 'absent'));
  $('replay-tokens').replaceChildren(table('Recorded and replayed verdicts, per token', ['Token', 'Recorded', 'Replayed'],
    labels.map((label) => [label, cell(find(replayed.recorded, label)), cell(find(replayed.replayed, label))]), 'stack'));
  $('replay-differences').replaceChildren(replayed.differences.length
    ? table('Differences', ['Kind', 'Explanation'], replayed.differences.map((d) => ({ cells: [d.kind, differenceText(d)], class: 'failed' })), 'stack')
    : el('p', { class: 'hint', text: 'No difference.' }));
}

export function initReplayPanel() {
  const input = $('replay-file');
  input.addEventListener('change', async () => {
    showError('replay-error', null);
    $('replay-output').hidden = true;
    const file = input.files?.[0];
    if (!file) return;
    try {
      const text = await file.text();
      const anchors = {};
      const deviceRoots = $('replay-device-roots').value.trim();
      const rimRoots = $('replay-rim-roots').value.trim();
      if (deviceRoots) anchors.trustAnchors = deviceRoots;
      if (rimRoots) anchors.rimTrustAnchors = rimRoots;
      showReplay(replayAttestation(text, anchors));
    } catch (error) {
      showError('replay-error', error);
    }
  });
}
