// Hand-written: the binding's own shapes, spliced beside the generated ../token.d.ts.
import type { DeviceClaims, OverallTokenClaims } from './claims.js';

// The classes are declared here rather than generated: wasm-bindgen's generated class types
// name `Symbol.dispose`, which only compiles with TypeScript's esnext.disposable library.
// At run time `[Symbol.dispose]` is still set where the host has it.

/** A parsed JWKS, kept in wasm memory so that it is parsed once. `free()` releases it. */
export class KeySet {
  free(): void;
  /**
   * Parses a JWKS (JSON text, bytes or object), strictly: ES384 P-384 keys only are usable;
   * duplicate members or a malformed key throw `ERR_JWKS_INVALID`.
   */
  constructor(jwks: string | Uint8Array | { keys: object[] });
  /** The usable keys' ids, in document order. */
  readonly kids: (string | null)[];
  /** The set as a JWKS object. */
  toJSON(): { keys: P384Jwk[] };
}

/** A P-384 public key (always a point on the curve). */
export class P384PublicKey {
  private constructor();
  free(): void;
  /** From a public JWK (object or JSON text); throws `ERR_JWK_*` or `ERR_KEY_NOT_ON_CURVE`. */
  static fromJwk(jwk: string | object): P384PublicKey;
  /** Key text by the core's one rule (a JWK when it starts with `{`, else SPKI PEM), or a JWK object. */
  static fromText(input: string | object): P384PublicKey;
  /** From SPKI PEM text; throws `ERR_KEY_ENCODING_INVALID` or `ERR_KEY_NOT_ON_CURVE`. */
  static fromSpkiPem(pem: string): P384PublicKey;
  /** From SEC1 bytes (WebCrypto's `raw` format); throws `ERR_KEY_*` for bytes that are not a P-384 point. */
  static fromSec1(bytes: Uint8Array | ArrayBuffer | string): P384PublicKey;
  /** The public JWK, with `kid` when given. */
  toJwk(kid?: string | null): P384Jwk;
  /** The key as SPKI PEM text. */
  toSpkiPem(): string;
  /** The key as uncompressed SEC1 bytes (97 bytes). */
  toSec1(): Uint8Array;
}

/** A P-384 signing key held in wasm memory (the software backend). */
export class P384PrivateKey {
  private constructor();
  free(): void;
  /** A new key from crypto.getRandomValues. */
  static generate(): P384PrivateKey;
  /** From a private JWK (object or JSON text); throws `ERR_JWK_*` or `ERR_KEY_*`. */
  static fromJwk(jwk: string | object): P384PrivateKey;
  /** Key text by the core's one rule, as a service reads its signingKey (a private JWK when it
   * starts with `{`, else PKCS#8 PEM), or a private JWK object. */
  static fromText(input: string | object): P384PrivateKey;
  /** From PKCS#8 PEM text; throws `ERR_KEY_ENCODING_INVALID` or `ERR_KEY_INVALID_SCALAR`. */
  static fromPkcs8Pem(pem: string): P384PrivateKey;
  /** The private JWK (with `d`: keep it secret), with `kid` when given. */
  toJwk(kid?: string | null): P384Jwk;
  /** The key as PKCS#8 PEM text (secret). */
  toPkcs8Pem(): string;
  /** The key as PKCS#8 DER bytes, for `crypto.subtle.importKey("pkcs8", …)` (secret). */
  toPkcs8Der(): Uint8Array;
  /** Its public key. */
  publicKey(): P384PublicKey;
  /** Raw 96-byte r||s signature over message (SHA-384), deterministic, low S. */
  sign(message: Uint8Array): Uint8Array;
}

/** A verification between its two phases. Single use. */
export class TokenVerification {
  private constructor();
  free(): void;
  /** The signature checks to run, in order. */
  checks(): SignatureCheckData[];
  /** Completes the verification with one boolean verdict per check. */
  finish(verdicts: boolean[]): VerifiedJwtResult | VerifiedAttestationResultData;
  /** Completes the verification with the software backend. */
  verifySoftware(): VerifiedJwtResult | VerifiedAttestationResultData;
}
