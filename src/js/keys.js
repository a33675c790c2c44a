// Signing keys and minting (ES384 JWT, detached EAT), with a WebCrypto CryptoKey or a software
// key in wasm: the core builds the signing input, the key signs it (a CryptoKey never enters
// wasm memory), the core assembles the token. Verification is token.js's.
import {
  KeySet,
  P384PrivateKey,
  P384PublicKey,
  jwtSigningInput,
  assembleJws,
  signJwtSoftware,
  detachedEatSigningInput,
  assembleDetachedEat,
  createV1Result as createV1ResultText,
} from './edgeattest.js';
import { invalidArgument as argumentError } from './error.js';
import { tokenBackendOf as backendOf } from './backend.js';
import { ECDSA_P384, ES384 } from './webcrypto.js';

/**
 * @import { P384Jwk } from './edgeattest.js'
 * @import { TokenBackend } from './token.js'
 */

/**
 * @typedef {object} SignOptions
 * @property {string} kid The key id written in the header (required).
 */

/** @typedef {CryptoKey | P384PrivateKey} SigningKeyInput */

const subtle = globalThis.crypto?.subtle;

const isCryptoKey = (key) => typeof CryptoKey !== 'undefined' && key instanceof CryptoKey;

/**
 * A new P-384 signing key and its public JWK (WebCrypto by default; `extractable` false unless
 * asked).
 *
 * @param {{ backend?: TokenBackend; kid?: string; extractable?: boolean }} [options]
 * @returns {Promise<{ privateKey: SigningKeyInput; publicJwk: P384Jwk }>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for an unknown backend,
 * `ERR_NO_RANDOMNESS` (software backend) when the host has no randomness.
 *
 * @example
 * ```ts
 * const { privateKey, publicJwk } = await generateKeyPair({ kid: 'key-1' });
 * const jwks = createJwks([{ kid: 'key-1', key: publicJwk }]);
 * ```
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
 * A signing key from PKCS#8 PEM or a private JWK (P-384 only).
 *
 * @param {string | P384Jwk | object} input
 * @param {{ backend?: TokenBackend; extractable?: boolean }} [options]
 * @returns {Promise<SigningKeyInput>}
 * @throws EdgeAttestError (as a rejection) `ERR_JWK_*` (e.g. `ERR_JWK_UNSUPPORTED`,
 * `ERR_JWK_KEY_MISMATCH`), `ERR_KEY_*` (e.g. `ERR_KEY_ENCODING_INVALID`) for a key that does
 * not read.
 *
 * @example
 * ```ts
 * declare const pkcs8Pem: string; // -----BEGIN PRIVATE KEY----- …
 * const key = await importPrivateKey(pkcs8Pem);
 * const token = await signJwt({ sub: 'device-1' }, key, { kid: 'key-1' });
 * ```
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

/**
 * A public key from SPKI (PEM, DER) or a public JWK (P-384 only).
 *
 * @param {string | object | Uint8Array | ArrayBuffer} input
 * @returns {P384PublicKey}
 * @throws EdgeAttestError `ERR_JWK_*` (e.g. `ERR_JWK_INVALID`), `ERR_KEY_*` (e.g.
 * `ERR_KEY_NOT_ON_CURVE`) for a key that does not read.
 *
 * @example
 * ```ts
 * declare const spkiPem: string; // -----BEGIN PUBLIC KEY----- …
 * const key = importPublicKey(spkiPem);
 * const jwk = await exportJwk(key, { kid: 'key-1' });
 * ```
 */
export function importPublicKey(input) {
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) return P384PublicKey.fromSec1(input);
  return P384PublicKey.fromText(input); // the core's one reading of key text
}

/**
 * The public JWK of a key (with `kid` when given); never the private part.
 *
 * @param {P384PrivateKey | P384PublicKey | CryptoKey} key
 * @param {{ kid?: string }} [options]
 * @returns {Promise<P384Jwk>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a key of another kind.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const jwk = await exportJwk(privateKey, { kid: 'key-1' }); // { kty: 'EC', crv: 'P-384', x, y, kid }
 * ```
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

/**
 * The SPKI PEM of a key's public part.
 *
 * @param {P384PrivateKey | P384PublicKey | CryptoKey} key
 * @returns {Promise<string>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a key of another kind.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const pem = await exportSpki(privateKey); // -----BEGIN PUBLIC KEY----- …
 * ```
 */
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

/**
 * The PKCS#8 PEM of a software private key (a WebCrypto key exports through `crypto.subtle`).
 * The PEM is the secret key: store it as one.
 *
 * @param {P384PrivateKey} key
 * @returns {string}
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a key that is not a `P384PrivateKey`.
 *
 * @example
 * ```ts
 * const pem = exportPkcs8(P384PrivateKey.generate());
 * ```
 */
export function exportPkcs8(key) {
  if (key instanceof P384PrivateKey) return key.toPkcs8Pem();
  throw argumentError('key', 'must be a P384PrivateKey (CryptoKeys made here are not extractable)');
}

/**
 * A JWKS from public keys and their ids (and `x5c` chains), as a service publishes it.
 *
 * @param {{ kid: string; key: P384Jwk | object | P384PublicKey | P384PrivateKey; x5c?: string[] }[]} entries
 * @returns {{ keys: P384Jwk[] }}
 * @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for entries that are not an array, a key
 * that is private or of another kind; `ERR_JWK_*` for a JWK that does not read.
 *
 * @example
 * ```ts
 * const { publicJwk } = await generateKeyPair({ kid: 'key-1' });
 * const body = JSON.stringify(createJwks([{ kid: 'key-1', key: publicJwk }])); // serve at /.well-known/jwks.json
 * ```
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

// `options` is required: a missing one is refused here, as one without `kid`.
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
 * An ES384 JWT of `claims`, signed with `key`, its header naming `options.kid`.
 *
 * @param {Record<string, unknown>} claims
 * @param {SigningKeyInput} key
 * @param {SignOptions} options
 * @returns {Promise<string>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a missing `kid` or a key
 * that is not a P-384 signing key.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const token = await signJwt({ iss: 'https://attest.example.com', iat: Math.floor(Date.now() / 1000) }, privateKey, { kid: 'key-1' });
 * ```
 */
export async function signJwt(claims, key, options) {
  const kid = kidOf(options);
  if (key instanceof P384PrivateKey) return signJwtSoftware(claims, key, kid);
  const input = jwtSigningInput(claims, kid);
  return assembleJws(input, await signInput(input, key));
}

/**
 * A detached EAT as NRAS answers V2–V4: the overall token (its `submods` holding each device
 * token's digest) and the device tokens by label, all signed with `key`. For services and
 * tests that answer as NRAS does.
 *
 * @param {Record<string, unknown>} overallClaims
 * @param {Record<string, Record<string, unknown> | string> | [string, Record<string, unknown> | string][]} devices
 * @param {SigningKeyInput} key
 * @param {SignOptions} options
 * @returns {Promise<[["JWT", string], Record<string, string>]>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for a missing `kid`, a key
 * that is not a P-384 signing key, or devices of the wrong shape.
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const nonce = generateNonce();
 * const result = await createDetachedEat(
 *   { iss: 'https://attest.example.com', eat_nonce: nonce, 'x-nvidia-overall-att-result': true },
 *   { 'GPU-0': { measres: 'success' } },
 *   privateKey,
 *   { kid: 'key-1' },
 * );
 * ```
 */
export async function createDetachedEat(overallClaims, devices, key, options) {
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

/**
 * A V1 answer (`{"eat": token}`) around one token, as NRAS's `/v1/attest/gpu` answers.
 *
 * @param {string} token
 * @returns {{ eat: string }}
 *
 * @example
 * ```ts
 * const { privateKey } = await generateKeyPair();
 * const body = createV1Result(await signJwt({ 'x-nvidia-overall-att-result': true }, privateKey, { kid: 'key-1' }));
 * ```
 */
export function createV1Result(token) {
  return JSON.parse(createV1ResultText(token));
}
