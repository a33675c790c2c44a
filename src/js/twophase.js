// Two-phase verification against a key set, shared by the token functions (token.js) and
// the CWT EAR reader (ear_cwt.js): the wasm core prepares the token with a parsed key set and
// the options, hands out its signature checks, this module runs them (WebCrypto, or the
// software backend in wasm) and completes the verification with the verdicts. Internal: no
// entry re-exports this module.
import { KeySet } from './edgeattest.js';
import { invalidArgument as argumentError } from './error.js';
import { tokenBackendOf as backendOf } from './backend.js';
import { runSignatureChecks } from './webcrypto.js';

// JSON goes to wasm as UTF-8 bytes, encoded natively: the glue copies a string into wasm
// memory one character at a time in JS, which in a fresh process (before the JIT has compiled
// that loop) costs milliseconds for a real JWKS (81 KB with its x5c chains) — the larger part
// of a first verification's key-set parse. The core gets the same bytes either way: a string
// encoded as the glue would (TextEncoder; a lone surrogate becomes U+FFFD), an object
// serialised as the core would (JSON.stringify). What JSON.stringify cannot serialise goes to
// the core as it is, which refuses it as before; bytes and anything else go as they are.
const utf8 = new TextEncoder();
export function asBytes(value) {
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

async function complete(verification, backend) {
  try {
    if (backend === 'software') return verification.verifySoftware();
    return verification.finish(await runSignatureChecks(verification.checks(), globalThis.crypto?.subtle));
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

// A resolver's own signers (createRemoteJWKSet's) apply unless the call names its own.
function withSigners(resolve, options) {
  if (resolve.signers === undefined || options === null || typeof options !== 'object' || options.signers !== undefined) return options;
  return { ...options, signers: resolve.signers };
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
 * Verifies `input` with `prepare` (a wasm `prepare*Verification(input, keySet, coreOptions)`
 * whose result has `checks`, `finish(verdicts)`, `verifySoftware` and `free`) against `jwks`:
 * a resolver is asked for its set (and its `signers` apply), the options are read as the
 * token functions read them, and the checks run on the options' backend.
 * @template T
 * @param {(input: any, keySet: KeySet, options: any) => { checks(): any; finish(verdicts: boolean[]): T; verifySoftware(): T; free(): void }} prepare
 * @param {unknown} input
 * @param {any} jwks
 * @param {any} options
 * @returns {Promise<T>}
 */
export async function verifyKeyed(prepare, input, jwks, options = {}) {
  if (typeof jwks === 'function') {
    const pinned = withSigners(jwks, options);
    return withResolver(jwks, (keys) => verifyKeyed(prepare, input, keys, pinned));
  }
  const backend = backendOf(options);
  const core = coreOptions(options);
  const [keySet, owned] = keySetOf(jwks);
  try {
    return await complete(prepare(input, keySet, core), backend);
  } finally {
    if (owned) keySet.free();
  }
}
