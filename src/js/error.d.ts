// The package's error class: every error it throws or rejects with is an EdgeAttestError.

// The types name ES2020 library types (Symbol.hasInstance, Iterable, Promise): a project that
// sets no `target` (TypeScript's default library is ES5's) still compiles them. Every entry
// includes this file.
/// <reference lib="es2020" />

/** The codes of the verdict rules of verifyAttestationResult. */
export type VerdictErrorCode =
  | 'ERR_ATTESTATION_FAILED'
  | 'ERR_ATTESTATION_RESULT_MISSING'
  | 'ERR_EAT_CLAIMS_UNREADABLE'
  | 'ERR_REVOCATION_UNCONFIRMED';

/**
 * A stable machine-readable code, e.g. `ERR_REQUEST_INVALID_NONCE`, never renamed. The
 * listed literals are the ones callers most often branch on; every other `ERR_*` string is
 * possible too.
 */
export type EdgeAttestErrorCode =
  | VerdictErrorCode
  | 'ERR_INVALID_ARGUMENT'
  | 'ERR_JWT_EXPIRED'
  | 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
  | 'ERR_JWKS_NO_MATCHING_KEY'
  | 'ERR_EAT_NONCE_MISMATCH'
  | 'ERR_EAT_DIGEST_MISMATCH'
  | 'ERR_EAT_FORMAT_MISMATCH'
  | (string & {});

/**
 * Every error this package throws. `err instanceof EdgeAttestError` is true for errors made in
 * wasm too (they are `Error`s with this name and a string `code`).
 */
export class EdgeAttestError extends Error {
  /** An error with a stable `code`, its `message`, and the input member concerned (`field`). */
  constructor(code: EdgeAttestErrorCode, message: string, options?: { field?: string; cause?: unknown });
  name: 'EdgeAttestError';
  /** Stable machine-readable code. Never renamed. */
  code: EdgeAttestErrorCode;
  /** The input member concerned, e.g. `evidence_list[2].certificate`, when there is one. */
  field?: string;
  /**
   * True for an `Error` named `EdgeAttestError` with a string `code`, from any copy of the
   * package or from wasm: `error instanceof EdgeAttestError` narrows `error` to this type.
   */
  static [Symbol.hasInstance](value: unknown): value is EdgeAttestError;
}
