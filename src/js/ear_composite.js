// Composite EARs, for `edgeattest/service`: one EAR with a submodule per
// attester of a confidential-computing node, our GPUs' beside the caller's CPU TEE appraisal.
// The core composes (composeEarClaims: relabelling, unique labels, the status as the worst),
// builds the signing input of the caller's key (earJwtSigningInput, prepareEarCwtSigning: the
// key signs here, WebCrypto or the software key, as keys.js signs tokens) and verifies
// (prepareCompositeEarVerification: verifyEar's rules in either encoding, then the
// composition rule). Not in `edgeattest` (the CWT writer and reader stay out of its module)
// nor in `edgeattest/local` (its module's size budget).
// The nonce binding the caller must do is the core's documentation (src/ear/composite.rs),
// summarised in README.md's "Composite EARs".
import {
  P384PrivateKey,
  assembleJws,
  composeEarClaims,
  earJwtSigningInput,
  prepareCompositeEarVerification,
  prepareEarCwtSigning,
} from './edgeattest.js';
import { invalidArgument as argumentError } from './error.js';
import { verifyKeyed } from './twophase.js';
import { ES384 } from './webcrypto.js';

/**
 * @import { ComposeEarOptions, CompositeEar, CompositeEarData } from './edgeattest.js'
 * @import { SigningKeyInput } from './keys.js'
 * @import { JwksInput, VerifyTokenOptions } from './token.js'
 */

/**
 * @typedef {object} SignEarOptions
 * @property {string} kid The key id written in the header (required).
 * @property {'jwt' | 'cwt'} [encoding] A JWT (the default, text) or a CWT (bytes; -04 only).
 */

/**
 * @typedef {VerifyTokenOptions & { gpus: string[] }} VerifyCompositeEarOptions
 * `verifyEar`'s options and `gpus`, the labels of the GPU submodules the composite must hold.
 */

const isCryptoKey = (key) => typeof CryptoKey !== 'undefined' && key instanceof CryptoKey;

/**
 * Composes one EAR of a node from our verified GPU EAR (`verifyEar`'s result) and the
 * caller's own appraisals (`foreign`: its CPU TEE's, as `cpu0`), relabelling ours when
 * `relabel` says (`{ 'GPU-0': 'gpu0' }`, as trustee labels). The result's `claims` are unsigned:
 * sign them with your own key (`signEar`). The status is the worst of every submodule: a
 * contraindicated CPU makes the whole contraindicated. `nonce` is the challenge both parts
 * answered: bind them first (see "Composite EARs" in the README: the CPU report must commit
 * to the GPU nonce and evidence), or a GPU of another machine could stand beside this CPU.
 *
 * @param {ComposeEarOptions} options
 * @returns {CompositeEar}
 * @throws EdgeAttestError `ERR_EAR_SHAPE` (`field` `submods`: a label twice, relabelled ones
 * included; `foreign/<label>/status`, …: an appraisal of the wrong shape; `eat_nonce`: a
 * nonce -04 cannot carry), `ERR_INVALID_ARGUMENT` (a missing or misspelt option, a `relabel`
 * key that is no GPU's label, no `foreign` appraisal).
 *
 * @example
 * ```ts
 * declare const token: string, jwks: { keys: object[] }, root: string; // our service's GPU EAR, its JWKS and root
 * declare const challenge: string; // the hex nonce both the GPU and the CPU reports answered
 * const gpus = await verifyEar(token, jwks, { nonce: challenge, signers: [{ certificate: root }] });
 * const composite = composeEar({
 *   gpus,
 *   relabel: { 'GPU-0': 'gpu0' },
 *   foreign: { cpu0: { status: 'affirming', trustworthinessVector: { 'instance-identity': 2, hardware: 2 } } },
 *   dialect: 'ietf-04',
 *   nonce: challenge,
 *   verifierId: { developer: 'https://relying-party.example', build: 'rp 1.0' },
 * });
 * if (!composite.affirming) console.error(composite.status);
 * ```
 */
export function composeEar(options) {
  if (options === null || typeof options !== 'object') throw argumentError('options', 'must be an object');
  const { iat = Math.floor(Date.now() / 1000), ...rest } = options;
  return composeEarClaims({ ...rest, iat });
}

async function signBytes(bytes, key) {
  if (isCryptoKey(key)) return new Uint8Array(await globalThis.crypto.subtle.sign(ES384, key, bytes));
  if (key instanceof P384PrivateKey) return key.sign(bytes);
  throw argumentError('key', 'must be a CryptoKey (ECDSA P-384) or a P384PrivateKey');
}

/**
 * Signs an EAR's claims (`composeEar`'s `claims`) with your key: an ES384 JWT (text) or, with
 * `encoding: 'cwt'`, a CWT (`COSE_Sign1`, bytes; -04 claims only), the header naming
 * `options.kid`. The claims are read by the core's rules first (profile, shape, the status
 * rule), and the EAR they describe is what is signed. The key signs outside wasm: a
 * WebCrypto `CryptoKey` never enters wasm memory.
 *
 * @param {Record<string, unknown>} claims
 * @param {SigningKeyInput} key
 * @param {SignEarOptions} options
 * @returns {Promise<string | Uint8Array>}
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` (a missing `kid`, another
 * `encoding`, a key that is not a P-384 signing key), `ERR_EAR_PROFILE` / `ERR_EAR_SHAPE`
 * (claims that are not an EAR; `eat_profile` for a veraison-dialect EAR asked as a CWT).
 *
 * @example
 * ```ts
 * declare const composite: ReturnType<typeof composeEar>;
 * const { privateKey } = await generateKeyPair();
 * const jwt = await signEar(composite.claims, privateKey, { kid: 'rp-1' });
 * const cwt = await signEar(composite.claims, privateKey, { kid: 'rp-1', encoding: 'cwt' });
 * ```
 */
export async function signEar(claims, key, options) {
  const kid = options?.kid;
  if (typeof kid !== 'string') throw argumentError('kid', 'must be a string (the JWKS key id)');
  const encoding = options.encoding ?? 'jwt';
  if (encoding === 'jwt') {
    const input = earJwtSigningInput(claims, kid);
    return assembleJws(input, await signBytes(new TextEncoder().encode(input), key));
  }
  if (encoding !== 'cwt') throw argumentError('encoding', "must be 'jwt' or 'cwt'");
  const signing = prepareEarCwtSigning(claims, kid);
  try {
    return signing.assemble(await signBytes(signing.toBeSigned(), key));
  } finally {
    signing.free();
  }
}

/**
 * Verifies a composite EAR (JWT text or CWT bytes) as `verifyEar` does — the signature with
 * `jwks` and `signers`, the times, the dialect's claims, `nonce` equal to `eat_nonce`, the
 * top status no better than the worst submodule's, foreign submodules read as appraisals —
 * then requires every label of `gpus` among its submodules and at least one other (the
 * foreign part). The result is `verifyEar`'s with `foreign`, the other labels. A verified
 * composite may say "contraindicated" (any part of it): read `affirming` or `status`.
 * This does not check the nonce binding between the parts: the composer did (see
 * "Composite EARs" in the README).
 *
 * @param {string | Uint8Array | ArrayBuffer} token
 * @param {JwksInput} jwks
 * @param {VerifyCompositeEarOptions} options
 * @returns {Promise<CompositeEarData>}
 * @throws EdgeAttestError (as a rejection) `ERR_EAR_SHAPE` (`field` `submods/<label>`: a GPU
 * named is missing; `submods`: no submodule besides the GPUs), `ERR_INVALID_ARGUMENT` (`gpus`
 * not a non-empty array of labels), or `verifyEar`'s codes (`ERR_EAR_PROFILE`,
 * `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, `ERR_JWKS_NO_MATCHING_KEY`, `ERR_SIGNER_*`,
 * `ERR_EAT_NONCE_MISMATCH`, `ERR_CBOR_*` / `ERR_COSE_*`).
 *
 * @example
 * ```ts
 * declare const token: string, challenge: string, jwks: { keys: object[] }; // the composer's key set
 * const ear = await verifyCompositeEar(token, jwks, { gpus: ['gpu0'], nonce: challenge, maxTokenAge: 300 });
 * if (!ear.affirming) console.error(ear.status, ear.submods);
 * console.log(ear.foreign); // ["cpu0"]
 * ```
 */
export async function verifyCompositeEar(token, jwks, options) {
  if (token instanceof ArrayBuffer) token = new Uint8Array(token);
  if (options === null || typeof options !== 'object') throw argumentError('options', 'must be an object');
  const { gpus, ...rest } = options;
  const prepare = (input, keySet, core) => prepareCompositeEarVerification(input, keySet, core, gpus);
  return verifyKeyed(prepare, token, jwks, rest);
}
