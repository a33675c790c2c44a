// Token API (ES384 JWS/JWT, JWKS, detached EAT): the WebCrypto backend and the public
// wrappers around the wasm core.
//
// Verification is two-phase: the core (wasm) parses, checks headers and selects keys, then
// hands out signature checks {publicKey (SEC1), message, signature (r||s)}; this module runs
// them with crypto.subtle.verify in parallel (or in wasm with the software backend) and
// feeds the verdicts back; the core then checks claims, digests and devices. Signing works
// the same way: the core builds the signing input, a CryptoKey (never in wasm memory) or a
// software key signs it, the core assembles the token.
import {
  KeySet,
  P384PrivateKey,
  P384PublicKey,
  prepareJwtVerification,
  prepareAttestationResultVerification,
  jwtSigningInput,
  assembleJws,
  signJwtSoftware,
  detachedEatSigningInput,
  assembleDetachedEat,
  createV1Result as createV1ResultText,
  verifyChecksSoftware as verifyChecksInWasm,
} from './edgeattest.js';
import { EdgeAttestError, invalidArgument as argumentError } from './error.js';
import { chooseBackend } from './backend.js';
import { ECDSA_P384, ES384, runSignatureChecks } from './webcrypto.js';

export { KeySet, P384PrivateKey, P384PublicKey };

/** The codes of verifyAttestationResult's verdict rules (the result is authentic, its verdict refused). */
const VERDICT_CODES = new Set(['ERR_ATTESTATION_FAILED', 'ERR_ATTESTATION_RESULT_MISSING', 'ERR_EAT_CLAIMS_UNREADABLE', 'ERR_REVOCATION_UNCONFIRMED']);

/**
 * verifyAttestationResult's refusal of an authentic result whose verdict is not an acceptable
 * pass: an EdgeAttestError with a verdict code, `appraisal` (why) and `result` (the verified
 * data). The errors come from wasm, so `instanceof` checks the brand, as EdgeAttestError's does.
 */
export class AttestationVerdictError extends EdgeAttestError {
  static [Symbol.hasInstance](value) {
    return EdgeAttestError[Symbol.hasInstance](value)
      && VERDICT_CODES.has(value.code)
      && typeof value.appraisal === 'object' && value.appraisal !== null;
  }
}

const subtle = globalThis.crypto?.subtle;
let defaultBackend = chooseBackend(undefined, subtle);

/** The backend used when an operation names none: 'webcrypto' where crypto.subtle exists. */
export function getTokenBackend() {
  return defaultBackend;
}

/** Sets the default backend ('webcrypto' or 'software'). */
export function setTokenBackend(backend) {
  defaultBackend = chooseBackend(backend, subtle);
}

function backendOf(options) {
  return options?.backend === undefined ? defaultBackend : chooseBackend(options.backend, subtle);
}

// ---- key sets ----------------------------------------------------------------------------

// JSON goes to wasm as UTF-8 bytes, encoded natively: the glue copies a string into wasm
// memory one character at a time in JS, which in a fresh process (before the JIT has compiled
// that loop) costs milliseconds for a real JWKS (81 KB with its x5c chains) — the larger part
// of a first verification's key-set parse. The core gets the same bytes either way: a string
// encoded as the glue would (TextEncoder; a lone surrogate becomes U+FFFD), an object
// serialised as the core would (JSON.stringify). What JSON.stringify cannot serialise goes to
// the core as it is, which refuses it as before; bytes and anything else go as they are.
const utf8 = new TextEncoder();
function asBytes(value) {
  if (typeof value === 'string') return utf8.encode(value);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer)) {
    let text;
    try {
      text = JSON.stringify(value);
    } catch {
      return value;
    }
    return typeof text === 'string' ? utf8.encode(text) : value;
  }
  return value;
}

// Parsed sets, by the object passed in (a JWKS object is typically reused for many tokens),
// with the JSON text they were parsed from: an object changed since is parsed again.
// Pass a KeySet (createKeySet) to skip even that comparison.
const keySets = new WeakMap();

/** Parses a JWKS once: pass the result to verifyJwt / verifyAttestationResult. */
export function createKeySet(jwks) {
  return jwks instanceof KeySet ? jwks : new KeySet(asBytes(jwks));
}

// Returns [keySet, owned]: owned sets are freed after use.
function keySetOf(jwks) {
  if (jwks instanceof KeySet) return [jwks, false];
  if (jwks !== null && typeof jwks === 'object' && !(jwks instanceof Uint8Array)) {
    const text = JSON.stringify(jwks);
    const cached = keySets.get(jwks);
    if (cached?.text === text) return [cached.set, false];
    cached?.set.free();
    const set = new KeySet(utf8.encode(text));
    keySets.set(jwks, { text, set });
    return [set, false];
  }
  return [new KeySet(asBytes(jwks)), true];
}

// ---- WebCrypto signature checks --------------------------------------------------------

/** Runs signature checks with crypto.subtle.verify, in parallel: one boolean per check. */
export function verifyChecksWebCrypto(checks) {
  return runSignatureChecks(checks, subtle);
}

/** Runs signature checks with the software backend (P-384 in wasm): one boolean per check. */
export function verifyChecksSoftware(checks) {
  return Array.from(verifyChecksInWasm(checks), (verdict) => verdict === 1);
}

async function complete(verification, backend) {
  try {
    if (backend === 'software') return verification.verifySoftware();
    return verification.finish(await verifyChecksWebCrypto(verification.checks()));
  } finally {
    verification.free();
  }
}

function coreOptions(options = {}) {
  if (options === null || typeof options !== 'object') throw argumentError('options', 'must be an object');
  // The JS-only members stay here; every other member goes to the core, which refuses one it
  // does not know (a misspelt option must not fall back to its default).
  const { backend: _backend, currentDate, ...core } = options;
  let now = core.now;
  if (now === undefined && currentDate !== undefined) {
    if (!(currentDate instanceof Date)) throw argumentError('currentDate', 'must be a Date');
    now = currentDate.getTime() / 1000;
  }
  if (now === undefined) now = Date.now() / 1000;
  const crit = core.crit && !Array.isArray(core.crit)
    ? Object.keys(core.crit).filter((name) => core.crit[name])
    : core.crit;
  return { ...core, now: Math.floor(now), crit };
}

// A key-set resolver (createRemoteJWKSet, or any function returning a JWKS or KeySet) is asked
// for its set; when the set holds no key for the token, it is asked once more with
// { unknownKey: true }, so that it may fetch a rotated set (its cooldown decides).
async function withResolver(resolve, verify) {
  try {
    return await verify(await resolve({}));
  } catch (error) {
    if (error?.code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
    return verify(await resolve({ unknownKey: true }));
  }
}

/**
 * Verifies a compact ES384 JWT against a JWKS (object, JSON text, KeySet, or a resolver such
 * as createRemoteJWKSet's).
 * Resolves to { payload, protectedHeader, kid }; rejects with an EdgeAttestError (code, field).
 */
export async function verifyJwt(token, jwks, options = {}) {
  if (typeof jwks === 'function') return withResolver(jwks, (keys) => verifyJwt(token, keys, options));
  const backend = backendOf(options);
  const core = coreOptions(options);
  const [keySet, owned] = keySetOf(jwks);
  try {
    return await complete(prepareJwtVerification(token, keySet, core), backend);
  } finally {
    if (owned) keySet.free();
  }
}

/**
 * Verifies an attestation result — the detached EAT [["JWT", overall], {label: token}] or the
 * V1 {"eat": token} — as JSON text, bytes or the parsed value. Every signature, every submods
 * digest, the device set, the nonce and the times are checked. The shape is never guessed:
 * options.format ('detached', the default, or 'v1') or options.endpoint (the attest path
 * called, e.g. '/v1/attest/gpu') names it, and a result of the other shape is refused
 * (ERR_EAT_FORMAT_MISMATCH). Resolves to
 * { format, overall, devices: [{ label, digest, payload, protectedHeader, kid }], overallResult,
 *   appraisal: { level, passed, overallResult, devices: [{ label, passed, reasons: [{ claim, value, message }], warnings }] } };
 * rejects with the first failure, whose `field` names the device concerned, whose
 * `verdicts` give every token's verdict (once the overall token is well formed) and whose
 * `level` places it on the verdict scale ('forged', 'wrong-nonce', 'expired'; a verdict
 * refusal's is its appraisal's: 'failed', 'passed-with-warnings').
 *
 * Authentic is not a pass: when every token verifies but the service's verdict
 * (x-nvidia-overall-att-result) is false, or a device token says it failed, it rejects with
 * ERR_ATTESTATION_FAILED; when the verdict is absent, with ERR_ATTESTATION_RESULT_MISSING.
 * Both errors carry `appraisal` (why) and `result` (the verified data). options.allowFailedResult
 * (true) resolves instead, for tools that show failures; the caller then reads appraisal.passed.
 *
 * A device token whose claims do not read as its claims version defines them (a check claim of
 * the wrong type, no verdict claim) fails with that reason: ERR_EAT_CLAIMS_UNREADABLE. A pass
 * whose certificate chains a device token does not confirm good (claims 3.0/4.0: a chain
 * object not `valid` + OCSP `good`; 1.0/2.0: a chain not validated, or the "not checked"
 * warning) rejects with ERR_REVOCATION_UNCONFIRMED unless options.allowUnknownRevocation
 * (true); the result then says `revocationRelaxed: true`. Both errors carry appraisal and
 * result too.
 */
export async function verifyAttestationResult(result, jwks, options = {}) {
  if (typeof jwks === 'function') return withResolver(jwks, (keys) => verifyAttestationResult(result, keys, options));
  const backend = backendOf(options);
  const core = coreOptions(options);
  const [keySet, owned] = keySetOf(jwks);
  try {
    return await complete(prepareAttestationResultVerification(asBytes(result), keySet, core), backend);
  } finally {
    if (owned) keySet.free();
  }
}

// ---- keys ----------------------------------------------------------------------------------

const isCryptoKey = (key) => typeof CryptoKey !== 'undefined' && key instanceof CryptoKey;

/**
 * Generates a P-384 signing key pair. backend 'webcrypto' (default where available): the
 * private key is a non-extractable CryptoKey; 'software': a P384PrivateKey in wasm memory.
 * Resolves to { privateKey, publicJwk } (publicJwk carries options.kid when given).
 */
export async function generateKeyPair(options = {}) {
  const backend = backendOf(options);
  if (backend === 'software') {
    const privateKey = P384PrivateKey.generate();
    const { d: _private, ...publicJwk } = privateKey.toJwk(options.kid);
    return { privateKey, publicJwk };
  }
  const pair = await subtle.generateKey(ECDSA_P384, options.extractable === true, ['sign', 'verify']);
  const { kty, crv, x, y } = await subtle.exportKey('jwk', pair.publicKey);
  const publicJwk = { kty, crv, ...(options.kid !== undefined && { kid: options.kid }), x, y };
  return { privateKey: pair.privateKey, publicJwk };
}

/**
 * Imports a P-384 private key from a JWK (object or JSON text with d) or PKCS#8 PEM text.
 * backend 'webcrypto': a non-extractable CryptoKey (unless options.extractable);
 * 'software': a P384PrivateKey. The key is validated by the core either way.
 */
export async function importPrivateKey(input, options = {}) {
  const backend = backendOf(options);
  // The core's one reading of a key's format, as a service reads its signingKey
  // (service.js imports through here).
  const key = P384PrivateKey.fromText(input);
  if (backend === 'software') return key;
  try {
    return await subtle.importKey('pkcs8', key.toPkcs8Der(), ECDSA_P384, options.extractable === true, ['sign']);
  } finally {
    key.free();
  }
}

/** Imports a P-384 public key from a JWK (object or JSON text), SPKI PEM text or SEC1 bytes. */
export function importPublicKey(input) {
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) return P384PublicKey.fromSec1(input);
  return P384PublicKey.fromText(input); // the core's one reading of key text
}

/**
 * Exports a key as a JWK: a P384PrivateKey (with d), a P384PublicKey, or a public CryptoKey
 * (or an extractable private one).
 */
export async function exportJwk(key, options = {}) {
  if (key instanceof P384PrivateKey || key instanceof P384PublicKey) return key.toJwk(options.kid);
  if (isCryptoKey(key)) {
    const { kty, crv, x, y, d } = await subtle.exportKey('jwk', key);
    P384PublicKey.fromJwk({ kty, crv, x, y }).free(); // throws unless a P-384 point
    return { kty, crv, ...(options.kid !== undefined && { kid: options.kid }), x, y, ...(d !== undefined && { d }) };
  }
  throw argumentError('key', 'must be a P384PrivateKey, a P384PublicKey or a CryptoKey');
}

/** SPKI PEM text of a public key (P384PublicKey, P384PrivateKey or public CryptoKey). */
export async function exportSpki(key) {
  if (key instanceof P384PublicKey) return key.toSpkiPem();
  let owned;
  if (key instanceof P384PrivateKey) owned = key.publicKey();
  else if (isCryptoKey(key)) owned = P384PublicKey.fromSec1(new Uint8Array(await subtle.exportKey('raw', key)));
  if (owned) {
    try {
      return owned.toSpkiPem();
    } finally {
      owned.free();
    }
  }
  throw argumentError('key', 'must be a P384PublicKey, a P384PrivateKey or a public CryptoKey');
}

/** PKCS#8 PEM text of a software private key. */
export function exportPkcs8(key) {
  if (key instanceof P384PrivateKey) return key.toPkcs8Pem();
  throw argumentError('key', 'must be a P384PrivateKey (CryptoKeys made here are not extractable)');
}

/**
 * A JWKS object from [{ kid, key (JWK, P384PublicKey or P384PrivateKey), x5c? }], validated
 * by the core (P-384 points, distinct kids), in the member order of the real service.
 */
export function createJwks(entries) {
  if (!Array.isArray(entries)) throw argumentError('entries', 'must be an array');
  const keys = entries.map(({ kid, key, x5c }, i) => {
    let jwk;
    if (key instanceof P384PublicKey) jwk = key.toJwk(kid);
    else if (key instanceof P384PrivateKey) {
      const { d: _private, ...publicJwk } = key.toJwk(kid);
      jwk = publicJwk;
    }
    else jwk = { ...key, kid };
    const { kty, crv, x, y } = jwk;
    if (jwk.d !== undefined) throw argumentError(`entries[${i}].key`, 'must be a public key');
    return { kty, crv, kid, ...(x5c !== undefined && { x5c }), x, y };
  });
  const set = new KeySet({ keys });
  try {
    return set.toJSON();
  } finally {
    set.free();
  }
}

// ---- minting -------------------------------------------------------------------------------

function kidOf(options) {
  if (typeof options?.kid !== 'string') throw argumentError('kid', 'must be a string (the JWKS key id)');
  return options.kid;
}

async function signInput(input, key) {
  if (isCryptoKey(key)) {
    const signature = await subtle.sign(ES384, key, new TextEncoder().encode(input));
    return new Uint8Array(signature);
  }
  if (key instanceof P384PrivateKey) return key.sign(new TextEncoder().encode(input));
  throw argumentError('key', 'must be a CryptoKey (ECDSA P-384) or a P384PrivateKey');
}

/**
 * Mints a compact ES384 JWT with header {"kid":…,"alg":"ES384"}: with a CryptoKey through
 * WebCrypto, with a P384PrivateKey in wasm (deterministic, low S). options.kid is required.
 */
export async function signJwt(claims, key, options = {}) {
  const kid = kidOf(options);
  if (key instanceof P384PrivateKey) return signJwtSoftware(claims, key, kid);
  const input = jwtSigningInput(claims, kid);
  return assembleJws(input, await signInput(input, key));
}

/**
 * Mints a detached EAT result: devices maps each label to a claims object (signed here) or an
 * already minted token; the overall token gets `submods` digests of the device tokens.
 * Resolves to the result value [["JWT", overall], {label: token}] (JSON.stringify to send).
 */
export async function createDetachedEat(overallClaims, devices, key, options = {}) {
  const kid = kidOf(options);
  const entries = Array.isArray(devices) ? devices : Object.entries(devices ?? {});
  const pairs = await Promise.all(
    entries.map(async ([label, device]) => [
      label,
      typeof device === 'string' ? device : await signJwt(device, key, { kid }),
    ]),
  );
  const input = detachedEatSigningInput(overallClaims, pairs, kid);
  return JSON.parse(assembleDetachedEat(input, await signInput(input, key), pairs));
}

/** The V1 result { eat: token }. */
export function createV1Result(token) {
  return JSON.parse(createV1ResultText(token));
}
