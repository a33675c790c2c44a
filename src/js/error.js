// The package's one error class and its one builder (coded). Errors made in wasm
// (src/wasm/error.rs) are plain `Error`s named 'EdgeAttestError' with a string `code`; errors
// made here are instances of the class.
// `instanceof` checks the brand (name and code), so it is true for both, and for errors from
// another copy of the package (a bundle that inlines it twice, the client entry and the full one).
//
// The types name ES2020 library types (Symbol.hasInstance, Iterable, Promise): a project that
// sets no `target` (TypeScript's default library is ES5's) still compiles them. Every entry
// includes this file's declarations, which keep this reference.
/// <reference lib="es2020" preserve="true" />

/**
 * The codes of the verdict rules of verifyAttestationResult.
 * @typedef {'ERR_ATTESTATION_FAILED' | 'ERR_ATTESTATION_RESULT_MISSING' | 'ERR_EAT_CLAIMS_UNREADABLE' | 'ERR_REVOCATION_UNCONFIRMED'} VerdictErrorCode
 */

/**
 * A stable machine-readable code, e.g. `ERR_REQUEST_INVALID_NONCE`, never renamed. The
 * listed literals are the ones callers most often branch on; every other `ERR_*` string is
 * possible too.
 * @typedef {VerdictErrorCode | 'ERR_INVALID_ARGUMENT' | 'ERR_JWT_EXPIRED' | 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' | 'ERR_JWKS_NO_MATCHING_KEY' | 'ERR_EAT_NONCE_MISMATCH' | 'ERR_EAT_DIGEST_MISMATCH' | 'ERR_EAT_FORMAT_MISMATCH' | (string & {})} EdgeAttestErrorCode
 */

const NAME = 'EdgeAttestError';

/**
 * Every error this package throws. `err instanceof EdgeAttestError` is true for errors made in
 * wasm too (they are `Error`s with this name and a string `code`).
 */
export class EdgeAttestError extends Error {
  /**
   * Always 'EdgeAttestError'.
   * @type {'EdgeAttestError'}
   */
  name;

  /**
   * An error with a stable `code`, its `message`, and the input member concerned (`field`).
   * @param {EdgeAttestErrorCode} code
   * @param {string} message
   * @param {{ field?: string; cause?: unknown }} [options]
   */
  constructor(code, message, options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = NAME;
    /** Stable machine-readable code. Never renamed. */
    this.code = code;
    /**
     * The input member concerned, e.g. `evidence_list[2].certificate`, when there is one.
     * @type {string | undefined}
     */
    this.field; // declares the member for the types; no effect
    if (options.field !== undefined) this.field = options.field;
  }

  /**
   * True for an `Error` named `EdgeAttestError` with a string `code`, from any copy of the
   * package or from wasm: `error instanceof EdgeAttestError` narrows `error` to this type.
   * @param {unknown} value
   * @returns {value is EdgeAttestError}
   */
  static [Symbol.hasInstance](value) {
    return (
      value !== null
      && typeof value === 'object'
      && (Error.prototype.isPrototypeOf(value) || Object.prototype.toString.call(value) === '[object Error]')
      && value.name === NAME
      && typeof value.code === 'string'
    );
  }
}

/**
 * The one builder of the package's own errors: an EdgeAttestError with `code`, `message`,
 * `field` (when given) and, from `extra`, the `cause` and any detail members (`status`,
 * `limit`, `timeout`).
 * @param {EdgeAttestErrorCode} code
 * @param {string} message
 * @param {string} [field]
 * @param {{ cause?: unknown; [detail: string]: unknown }} [extra]
 * @returns {EdgeAttestError}
 */
export function coded(code, message, field, extra = {}) {
  const { cause, ...details } = extra;
  return Object.assign(new EdgeAttestError(code, message, { field: field || undefined, cause }), details);
}

/**
 * ERR_INVALID_ARGUMENT on `field`: "`field` `must`" (e.g. "backend must be a string").
 * @param {string} field
 * @param {string} must
 */
export function invalidArgument(field, must) {
  return coded('ERR_INVALID_ARGUMENT', `${field} ${must}`, field);
}
