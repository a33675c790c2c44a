// Panel 1: verify an attestation result (V2–V4 detached EAT or V1 {"eat"}) against a JWKS.
// The wasm core decides every check; this module only collects the inputs and lays out the
// per-token verdicts it returns (on success, or on the error's `verdicts` on failure).
import { verifyAttestationResult } from '../pkg/index.js';
import {
  $, el, badge, table, showError, timeControl, fromInputValue, setTime, isoSeconds,
  dropZone, claimText,
} from './ui.js';

// Where a failure code belongs: the core checks a token in this order — its binding in the
// overall token's submods, then the signature (key selection included), then the claims
// (issuer and audience, then the times, then the nonce).
const STAGES = ['digest', 'signature', 'claims', 'time', 'nonce'];
const DIGEST_CODES = new Set([
  'ERR_EAT_DIGEST_MISMATCH', 'ERR_EAT_DEVICE_UNEXPECTED', 'ERR_EAT_DEVICE_MISSING',
]);
const TIME_FIELDS = new Set(['exp', 'nbf', 'iat']);

const REASONS = {
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the signature does not verify with the key of its kid',
  ERR_JWKS_NO_MATCHING_KEY: 'no key of the JWKS has this kid',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'several JWKS keys match this kid',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the algorithm is not ES384',
  ERR_JWS_INVALID: 'the token is not a well-formed compact JWS',
  ERR_JWS_INVALID_BASE64: 'a token part is not base64url',
  ERR_JWS_SIGNATURE_MALFORMED: 'the signature is not a 96-byte P-384 signature',
  ERR_JWS_UNSECURED: 'the token is unsigned (alg none)',
  ERR_JWT_INVALID: 'the payload is not a JSON object of claims',
  ERR_JWT_EXPIRED: 'expired at the time of the check',
  ERR_JWT_CLAIM_VALIDATION_FAILED: 'a claim failed its check',
  ERR_JWT_CLAIM_VALIDATION_FAILED_iss: 'iss is not the expected issuer',
  ERR_EAT_NONCE_MISMATCH: 'eat_nonce is not the expected nonce',
  ERR_EAT_DIGEST_MISMATCH: 'the token\'s SHA-256 digest differs from the one in submods',
  ERR_EAT_DEVICE_UNEXPECTED: 'the overall token\'s submods do not name this device',
  ERR_EAT_DEVICE_MISSING: 'submods names this device but the result has no token for it',
};

function stageOf(code, field) {
  if (DIGEST_CODES.has(code)) return 'digest';
  if (code === 'ERR_JWT_EXPIRED') return 'time';
  if (code === 'ERR_EAT_NONCE_MISMATCH' || field === 'eat_nonce') return 'nonce';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return TIME_FIELDS.has(field) ? 'time' : 'claims';
  return 'signature';
}

function reason(code, field) {
  const text = REASONS[`${code}_${field}`] ?? REASONS[code] ?? 'failed';
  return field && !text.includes(field) ? `${text} (${field})` : text;
}

// Display only: the header and payload of a compact JWS, decoded without trusting them.
function decodePart(part) {
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

function decodeToken(token) {
  const [header, payload] = typeof token === 'string' ? token.split('.') : [];
  return { header: header ? decodePart(header) : null, payload: payload ? decodePart(payload) : null };
}

/** The tokens of a result as pasted: [{label, token}] with the overall token first (label null). */
function tokensOf(value) {
  if (Array.isArray(value) && Array.isArray(value[0])) {
    const devices = value[1] && typeof value[1] === 'object' ? Object.entries(value[1]) : [];
    return [{ label: null, token: value[0][1] }, ...devices.map(([label, token]) => ({ label, token }))];
  }
  if (value && typeof value === 'object' && typeof value.eat === 'string') return [{ label: null, token: value.eat }];
  return [];
}

function parseResult(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the core reports the syntax error with its code
  }
}

// One row per token: [label, digest, signature, claims, time, nonce] cells.
function tokenRow(verdict, token, context) {
  const { header, payload: decoded } = decodeToken(token);
  const payload = verdict.payload ?? decoded;
  const failedStage = verdict.verified ? null : stageOf(verdict.code, verdict.field);
  const failedAt = failedStage ? STAGES.indexOf(failedStage) : STAGES.length;
  const cell = (stage, passText, skipText = 'not reached') => {
    const i = STAGES.indexOf(stage);
    if (i < failedAt) return [badge('pass'), passText ? ` ${passText}` : ''];
    if (i === failedAt) return [badge('fail'), ` ${verdict.code}: ${reason(verdict.code, verdict.field)}`];
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
  return {
    class: verdict.verified ? undefined : 'failed',
    cells: [
      verdict.label ?? 'Overall',
      digest,
      cell('signature', kid),
      cell('claims', context.issuer ? `iss ${payload?.iss ?? ''}` : 'no issuer required'),
      cell('time', times),
      nonce,
      verdict.verified ? badge('pass', 'verified') : badge('fail', 'failed'),
    ],
  };
}

// A claim is highlighted when it reports a failure: false, "fail…", a certificate chain that
// is not valid, or error details.
export function claimFailed(name, value) {
  if (value === false) return true;
  // A certificate-chain claim whose status is anything but valid.
  if (value && typeof value === 'object' && 'x-nvidia-cert-status' in value) return value['x-nvidia-cert-status'] !== 'valid';
  if (typeof value === 'string' && /^(fail|false|invalid|expired|revoked|mismatch)/i.test(value)) return true;
  return /error/i.test(name) && value !== null && value !== undefined;
}

// One collapsible table per token, open when the token failed or a claim reports a failure.
function claimsTable(title, payload, verified) {
  const rows = Object.entries(payload ?? {}).map(([name, value]) => ({
    class: claimFailed(name, value) ? 'failed' : undefined,
    cells: [name, el('span', { class: 'claim', text: claimText(value) })],
  }));
  const flagged = rows.filter((r) => r.class).length;
  const heading = `${title}${verified ? '' : ' — not verified, shown as decoded'}`;
  return el('details', { class: 'claims', open: !verified || flagged > 0 },
    el('summary', {}, `${heading}: ${rows.length} claims`,
      flagged ? [' — ', badge('fail', `${flagged} flagged`)] : ''),
    el('div', { class: 'table-wrap' }, table(heading, ['Claim', 'Value'], rows)));
}

function render(verdicts, tokens, context, summary) {
  const byLabel = new Map(tokens.map((t) => [t.label, t.token]));
  $('result-summary').replaceChildren(...summary);
  $('result-summary').hidden = false;
  $('result-tokens').replaceChildren(table(
    'Every token of the result',
    ['Token', 'Submods digest', 'Signature', 'Issuer', 'Time', 'Nonce', 'Verdict'],
    verdicts.map((v) => tokenRow(v, byLabel.get(v.label), context)),
    'stack',
  ));
  $('result-claims').replaceChildren(
    el('h3', { text: 'Claims' }),
    ...verdicts.map((v) => claimsTable(
      v.label ? `Device ${v.label}` : 'Overall token',
      v.payload ?? decodeToken(byLabel.get(v.label)).payload,
      v.verified,
    )),
  );
}

function clear() {
  showError('result-error', null);
  $('result-summary').hidden = true;
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

/** Runs the verification with the panel's inputs; resolves to true when every token passed. */
export async function verifyResult() {
  clear();
  const text = $('result-text').value.trim();
  const jwks = $('jwks-text').value.trim();
  if (!text) {
    showError('result-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Paste an attestation result first.', field: 'result' });
    return false;
  }
  if (!jwks) {
    showError('result-error', { code: 'ERR_INVALID_ARGUMENT', message: 'Give the JWKS: paste it or fetch it from the service URL.', field: 'jwks' });
    return false;
  }
  let now;
  try {
    now = fromInputValue($('result-time'));
  } catch (error) {
    showError('result-error', error);
    return false;
  }
  const nonce = $('result-nonce').value.trim() || undefined;
  const issuer = $('result-issuer').value.trim() || undefined;
  const context = { nonce, issuer };
  const tokens = tokensOf(parseResult(text));
  const at = `at ${isoSeconds(now)}`;
  try {
    // The shape is the one the endpoint called answers with, never guessed from the text.
    const format = $('result-format').value;
    const verified = await verifyAttestationResult(text, jwks, { now, nonce, issuer, format, allowFailedResult: true });
    const verdicts = [
      { label: null, verified: true, code: null, field: null, digest: null, payload: verified.overall.payload },
      ...verified.devices.map((d) => ({ label: d.label, verified: true, code: null, field: null, digest: d.digest, payload: d.payload })),
    ];
    const overall = verified.overallResult;
    render(verdicts, tokens, context, [
      badge('pass', 'verified'),
      ` Every signature, digest, time${nonce ? ' and the nonce' : ''} checked ${at} (${verified.format} result, ${verified.devices.length} device${verified.devices.length === 1 ? '' : 's'}).`,
      overall === null ? '' : [' The service\'s overall verdict: ', overall ? badge('pass', 'true') : badge('fail', 'false'), '.'],
    ].flat());
    $('result-summary').className = `summary ${overall === false ? 'warn' : 'good'}`;
    return true;
  } catch (error) {
    if (Array.isArray(error.verdicts)) {
      render(error.verdicts, tokens, context, [
        badge('fail', 'not verified'),
        ` ${error.code}: ${error.message}`,
        error.field ? ` (field: ${error.field})` : '',
        ` — checked ${at}.`,
      ]);
      $('result-summary').className = 'summary bad';
    } else {
      showError('result-error', error);
    }
    return false;
  }
}

export function initResultPanel() {
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
  $('result-file').addEventListener('change', (e) => readFiles(e.target.files));
  dropZone($('result'), readFiles);
  $('result-form').addEventListener('submit', (e) => {
    e.preventDefault();
    verifyResult();
  });
  $('verify-result').disabled = false;
}
