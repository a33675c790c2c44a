// Panel 2's last part: the claims the attestation service would issue for the evidence —
// computed by the service's own code (AttestationService, the same the worker runs) inside
// this page, with the RIMs the user chose. Its tokens are signed by a throwaway key made
// here: only the claims are shown, with the core's appraisal of them (which claims failed
// the device, and why), had by verifying the answer against the service's own JWKS.
import {
  AttestationService, buildAttestRequest, generateKeyPair, exportPkcs8, verifyAttestationResult,
} from '../pkg/service/index.js';
import {
  el, badge, table, claimCell, levelBadge, levelOf, EVIDENCE_LEVEL,
} from './ui.js';
import { v4Endpoint } from './arch.js';

let pageKey = null; // PKCS#8 PEM of a throwaway key, made once per page load

/**
 * Runs the attestation service's own request handling in this page — the same code the
 * worker runs — on this evidence with the chosen RIMs, and returns the device token's claims
 * (signed by a throwaway key: only the claims matter here).
 */
export async function serviceClaims({ evidence, encoding, certificate, nonce, arch, now, rims }) {
  if (!pageKey) {
    const { privateKey } = await generateKeyPair({ backend: 'software' });
    pageKey = exportPkcs8(privateKey);
    privateKey.free();
  }
  // No responder: this in-page service does no I/O, so its tokens say revocation was not
  // checked (with a responder, an unanswered query would fail the device); the page checks
  // revocation itself, in its own step.
  const service = new AttestationService({ signingKey: pageKey, kid: 'this-page', issuer: location.origin, ocspUrl: null });
  try {
    for (const rim of rims) service.addRim(rim.title, rim.xml);
    const endpoint = v4Endpoint(arch); // the table's: /v4/attest/gpu or /v4/attest/switch
    // The package writes the evidence in the endpoint's encoding, whatever it came in.
    const body = buildAttestRequest({ endpoint, nonce, arch, evidenceEncoding: encoding, evidence: [{ evidence, certificate }] });
    const request = { method: 'POST', path: endpoint, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const missing = service.missingRims(request);
    const response = service.handle(request, now);
    const text = new TextDecoder().decode(response.body);
    const answer = JSON.parse(text);
    if (response.status !== 200) return { status: response.status, error: answer, missing };
    const jwks = service.handle({ method: 'GET', path: '/.well-known/jwks.json', headers: {} }, now);
    // The signer is this page's own key, made above and never published: nothing to pin.
    const verified = await verifyAttestationResult(text, new TextDecoder().decode(jwks.body), {
      now, nonce, allowFailedResult: true, allowUnknownRevocation: true, signers: 'any',
    });
    const [device] = verified.devices;
    return {
      status: 200,
      label: device.label,
      claims: device.payload,
      overallResult: verified.overallResult,
      appraisal: verified.appraisal,
      missing,
    };
  } finally {
    service.free();
  }
}

/** Claim name → the appraisal's messages about it, for the one device. */
function appraisalFlags(appraisal) {
  const flags = new Map();
  for (const device of appraisal?.devices ?? []) {
    for (const r of device.reasons ?? []) {
      const name = r.claim.split(/[.[]/)[0];
      flags.set(name, [...(flags.get(name) ?? []), r.message]);
    }
  }
  return flags;
}

/**
 * Whether the service's answer and the core's report (the evidence panel) agree. The core
 * says what the service should answer (`passesWithoutRevocation`: the service run here asks
 * no OCSP responder); a revocation failure the page found is said, not hidden.
 */
export function agreementView(report, serviceResult) {
  if (!report) return null;
  const agree = report.passesWithoutRevocation === serviceResult;
  const revocationFailed = report.failures.some((f) => f.stage === 'revocation');
  const words = `the evidence panel's verdict is ${report.verdict}; the service's overall result is ${serviceResult}`;
  // The box has the colour of what both say: agreeing on a failure is still a failure.
  const level = agree ? (EVIDENCE_LEVEL[report.verdict] ?? 'failed') : 'failed';
  return el('p', { id: 'service-agreement', class: `summary ${levelOf(level).tone}`, 'data-level': level },
    agree ? badge('info', 'agree') : badge('fail', 'disagree'),
    agree ? ` The service and the evidence panel agree: ${words}.` : ` The service and the evidence panel DISAGREE: ${words}. This is a defect; please report it.`,
    revocationFailed ? ' The service run in this page does not check revocation; the page did, and it fails the device.' : '');
}

export function serviceClaimsView(outcome, claimsNote, report) {
  if (outcome.error) {
    const e = outcome.error.error ?? outcome.error;
    return el('div', {},
      el('p', { class: 'summary bad' }, badge('fail', `${outcome.status}`), ` The service would refuse this request: ${e.code ?? ''} ${e.message ?? JSON.stringify(e)}`),
      agreementView(report, false));
  }
  const flags = appraisalFlags(outcome.appraisal);
  const rows = Object.entries(outcome.claims).map(([name, value]) => {
    const messages = flags.get(name) ?? [];
    return {
      class: messages.length ? 'failed' : undefined,
      cells: [name, [claimCell(name, value), messages.length ? el('div', { class: 'why' }, ...messages.map((m) => el('div', {}, badge('fail', 'why'), ` ${m}`))) : '']],
    };
  });
  rows.sort((a, b) => (b.class ? 1 : 0) - (a.class ? 1 : 0));
  const verdict = outcome.overallResult === true;
  // The core's level of the service's answer: a pass with warnings is amber, with them listed.
  const level = outcome.appraisal?.level ?? (verdict ? 'passed' : 'failed');
  const warnings = [...new Set((outcome.appraisal?.devices ?? []).flatMap((d) => d.warnings ?? []))];
  const reasons = [...new Set([...flags.values()].flat())];
  return el('div', {},
    el('h3', { text: `Claims the service would issue for ${outcome.label}` }),
    el('p', { class: 'hint' }, claimsNote,
      outcome.missing.length ? ` RIMs it would have to fetch: ${outcome.missing.join(', ')}.` : ''),
    el('div', { id: 'service-verdict', class: `summary ${levelOf(level).tone}`, 'data-level': level },
      el('p', {}, 'Overall result the service would give: ', levelBadge(level, verdict ? 'true' : 'false'),
        level === 'passed-with-warnings' ? ` (${levelOf(level).words})` : ''),
      reasons.length ? el('ul', { class: 'reasons' }, reasons.map((m) => el('li', { text: m }))) : null,
      level === 'passed-with-warnings' && warnings.length
        ? el('ul', { class: 'warnings', 'aria-label': 'Warnings' }, warnings.map((m) => el('li', { text: m }))) : null),
    agreementView(report, verdict),
    el('div', { class: 'table-wrap claims' }, table(`Claims for ${outcome.label}`, ['Claim', 'Value'], rows)));
}
